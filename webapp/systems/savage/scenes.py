"""Reading a Savage Worlds game's active encounter and chase once for every viewer (the
live snapshot, each push after a change, the boards' answers); every viewer's JSON is
projected from it (projection.py)."""

from __future__ import annotations

import dataclasses

from engine import savage
from engine.savage import event_from_dict
from engine.services import get_game
from engine.services.aggregates import UNDO
from engine.services.library import name_key
from engine.services.savage import current_chase, current_encounter, table_of
from engine.services.scenes import SceneView
from engine.store.models import SavedCharacter, StreamEvent
from webapp.systems.savage.encounter_log import LOGGED, encounter_log
from webapp.systems.savage.projection import ChaseScene, EncounterScene

EncounterView = SceneView[savage.Encounter]
LOG_ROWS = 80  # the newest logged events read for the board's log (a few steps' worth)


async def recent_steps(view: EncounterView) -> list[list[savage.Event]]:
    """The latest steps of the encounter's stream up to the view's seq, oldest first, with
    only the event types the log shows; steps taken back by an undo are left out (as
    engine.services.aggregates.log.effective). The oldest step may be cut short."""
    rows = (
        await StreamEvent.filter(
            stream__game_id=view.game_id,
            stream__key=view.stream,
            seq__lte=view.seq,
            type__in=[*LOGGED, UNDO],
        )
        .order_by("-seq")
        .limit(LOG_ROWS)
        .values_list("step", "type", "payload")
    )
    rows.reverse()
    undone = {int(payload["step"]) for _, kind, payload in rows if kind == UNDO}
    steps: dict[int, list[savage.Event]] = {}
    for step, kind, payload in rows:
        if kind != UNDO and step not in undone:
            steps.setdefault(step, []).append(event_from_dict(payload))
    return list(steps.values())


async def load_encounter(game_id: int) -> EncounterScene | None:
    """The active encounter with its public log (encounter_log.py)."""
    view = await current_encounter(game_id)
    if view is None:
        return None
    steps = await recent_steps(view)
    fields = {f.name: getattr(view, f.name) for f in dataclasses.fields(view)}
    log = tuple(encounter_log(view.state, steps))
    return EncounterScene(**fields, log=log, table=table_of(await get_game(game_id)))


def _encounter_names(state: savage.Encounter) -> dict[str, str]:
    known: dict[str, str] = {}
    for c in state.combatants:
        known[c.id] = c.name
        for m in c.members:
            known[m.id] = m.name
    return known


def _encounter_owners(state: savage.Encounter) -> dict[str, frozenset[int]]:
    owners: dict[str, frozenset[int]] = {}
    for c in state.combatants:
        owners[c.id] = frozenset(m.owner for m in c.members if m.owner is not None)
        for m in c.members:
            owners[m.id] = frozenset({m.owner}) if m.owner is not None else frozenset()
    return owners


async def load_chase(game_id: int, encounter: EncounterView | None = None) -> ChaseScene | None:
    """The active chase with its participants' names (encounter names) and controllers
    (as engine.services.chases.controllers: the encounter's owners, else the saved
    character's owner)."""
    view = await current_chase(game_id)
    if view is None:
        return None
    encounter = encounter or await current_encounter(game_id)
    names: dict[str, str] = {}
    owners: dict[str, frozenset[int]] = {}
    if encounter is not None:
        names = _encounter_names(encounter.state)
        owners = _encounter_owners(encounter.state)
    missing = [p.id for p in view.state.participants if p.id not in owners]
    if missing:
        keys = {name_key(pid): pid for pid in missing}
        rows = await SavedCharacter.filter(game_id=game_id, key__in=list(keys)).values_list(
            "key", "owner_id"
        )
        for key, owner in rows:
            owners[keys[key]] = frozenset({owner}) if owner is not None else frozenset()
    return ChaseScene(view, names, owners)
