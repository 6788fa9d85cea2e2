"""The chase follows the encounter's turns (docs/rules/chase.md: the action cards and the order
of turns are the combat engine's): a new round of the fight opens a chase round, a turn that
starts opens the chase turn of the combatant's participants on its action card (a Clubs card
rolls the Complication), a turn that ends closes them.

These steps are the game's bookkeeping, not anybody's choice: they are sent as the GM (the
services have no "system" actor), after the encounter command that caused them, whether that
command came from the chat or from the Mini App. Each is stored with its cause (the encounter
step), so undoing that step takes them back too (`undo_followed`) — as long as they are
still the chase's newest steps."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from engine import savage
from engine.dice.rng import Rng
from engine.savage import chase
from engine.services import aggregates as agg
from engine.services.chases import chase_command, current_chase, start_chase_turn
from engine.services.chases_aggregate import CHASE
from engine.services.encounters import current_encounter
from engine.services.encounters_common import CommandOutcome, UndoOutcome
from engine.services.errors import ServiceError
from engine.services.games import get_game
from engine.services.notify import notify

log = logging.getLogger(__name__)


Cause = Mapping[str, Any]


def cause_of(out: CommandOutcome[Any, Any]) -> Cause | None:
    """The encounter step an outcome wrote (None if it wrote nothing)."""
    return None if out.step_id is None else {"stream": out.stream, "step": out.step_id}


async def follow_encounter(
    game_id: int,
    events: tuple[savage.Event, ...],
    *,
    rng: Rng,
    cause: Cause | None = None,
) -> list[chase.Event]:
    """Apply the chase steps that `events` (just stored, by the encounter step `cause`)
    cause; returns the chase events.

    A refusal (a combatant who is not in the chase, a chase already over) is no error."""
    if not events:
        return []
    view = await current_chase(game_id)
    if view is None or view.state.ended is not None or not view.state.started:
        return []
    game = await get_game(game_id)
    encounter = await current_encounter(game_id)
    if game.gm_id is None or encounter is None:
        return []
    produced: list[chase.Event] = []
    for event in events:
        try:
            produced += await _follow(game_id, game.gm_id, event, encounter.state, rng, cause)
        except (chase.ChaseError, ServiceError) as exc:
            log.debug("chase does not follow %s: %s", type(event).__name__, exc)
    return produced


def _ids(state: savage.Encounter, combatant_id: str) -> set[str]:
    try:
        combatant = state.combatant(combatant_id)
    except savage.RuleError:
        return {combatant_id}
    return {combatant.id, *(m.id for m in combatant.members)}


async def _follow(
    game_id: int,
    gm: int,
    event: savage.Event,
    state: savage.Encounter,
    rng: Rng,
    cause: Cause | None,
) -> list[chase.Event]:
    current = await current_chase(game_id)
    if current is None or current.state.ended is not None:
        return []
    if isinstance(event, savage.events.TurnEnded):
        produced: list[chase.Event] = []
        for turn in current.state.turns:
            if turn.participant in _ids(state, event.combatant):
                done = await chase_command(
                    game_id, chase.EndTurn(turn.participant), actor_id=gm, rng=rng, cause=cause
                )
                produced += done.events
        return produced
    if isinstance(event, savage.events.RoundStarted):
        done = await chase_command(game_id, chase.StartRound(), actor_id=gm, rng=rng, cause=cause)
        return list(done.events)
    if isinstance(event, savage.events.TurnStarted):
        opened = await start_chase_turn(game_id, actor_id=gm, rng=rng, cause=cause)
        return list(opened.events)
    return []


async def undo_followed(game_id: int, undone: UndoOutcome[Any, Any], *, actor_id: int) -> int:
    """After an encounter undo: take back the chase steps that the undone step caused (the
    chase's newest ones; a chase step made since stops it). Returns how many."""
    view = await current_chase(game_id)
    if view is None:
        return 0
    cause = {"stream": undone.stream, "step": undone.undone_step}
    try:
        steps = await agg.undo_caused(CHASE, game_id, view.stream, cause, actor_id=actor_id)
    except ServiceError as exc:  # the chase closed or the game ended meanwhile
        log.debug("chase steps of %s not undone: %s", cause, exc)
        return 0
    if steps:
        last = steps[-1]
        await notify(
            game_id,
            "chase",
            stream=view.stream,
            seq=last.seq,
            undone=last.undone_step,
            actor_id=actor_id,
        )
    return len(steps)
