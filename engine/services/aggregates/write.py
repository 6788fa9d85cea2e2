"""Writing one stream: execute a decision as one step, undo the last step.

Both are a unit of work of their own (`unit.py`): the game row locked, the stream read
once, the step written with a conditional head UPDATE. Steps that touch several streams
(a step and the steps its follow-up policies cause) use `run_unit` directly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from engine.services.aggregates.model import (
    Aggregate,
    Decision,
    E,
    ExecuteResult,
    S,
    UndoResult,
    check_key,
)
from engine.services.aggregates.unit import Unit, run_unit
from engine.services.errors import EventConflict, NothingToUndo, StaleState

Decide = Callable[[S], Iterable[E] | Decision[S, E]]


async def execute(
    aggregate: Aggregate[S, E],
    game_id: int,
    stream: str,
    decide: Decide[S, E],
    *,
    actor_id: int | None,
    params: Mapping[str, Any] | None = None,
    max_retries: int = 3,
    cause: Mapping[str, Any] | None = None,
    expected_seq: int | None = None,
) -> ExecuteResult[S, E]:
    """Run `decide(state)` (pure; it closes over the command and the rng) on the stream's
    current state and append its events as one step, atomically.

    A stream is created by its first write, from `aggregate.initial(params)` (`params` is
    stored for replays and ignored afterwards). `decide` may raise (nothing is written) or
    return no events (nothing is written, `step_id` is None). It may return a
    `Decision(events, state)` when it already holds the state after its events: that state
    is used as is instead of folding the events a second time. On a conflict `decide` runs
    again on the fresh state, at most `max_retries` more times, then EventConflict — unless
    `expected_seq` (the seq the user saw) is given: then a stream that moved is refused
    with StaleState. `cause` (JSON-safe, e.g. another stream's step) is kept with the step
    as a `$cause` marker, so that undoing that other step can take this one back too.
    """
    check_key(stream)
    attempts = 0

    async def work(unit: Unit) -> ExecuteResult[S, E]:
        nonlocal attempts
        attempts += 1
        state = await unit.state(aggregate, stream, expected_seq=expected_seq, params=params)
        decided = decide(state)
        if isinstance(decided, Decision):
            events, after = tuple(decided.events), decided.state
        else:
            events, after = tuple(decided), None
        step = unit.record(aggregate, stream, events, state=after, cause=cause)
        final = await unit.state(aggregate, stream)
        return ExecuteResult(final, events, step, unit.seq(stream), attempts)

    return await run_unit(game_id, work, actor_id=actor_id, max_retries=max_retries)


async def undo_last_step(
    aggregate: Aggregate[S, E],
    game_id: int,
    stream: str,
    *,
    actor_id: int | None,
    expected_step: int | None = None,
    caused_by: Mapping[str, Any] | None = None,
) -> UndoResult[S, E]:
    """Take back the newest command step not undone yet; repeated calls walk further back.

    The undo is itself a step in the log (one "$undo" marker naming the step), so history
    keeps what was undone, when and by whom. There is no redo: a new command continues
    from the undone state and undone steps are never re-applied. Pass `expected_step` (the
    step the user saw as last) so that two simultaneous undo clicks take back one step, not
    two: EventConflict if it is no longer the last. Never retried, for the same reason.
    With `caused_by`, the last step is taken back only if it was written with that `cause`
    (NothingToUndo otherwise).
    """
    check_key(stream)

    async def work(unit: Unit) -> UndoResult[S, E]:
        return await unit.undo(aggregate, stream, expected_step=expected_step, caused_by=caused_by)

    try:
        return await run_unit(game_id, work, actor_id=actor_id, max_retries=0)
    except StaleState as exc:
        raise EventConflict(**exc.params) from exc


async def undo_caused(
    aggregate: Aggregate[S, E],
    game_id: int,
    stream: str,
    cause: Mapping[str, Any],
    *,
    actor_id: int | None,
) -> list[UndoResult[S, E]]:
    """Take back the stream's newest steps as long as they were caused by `cause` (newest
    first); stops at the first step that was not — a step made since is never undone."""

    async def work(unit: Unit) -> list[UndoResult[S, E]]:
        return await undo_caused_in(unit, aggregate, stream, cause)

    return await run_unit(game_id, work, actor_id=actor_id, max_retries=0)


async def undo_caused_in(
    unit: Unit, aggregate: Aggregate[S, E], stream: str, cause: Mapping[str, Any]
) -> list[UndoResult[S, E]]:
    """`undo_caused` inside a unit (the undo of the step that caused them)."""
    undone: list[UndoResult[S, E]] = []
    while True:
        try:
            undone.append(await unit.undo(aggregate, stream, caused_by=cause))
        except NothingToUndo:
            return undone
