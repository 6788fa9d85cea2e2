"""Reading a game's open fight once for every viewer, with its latest published attack and
the attacks the GM undid since (the log keeps them, struck through)."""

from __future__ import annotations

import dataclasses

from engine.services.aggregates import UNDO
from engine.services.storyteller import current_fight
from engine.store.models import StreamEvent
from engine.storyteller import events as ev
from webapp.systems.storyteller.projection import FightScene

ROWS = 40
UNDONE_SHOWN = 3  # the attacks undone since the last one standing, kept in sight struck through


async def load_fight(game_id: int) -> FightScene | None:
    view = await current_fight(game_id)
    if view is None:
        return None
    rows = (
        await StreamEvent.filter(
            stream__game_id=game_id,
            stream__key=view.stream,
            seq__lte=view.seq,
            type__in=["AttackResolved", UNDO],
        )
        .order_by("-seq")
        .limit(ROWS)
        .values_list("step", "type", "payload")
    )
    undone = {int(payload["step"]) for _, kind, payload in rows if kind == UNDO}
    attack: ev.AttackResolved | None = None
    taken_back: list[ev.AttackResolved] = []
    for step, kind, payload in rows:  # newest first
        if kind == UNDO:
            continue
        event = ev.event_from_dict(payload)
        assert isinstance(event, ev.AttackResolved)
        if step not in undone:
            attack = event
            break
        if len(taken_back) < UNDONE_SHOWN:
            taken_back.append(event)
    fields = {f.name: getattr(view, f.name) for f in dataclasses.fields(view)}
    return FightScene(**fields, attack=attack, undone_attacks=tuple(taken_back))
