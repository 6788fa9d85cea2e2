"""Per-viewer JSON of a SWADE encounter (the initiative board) and a chase (the chase row).

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
the GM only (webapp/systems/savage/characters.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import savage
from engine.savage import chase
from engine.savage.actions import ATTACK_SKILLS, default_damage
from engine.savage.cards import Card
from engine.savage.chase.rules import COMPLICATIONS, suit_of
from engine.services.scenes import SceneView
from webapp.projection import GM, Viewer


@dataclass(frozen=True)
class EncounterScene(SceneView[savage.Encounter]):
    """An encounter as read once for all viewers, with its public log of the latest steps
    (encounter_log.py; public: the chat posts the same steps)."""

    log: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class ChaseScene:
    """A chase as read once for all viewers: names and controllers of its participants."""

    view: SceneView[chase.ChaseState]
    names: Mapping[str, str] = field(default_factory=dict)
    owners: Mapping[str, frozenset[int]] = field(default_factory=dict)


def card_json(card: Card | None) -> dict[str, Any] | None:
    if card is None:
        return None
    return {"code": card.code, "rank": card.rank, "suit": card.suit, "joker": card.is_joker}


def _sheet(c: savage.Character) -> dict[str, Any]:
    return {
        "attributes": {name: str(die) for name, die in c.attributes},
        "skills": {name: str(die) for name, die in c.skills},
        "parry": c.current_parry(),
        "toughness": c.toughness,
        "armor": c.armor,
        "pace": c.current_pace(),
        "edges": list(c.edges),
    }


def can_reroll(state: savage.Encounter, c: savage.Character) -> bool:
    """A benny may re-roll the character's last trait roll now (engine.savage.reroll)."""
    if c.bennies <= 0 or state.last_roll(c.id) is None:
        return False
    try:
        savage.rerollable(state, c.id)
    except savage.RuleError:
        return False
    return True


def _character(state: savage.Encounter, c: savage.Character, viewer: Viewer) -> dict[str, Any]:
    s = c.status
    mine = c.owner is not None and c.owner == viewer.user_id
    out: dict[str, Any] = {
        "id": c.id,
        "name": c.name,
        "wild": c.wild,
        "owner": c.owner,
        "mine": mine,
        "bennies": c.bennies,
        "shaken": s.shaken,
        "stunned": s.stunned,
        "wounds": s.wounds,
        "fatigue": s.fatigue,
        "incapacitated": s.incapacitated,
        "bleeding_out": s.bleeding_out,
        "dead": s.dead,
        "out": s.out,
        "conditions": [{"kind": k.kind, "value": k.value, "until": k.until} for k in s.conditions],
        "injuries": [{"kind": i.kind, "duration": i.duration} for i in s.injuries],
        "reroll": can_reroll(state, c),
    }
    if viewer.role == GM or mine:
        out["sheet"] = _sheet(c)
    return out


def _combatant(state: savage.Encounter, c: savage.Combatant, viewer: Viewer) -> dict[str, Any]:
    return {
        "id": c.id,
        "name": c.name,
        "group": c.group or len(c.members) > 1,
        "card": card_json(c.card),
        "joker": c.has_joker,
        "hold": c.hold,
        "acted": c.acted,
        "in_fight": c.in_fight,
        "acting": state.current == c.id,
        "wild": c.wild,
        "mine": any(m.owner == viewer.user_id for m in c.members if m.owner is not None),
        "members": [_character(state, m, viewer) for m in c.members],
    }


def board_order(state: savage.Encounter) -> list[savage.Combatant]:
    """As the chat's board: dealt cards highest first, then on Hold without a card, then
    the rest (no card yet)."""
    dealt = list(state.order())
    hold = [c for c in state.combatants if c.card is None and c.hold]
    rest = [c for c in state.combatants if c.card is None and not c.hold]
    return dealt + hold + rest


def project_encounter(
    view: SceneView[savage.Encounter] | None, viewer: Viewer
) -> dict[str, Any] | None:
    if view is None:
        return None
    s = view.state
    pending = None
    if s.pending is not None:
        p = s.pending
        pending = {
            "character": p.character,
            "wounds": p.wounds,
            "shaken": p.shaken,
            "soaked": p.soaked,
            "attempts": p.attempts,
        }
    return {
        "stream": view.stream,
        "seq": view.seq,
        "closed": view.closed,
        "round": s.round,
        "current": s.current,
        "up_next": s.up_next(),
        "suspended": list(s.suspended),
        "queued": list(s.queued),
        "deck": {
            "draw": len(s.deck.draw),
            "discard": len(s.deck.discard),
            "reshuffle": s.deck.needs_shuffle,
        },
        "combatants": [_combatant(s, c, viewer) for c in board_order(s)],
        "pending": pending,
        "log": list(view.log) if isinstance(view, EncounterScene) else [],
        # what an attack without dice does (the engine's reading, docs/rules/savage.md)
        "default_damage": {skill: default_damage(skill) for skill in ATTACK_SKILLS},
    }


def _complication(card: Card) -> dict[str, Any]:
    modifier, result = COMPLICATIONS[suit_of(card)]
    return {"modifier": modifier, "result": result}


def _participant(
    state: chase.ChaseState, p: chase.Participant, scene: ChaseScene, viewer: Viewer
) -> dict[str, Any]:
    mine = viewer.user_id in scene.owners.get(p.id, frozenset())
    out: dict[str, Any] = {
        "id": p.id,
        "name": scene.names.get(p.id, p.id),
        "side": p.side,
        "position": p.position,
        "movement": p.movement,
        "leader": p.leader,
        "status": p.status,
        "wounds": p.wounds,
        "fatigue": p.fatigue,
        "mine": mine,
        "turn": state.turn(p.id) is not None,
    }
    if viewer.role == GM or mine:
        out["stats"] = {
            "skill": p.skill,
            "die": p.die,
            "die_bonus": p.die_bonus,
            "modifier": p.modifier,
            "wild_card": p.wild_card,
            "unskilled": p.unskilled,
        }
    return out


def _distances(state: chase.ChaseState) -> list[dict[str, Any]]:
    units = [p for p in state.participants if p.active and p.leader is None]
    pairs = []
    for i, a in enumerate(units):
        for b in units[i + 1 :]:
            if a.side != b.side:
                pairs.append(
                    {"a": a.id, "b": b.id, "cards": chase.card_distance(state, a.id, b.id)}
                )
    return pairs


def project_chase(scene: ChaseScene | None, viewer: Viewer) -> dict[str, Any] | None:
    if scene is None:
        return None
    view, s = scene.view, scene.view.state
    return {
        "stream": view.stream,
        "seq": view.seq,
        "closed": view.closed,
        "round": s.round,
        "options": s.options.to_dict(),
        "row": [{**(card_json(card) or {}), "complication": _complication(card)} for card in s.row],
        "sides": list(s.sides()),
        "participants": [_participant(s, p, scene, viewer) for p in s.participants],
        "turns": [
            {
                "participant": t.participant,
                "card": card_json(t.action_card),
                "changed_position": t.changed_position,
                "dropped_back": t.dropped_back,
                "declared_actions": t.declared_actions,
                "actions_used": t.actions_used,
                "lost": t.lost,
            }
            for t in s.turns
        ],
        "pending": [x.to_dict() for x in s.pending],
        "ended": s.ended.to_dict() if s.ended else None,
        "distances": _distances(s),
    }
