"""Writing a stream: execute a decision as one step, undo the last step.

Each attempt is one transaction: lock the stream row, read the state, decide, advance the
head with a conditional UPDATE (`WHERE head_seq = <seq decided on>`), insert the events
(UNIQUE (stream, seq)), refresh the snapshot. The row lock serialises writers on PostgreSQL
(SQLite serialises transactions anyway); the conditional UPDATE and the UNIQUE constraint
are the backstop: a write decided on a stale state can never commit. The first write of a
new stream races on UNIQUE (game, key) instead. Conflicts are retried with a fresh state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from tortoise import timezone
from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from engine.services.aggregates.log import (
    View,
    check_aggregate,
    decode,
    effective,
    find_stream,
    read_view,
)
from engine.services.aggregates.model import (
    UNDO,
    Aggregate,
    E,
    ExecuteResult,
    S,
    UndoResult,
    check_key,
)
from engine.services.errors import EventConflict, GameEnded, NoGame, NothingToUndo, StreamClosed
from engine.store.models import Game, Stream, StreamEvent, StreamSnapshot

Decide = Callable[[S], Iterable[E]]


class _Conflict(Exception):
    """Another writer advanced the stream since we read it (rolls the transaction back)."""


async def _require_active_game(game_id: int) -> None:
    active = await Game.filter(id=game_id).first().values_list("active", flat=True)
    if active is None:
        raise NoGame(game_id=game_id)
    if not active:
        raise GameEnded(game_id=game_id)


def _event_row(payload: dict[str, Any], seq: int, step: int, actor_id: int | None) -> StreamEvent:
    kind = payload.get("type")
    kind = kind if isinstance(kind, str) else ""
    if kind.startswith("$"):
        raise ValueError(f"event type {kind!r} is reserved for the store")
    return StreamEvent(seq=seq, step=step, type=kind[:64], payload=payload, actor_id=actor_id)


async def _advance(
    aggregate: Aggregate[Any, Any],
    view: View[Any],
    game_id: int,
    key: str,
    params: Mapping[str, Any] | None,
    rows: list[StreamEvent],
) -> Stream:
    """Move the head past `rows` (one new step) and insert them; _Conflict if it moved."""
    new_seq, new_step = view.seq + len(rows), view.step + 1
    if view.row is None:  # a racing creator makes this raise IntegrityError
        stream = await Stream.create(
            game_id=game_id,
            key=key,
            aggregate=aggregate.name,
            params=dict(params or {}),
            head_seq=new_seq,
            head_step=new_step,
        )
    else:
        stream = view.row
        moved = await Stream.filter(id=stream.id, head_seq=view.seq, head_step=view.step).update(
            head_seq=new_seq, head_step=new_step, updated_at=timezone.now()
        )
        if not moved:
            raise _Conflict
    for row in rows:
        row.stream_id = stream.id  # type: ignore[attr-defined]
    await StreamEvent.bulk_create(rows)
    return stream


async def _save_snapshot(
    aggregate: Aggregate[S, Any], stream: Stream, view: View[S], state: S, seq: int, force: bool
) -> None:
    if not (force or view.stale or seq - view.covered >= aggregate.snapshot_every):
        return
    data = aggregate.state_to_dict(state)
    values = {"seq": seq, "version": aggregate.version, "state": data}
    # No creation race: the head update above holds the stream row until commit.
    if not await StreamSnapshot.filter(stream_id=stream.id).update(
        **values, updated_at=timezone.now()
    ):
        await StreamSnapshot.create(stream_id=stream.id, **values)


async def _execute_once(
    aggregate: Aggregate[S, E],
    game_id: int,
    key: str,
    decide: Decide[S, E],
    actor_id: int | None,
    params: Mapping[str, Any] | None,
    attempt: int,
) -> ExecuteResult[S, E]:
    async with in_transaction():
        await _require_active_game(game_id)
        view = await read_view(aggregate, game_id, key, lock=True, params=params)
        if view.row is not None and view.row.closed_at is not None:
            raise StreamClosed(stream=key)
        events = tuple(decide(view.state))
        if not events:
            return ExecuteResult(view.state, (), None, view.seq, attempt)
        state = aggregate.fold(view.state, events)
        step = view.step + 1
        rows = [
            _event_row(aggregate.event_to_dict(e), view.seq + i, step, actor_id)
            for i, e in enumerate(events, start=1)
        ]
        stream = await _advance(aggregate, view, game_id, key, params, rows)
        seq = view.seq + len(rows)
        await _save_snapshot(aggregate, stream, view, state, seq, force=False)
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
) -> ExecuteResult[S, E]:
    """Run `decide(state)` (pure; it closes over the command and the rng) on the stream's
    current state and append its events as one step, atomically.

    A stream is created by its first write, from `aggregate.initial(params)` (`params` is
    stored for replays and ignored afterwards). `decide` may raise (nothing is written) or
    return no events (nothing is written, `step_id` is None). On a conflict `decide` runs
    again on the fresh state, at most `max_retries` more times, then EventConflict.
    """
    check_key(stream)
    for attempt in range(1, max_retries + 2):
        try:
            return await _execute_once(
                aggregate, game_id, stream, decide, actor_id, params, attempt
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
) -> UndoResult[S, E]:
    """Take back the newest command step not undone yet; repeated calls walk further back.

    The undo is itself a step in the log (one "$undo" marker naming the step), so history
    keeps what was undone, when and by whom. There is no redo: a new command continues
    from the undone state and undone steps are never re-applied. Pass `expected_step` (the
    step the user saw as last) so that two simultaneous undo clicks take back one step, not
    two: EventConflict if it is no longer the last. Never retried, for the same reason.
    """
    check_key(stream)
    try:
        async with in_transaction():
            await _require_active_game(game_id)
            row = await find_stream(game_id, stream, lock=True)
            if row is None:
                raise NothingToUndo(stream=stream)
            check_aggregate(row, aggregate)
            if row.closed_at is not None:
                raise StreamClosed(stream=stream)
            rows = effective(await StreamEvent.filter(stream_id=row.id).order_by("seq"))
            if not rows:
                raise NothingToUndo(stream=stream)
            target = rows[-1].step
            if expected_step is not None and expected_step != target:
                raise EventConflict(stream=stream, expected_step=expected_step, last_step=target)
            kept = [r for r in rows if r.step != target]
            state = aggregate.replay(decode(aggregate, kept), row.params)
            view = View(row, state, row.head_seq, row.head_step)
            step, seq = row.head_step + 1, row.head_seq + 1
            marker = StreamEvent(
                seq=seq, step=step, type=UNDO, payload={"step": target}, actor_id=actor_id
            )
            await _advance(aggregate, view, game_id, stream, None, [marker])
            await _save_snapshot(aggregate, row, view, state, seq, force=True)
    except (_Conflict, IntegrityError) as exc:
        raise EventConflict(game_id=game_id, stream=stream) from exc
    undone = tuple(decode(aggregate, [r for r in rows if r.step == target]))
    return UndoResult(state, target, undone, step, seq)
