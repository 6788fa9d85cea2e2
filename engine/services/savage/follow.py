"""Follow-up policies of a SWADE step, inside its unit of work: the chase follows a fight
step, the fight takes the Fatigue a chase step gave, and an undo of a fight step takes back
the chase steps it caused. The rules are pure (engine/savage/chase/follow.py); here they are
stored.

Each caused step is the game's bookkeeping, not anybody's choice: it is stored beside the
step that caused it, in the same transaction, with that step as its `cause` (`$cause`), so
undoing the fight step takes them back too — as long as they are still the chase's newest
steps (a chase step made since stops the walk).
"""

from __future__ import annotations

import dataclasses
import logging
from functools import reduce
from typing import Any

from engine import savage
from engine.dice.rng import Rng
from engine.savage import chase
from engine.savage.chase import follow
from engine.services.aggregates.unit import Unit
from engine.services.aggregates.write import undo_caused_in
from engine.services.savage.aggregates import CHASE, ENCOUNTER
from engine.services.scenes import Caused

log = logging.getLogger(__name__)

ENCOUNTER_KIND = ENCOUNTER.name
CHASE_KIND = CHASE.name


def cause(stream: str, step: int | None) -> dict[str, Any] | None:
    return None if step is None else {"stream": stream, "step": step}


async def _open_chase(unit: Unit) -> tuple[str, chase.ChaseState] | None:
    key = await unit.active_key(CHASE_KIND)
    if key is None:
        return None
    return key, await unit.state(CHASE, key)


async def chase_follows(
    unit: Unit,
    fight_key: str,
    step: int | None,
    events: tuple[savage.Event, ...],
    fight: savage.Encounter,
    rng: Rng,
    before: savage.Encounter | None = None,
) -> tuple[Caused, ...]:
    """Store the chase steps that the fight step `step` (its `events`, `fight` after it,
    `before` it when known) causes; none if there is no running chase or nothing to do
    (the encounter's `follow`, engine/services/scene_service.py)."""
    if not events:
        return ()
    found = await _open_chase(unit)
    if found is None:
        return ()
    key, state = found
    steps = follow.follow_fight(state, fight, events, rng, before)
    if not steps:
        return ()
    why = cause(fight_key, step)
    produced: list[chase.Event] = []
    for new, after in steps:
        unit.record(CHASE, key, new, state=after, cause=why)
        produced.extend(new)
    state_after = await unit.state(CHASE, key)
    out = Caused(key, state_after, tuple(produced), unit.seq(key), len(steps), unit.board(key))
    unit.note(CHASE_KIND, CHASE, stream=key, seq=out.seq, events=out.events, actor_id=unit.actor_id)
    return (out,)


async def fight_follows(
    unit: Unit,
    chase_key: str,
    chase_step: int | None,
    events: tuple[chase.Event, ...],
    state: chase.ChaseState,
    rng: Rng,
    before: chase.ChaseState | None = None,
) -> tuple[Caused, ...]:
    """After a chase step (`state` after it): a critical failure resolved with Fatigue gives
    the linked fight character that level (`ChangeFatigue` +1 as the GM), and the chase
    turns' declarations and actions go to the fight characters (`CountChaseActions`: one
    turn, one multi-action count). The chase follows that fight step like any other (it
    already counted both, so the syncs find them equal). Nothing: nothing to give, no fight,
    or the fight refused it all (e.g. Fatigue while damage waits for a Soak). The chase's
    `follow` (engine/services/scene_service.py)."""
    if not events:
        return ()
    key = await unit.active_key(ENCOUNTER_KIND)
    if key is None:
        return ()
    fight = await unit.state(ENCOUNTER, key)
    new: tuple[savage.Event, ...] = ()
    first = fight.step + 1  # the commands make one step: their events share its number
    for command in follow.fight_commands(events, state, fight):
        try:
            made = savage.decide(fight, command, rng)
        except savage.RuleError as exc:
            log.info("chase step not followed in the fight: %s", exc)
            continue
        made = tuple(dataclasses.replace(e, step=first) for e in made)
        fight = reduce(savage.evolve, made, fight)
        new += made
    if not new:
        return ()
    why = cause(chase_key, chase_step)
    step = unit.record(ENCOUNTER, key, new, cause=why)  # `why`: the chase step, for its undo
    after = await unit.state(ENCOUNTER, key)
    unit.note(
        ENCOUNTER_KIND, ENCOUNTER, stream=key, seq=unit.seq(key), events=new, actor_id=unit.actor_id
    )
    followed = await chase_follows(unit, key, step, new, after, rng)
    return (Caused(key, after, new, unit.seq(key), 1, unit.board(key)), *followed)


async def undo_chase_caused(unit: Unit, fight_key: str, undone_step: int) -> Caused | None:
    """After a fight step's undo: take back the chase steps that step caused."""
    key = await unit.active_key(CHASE_KIND)
    if key is None:
        return None
    undone = await undo_caused_in(unit, CHASE, key, {"stream": fight_key, "step": undone_step})
    if not undone:
        return None
    last = undone[-1]
    unit.note(CHASE_KIND, stream=key, seq=last.seq, undone=last.undone_step, actor_id=unit.actor_id)
    return Caused(key, last.state, (), last.seq, len(undone), unit.board(key))


async def undo_fight_caused(unit: Unit, chase_key: str, undone_step: int) -> Caused | None:
    """After a chase step's undo: take back the fight steps it caused (the Fatigue of a
    critical failure, the chase turn's action count)."""
    key = await unit.active_key(ENCOUNTER_KIND)
    if key is None:
        return None
    undone = await undo_caused_in(unit, ENCOUNTER, key, {"stream": chase_key, "step": undone_step})
    if not undone:
        return None
    last = undone[-1]
    unit.note(
        ENCOUNTER_KIND, stream=key, seq=last.seq, undone=last.undone_step, actor_id=unit.actor_id
    )
    return Caused(key, last.state, (), last.seq, len(undone), unit.board(key))
