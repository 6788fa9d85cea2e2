"""Writing a stream: execute a decision as one step, undo the last step.

Each attempt is one transaction of four statements (`sql.py`): read the stream row —
locked — with its game's `active` and its snapshot (plus the events after the snapshot
when it is behind the head), decide, advance the head with a conditional UPDATE
(`WHERE head_seq = <seq decided on>`), insert the events in one executemany (UNIQUE
(stream, seq)), overwrite the snapshot. The row lock serialises writers on PostgreSQL
(SQLite serialises transactions anyway); the conditional UPDATE and the UNIQUE constraint
are the backstop: a write decided on a stale state can never commit. The first write of a
new stream races on UNIQUE (game, key) instead. Conflicts are retried with a fresh state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from engine.services.aggregates.log import (
    View,
    check_aggregate,
    decode,
    effective,
    read_view,
    require_active_game,
)
from engine.services.aggregates.model import (
    CAUSE,
    UNDO,
    Aggregate,
    Decision,
    E,
    ExecuteResult,
    S,
    UndoResult,
    check_key,
)
from engine.services.aggregates.sql import (
    EventValues,
    advance_head,
    dump_json,
    insert_events,
    now,
    read_events,
    read_head,
    write_snapshot,
)
from engine.services.errors import EventConflict, GameEnded, NothingToUndo, StreamClosed
from engine.store.models import Stream

Decide = Callable[[S], Iterable[E] | Decision[S, E]]


class _Conflict(Exception):
    """Another writer advanced the stream since we read it (rolls the transaction back)."""


def _event_row(
    payload: dict[str, Any], seq: int, step: int, actor_id: int | None, at: datetime
) -> EventValues:
    kind = payload.get("type")
    kind = kind if isinstance(kind, str) else ""
    if kind.startswith("$"):
        raise ValueError(f"event type {kind!r} is reserved for the store")
    return (seq, step, kind[:64], dump_json(payload), actor_id, at)


async def _advance(
    conn: BaseDBAsyncClient,
    aggregate: Aggregate[Any, Any],
    view: View[Any],
    game_id: int,
    key: str,
    params: Mapping[str, Any] | None,
    count: int,
) -> int:
    """Move the head past `count` new events (one new step); the stream's id. _Conflict if
    the head moved since `view` was read; a new stream is created here (a racing creator
    makes this raise IntegrityError on UNIQUE (game, key))."""
    new_seq, new_step = view.seq + count, view.step + 1
    if view.row is None:
        stream = await Stream.create(
            game_id=game_id,
            key=key,
            aggregate=aggregate.name,
            params=dict(params or {}),
            head_seq=new_seq,
            head_step=new_step,
        )
        return int(stream.id)
    if not await advance_head(conn, view.row.id, view.seq, view.step, new_seq, new_step):
        raise _Conflict
    return view.row.id


async def _save_snapshot(
    conn: BaseDBAsyncClient,
    aggregate: Aggregate[S, Any],
    stream_id: int,
    view: View[S],
    state: S,
    seq: int,
    force: bool,
) -> None:
    if not (force or view.stale or seq - view.covered >= aggregate.snapshot_every):
        return
    data = dump_json(aggregate.state_to_dict(state))
    await write_snapshot(conn, stream_id, seq, aggregate.version, data)


async def _execute_once(
    aggregate: Aggregate[S, E],
    game_id: int,
    key: str,
    decide: Decide[S, E],
    actor_id: int | None,
    params: Mapping[str, Any] | None,
    attempt: int,
    cause: Mapping[str, Any] | None,
) -> ExecuteResult[S, E]:
    async with in_transaction() as conn:
        # One statement: the locked head, the game's `active` and the snapshot (+ the tail
        # if the snapshot is behind the head).
        view = await read_view(aggregate, game_id, key, lock=True, params=params, active=True)
        if view.row is not None and view.row.closed:
            raise StreamClosed(stream=key)
        decided = decide(view.state)
        if isinstance(decided, Decision):
            events, state = tuple(decided.events), decided.state
        else:
            events = tuple(decided)
            state = aggregate.fold(view.state, events) if events else view.state
        if not events:
            return ExecuteResult(view.state, (), None, view.seq, attempt)
        step, at, to_dict = view.step + 1, now(), aggregate.event_to_dict
        rows = [
            _event_row(to_dict(e), view.seq + i, step, actor_id, at)
            for i, e in enumerate(events, start=1)
        ]
        if cause is not None:
            seq_after = view.seq + len(rows) + 1
            rows.append((seq_after, step, CAUSE, dump_json(dict(cause)), actor_id, at))
        stream_id = await _advance(conn, aggregate, view, game_id, key, params, len(rows))
        await insert_events(conn, stream_id, rows)
        seq = view.seq + len(rows)
        await _save_snapshot(conn, aggregate, stream_id, view, state, seq, force=False)
    return ExecuteResult(state, events, step, seq, attempt)


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
) -> ExecuteResult[S, E]:
    """Run `decide(state)` (pure; it closes over the command and the rng) on the stream's
    current state and append its events as one step, atomically.

    A stream is created by its first write, from `aggregate.initial(params)` (`params` is
    stored for replays and ignored afterwards). `decide` may raise (nothing is written) or
    return no events (nothing is written, `step_id` is None). It may return a
    `Decision(events, state)` when it already holds the state after its events: that state
    is used as is instead of folding the events a second time. On a conflict `decide` runs
    again on the fresh state, at most `max_retries` more times, then EventConflict.
    `cause` (JSON-safe, e.g. another stream's step) is kept with the step as a `$cause`
    marker, so that undoing that other step can take this one back too (`undo_caused`).
    """
    check_key(stream)
    for attempt in range(1, max_retries + 2):
        try:
            return await _execute_once(
                aggregate, game_id, stream, decide, actor_id, params, attempt, cause
            )
        except (_Conflict, IntegrityError):
            # Caught outside the transaction: on PostgreSQL a failed statement aborts it.
            continue
    raise EventConflict(game_id=game_id, stream=stream, attempts=max_retries + 1)


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
    try:
        async with in_transaction() as conn:
            head = await read_head(conn, game_id, stream, lock=True, snapshot=False)
            if head is None:
                await require_active_game(game_id)
                raise NothingToUndo(stream=stream)
            if not head.active:
                raise GameEnded(game_id=game_id)
            check_aggregate(head, aggregate)
            if head.closed:
                raise StreamClosed(stream=stream)
            raw = await read_events(conn, head.id, 0, head.head_seq)
            rows = effective(raw)
            if not rows:
                raise NothingToUndo(stream=stream)
            target = rows[-1].step
            if caused_by is not None and not any(
                r.step == target and r.type == CAUSE and r.payload == dict(caused_by) for r in raw
            ):
                raise NothingToUndo(stream=stream, caused_by=dict(caused_by))
            if expected_step is not None and expected_step != target:
                raise EventConflict(stream=stream, expected_step=expected_step, last_step=target)
            kept = [r for r in rows if r.step != target]
            state = aggregate.replay(decode(aggregate, kept), head.params)
            view = View(head, state, head.head_seq, head.head_step)
            step, seq = head.head_step + 1, head.head_seq + 1
            marker = (seq, step, UNDO, dump_json({"step": target}), actor_id, now())
            await _advance(conn, aggregate, view, game_id, stream, None, 1)
            await insert_events(conn, head.id, [marker])
            await _save_snapshot(conn, aggregate, head.id, view, state, seq, force=True)
    except (_Conflict, IntegrityError) as exc:
        raise EventConflict(game_id=game_id, stream=stream) from exc
    undone = tuple(decode(aggregate, [r for r in rows if r.step == target]))
    return UndoResult(state, target, undone, step, seq)


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
    undone: list[UndoResult[S, E]] = []
    while True:
        try:
            undone.append(
                await undo_last_step(aggregate, game_id, stream, actor_id=actor_id, caused_by=cause)
            )
        except NothingToUndo:
            return undone
