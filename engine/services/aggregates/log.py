"""Reading a stream: snapshot + tail, or a full replay of the log; its history by step."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic

from engine.services.aggregates.model import UNDO, Aggregate, E, S, Step, check_key
from engine.services.errors import NoGame, WrongAggregate
from engine.store.models import Game, Stream, StreamEvent, StreamSnapshot

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class View(Generic[S]):
    """A stream as read: `state` after event `seq`. `covered` is the seq of the valid stored
    snapshot it started from (0: none); `stale` = the stored snapshot must be overwritten."""

    row: Stream | None  # None: the stream does not exist yet
    state: S
    seq: int
    step: int
    covered: int = 0
    stale: bool = False


async def find_stream(game_id: int, key: str, *, lock: bool = False) -> Stream | None:
    check_key(key)
    query = Stream.filter(game_id=game_id, key=key)
    if lock:  # PostgreSQL serialises writers here; SQLite serialises transactions anyway
        query = query.select_for_update()
    return await query.first()


async def require_game(game_id: int) -> None:
    if not await Game.exists(id=game_id):
        raise NoGame(game_id=game_id)


def check_aggregate(row: Stream, aggregate: Aggregate[Any, Any]) -> None:
    if row.aggregate != aggregate.name:
        raise WrongAggregate(stream=row.key, aggregate=row.aggregate, expected=aggregate.name)


def effective(rows: Iterable[StreamEvent]) -> list[StreamEvent]:
    """The events that count: markers dropped, steps taken back by an undo dropped."""
    rows = list(rows)
    undone = {int(r.payload["step"]) for r in rows if r.type == UNDO}
    return [r for r in rows if r.type != UNDO and r.step not in undone]


def decode(aggregate: Aggregate[S, E], rows: Iterable[StreamEvent]) -> list[E]:
    return [aggregate.event_from_dict(r.payload) for r in rows]


def _from_snapshot(
    aggregate: Aggregate[S, E], snap: StreamSnapshot | None, head_seq: int | None
) -> S | None:
    """The snapshot's state, or None when it must not be trusted."""
    if snap is None or snap.version != aggregate.version:
        return None
    if head_seq is not None and snap.seq > head_seq:  # ahead of the log: never trust it
        return None
    try:
        return aggregate.state_from_dict(snap.state)
    except Exception:  # an unreadable cache is not an error: the log is the truth
        log.warning("unreadable snapshot of stream %s ignored", snap.stream_id, exc_info=True)  # type: ignore[attr-defined]
        return None


async def read_view(
    aggregate: Aggregate[S, E],
    game_id: int,
    key: str,
    *,
    lock: bool = False,
    params: Mapping[str, Any] | None = None,
    use_snapshot: bool = True,
) -> View[S]:
    """Latest valid snapshot + the events after it; a full replay when there is no valid
    snapshot or the tail holds an undo (it may take back a step the snapshot includes).
    With `lock` (inside a transaction) the stream row is locked first."""
    row = await find_stream(game_id, key, lock=lock)
    if row is None:
        await require_game(game_id)
        return View(None, aggregate.initial(params or {}), 0, 0)
    check_aggregate(row, aggregate)
    snap = await StreamSnapshot.get_or_none(stream_id=row.id) if use_snapshot else None
    # Unlocked, a writer may commit between our reads: a newer snapshot is then fine.
    base = _from_snapshot(aggregate, snap, row.head_seq if lock else None)
    if base is not None and snap is not None:
        tail = await StreamEvent.filter(stream_id=row.id, seq__gt=snap.seq).order_by("seq")
        if all(r.type != UNDO for r in tail):
            state = aggregate.fold(base, decode(aggregate, tail))
            seq = tail[-1].seq if tail else snap.seq
            return View(row, state, seq, row.head_step, covered=snap.seq)
    rows = await StreamEvent.filter(stream_id=row.id).order_by("seq")
    state = aggregate.fold(aggregate.initial(row.params or {}), decode(aggregate, effective(rows)))
    seq = rows[-1].seq if rows else 0
    return View(row, state, seq, row.head_step, stale=snap is not None)


async def load(
    aggregate: Aggregate[S, E], game_id: int, stream: str, *, rebuild: bool = False
) -> tuple[S, int]:
    """(state, seq) of a stream; a stream never written to is `initial({})` at seq 0.
    `rebuild=True` ignores the snapshot and replays the whole log (audits, tests)."""
    view = await read_view(aggregate, game_id, stream, use_snapshot=not rebuild)
    return view.state, view.seq


def steps_of(rows: list[StreamEvent]) -> list[Step]:
    groups: dict[int, list[StreamEvent]] = {}
    for r in rows:
        groups.setdefault(r.step, []).append(r)
    undone_by = {int(r.payload["step"]): r.step for r in rows if r.type == UNDO}
    steps = []
    for step, group in groups.items():
        first = group[0]
        is_undo = first.type == UNDO
        steps.append(
            Step(
                step=step,
                kind="undo" if is_undo else "command",
                actor_id=first.actor_id,
                created_at=first.created_at,
                first_seq=first.seq,
                last_seq=group[-1].seq,
                events=tuple(dict(r.payload) for r in group),
                undoes=int(first.payload["step"]) if is_undo else None,
                undone_by=None if is_undo else undone_by.get(step),
            )
        )
    return steps


async def history(game_id: int, stream: str) -> list[Step]:
    """Every step of a stream, oldest first, undone ones and the undos included."""
    row = await find_stream(game_id, stream)
    if row is None:
        await require_game(game_id)
        return []
    return steps_of(await StreamEvent.filter(stream_id=row.id).order_by("seq"))
