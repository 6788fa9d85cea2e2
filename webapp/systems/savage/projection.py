"""Per-viewer JSON of a SWADE encounter (the initiative board) and a chase (the chase row):
the scenes as the web app reads them once for all viewers, observed for each by the
engine (engine/savage/observe.py, engine/savage/chase/observe.py: what is whose is written
there, next to the rules).

What is public at the table (everyone who holds the game's token): the round, the dealt
cards and the turn order, who acts, Hold and Jokers, interrupted/queued turns, the deck's
counts, every character's name, Wild Card mark, bennies, Shaken/Stunned, Wounds, Fatigue,
conditions, injuries and out/bleeding/dead, the damage waiting for a Soak, groups with their
members, whether a character's last trait roll may still be re-rolled with a benny (the chat
shows that button to all), and the log of the latest steps (encounter_log.py: every trait
roll with its total, TN, outcome and modifiers, damage against the Toughness it met,
the states that followed — the same steps the chat posts as text, so a Fighting attack's TN
shows the target's Parry of the moment as it does in the chat); in a chase the row of cards
(with the Complication each suit triggers), positions, sides, groups, turns in progress,
pending choices, who fled or is out, distances.

GM-only (DESIGN decision 3): a character's sheet — attributes, skills, Parry, Toughness,
armor, Pace, edges — and a chase participant's maneuvering stats (skill, die, modifier) are
sent to the GM and to the player who owns the character, never to anyone else; the order of
the face-down draw pile is sent to nobody (only counts). Saved NPC templates are listed for
the GM only (webapp/systems/savage/characters.py). ``may_set``: the parts of a roll the
viewer may set (engine/savage/authority.py), the same for every player of the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import savage
from engine.observe import GM
from engine.savage import authority, chase
from engine.savage.chase.observe import observe_chase
from engine.savage.observe import observe_encounter
from engine.services.scenes import SceneView
from webapp.projection import Viewer


@dataclass(frozen=True)
class EncounterScene(SceneView[savage.Encounter]):
    """An encounter as read once for all viewers, with its public log of the latest steps
    (encounter_log.py; public: the chat posts the same steps)."""

    log: tuple[dict[str, Any], ...] = ()
    table: authority.Table = field(default_factory=authority.Table)


@dataclass(frozen=True, slots=True)
class ChaseScene:
    """A chase as read once for all viewers: names and controllers of its participants."""

    view: SceneView[chase.ChaseState]
    names: Mapping[str, str] = field(default_factory=dict)
    owners: Mapping[str, frozenset[int]] = field(default_factory=dict)


def project_encounter(
    view: SceneView[savage.Encounter] | None, viewer: Viewer
) -> dict[str, Any] | None:
    if view is None:
        return None
    log = view.log if isinstance(view, EncounterScene) else ()
    table = view.table if isinstance(view, EncounterScene) else authority.Table()
    out = observe_encounter(
        view.state, viewer, stream=view.stream, seq=view.seq, closed=view.closed, log=log
    )
    # what this viewer's action panel offers (engine/savage/authority.py: the GM all)
    out["may_set"] = list(authority.settable(table, gm=viewer.role == GM))
    return out


def project_chase(scene: ChaseScene | None, viewer: Viewer) -> dict[str, Any] | None:
    if scene is None:
        return None
    view = scene.view
    return observe_chase(
        view.state,
        viewer,
        stream=view.stream,
        seq=view.seq,
        closed=view.closed,
        names=scene.names,
        owners=scene.owners,
    )
