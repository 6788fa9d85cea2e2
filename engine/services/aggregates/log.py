"""Reading a stream: snapshot + tail, or a full replay of the log; its history by step."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from tortoise.backends.base.client import BaseDBAsyncClient

from engine.services.aggregates.model import (
    CAUSE,
    UNDO,
    Aggregate,
    E,
    S,
    Step,
    check_key,
    is_marker,
)
from engine.services.aggregates.sql import (
    Head,
    LoggedRow,
    connection,
    load_json,
    read_active,
    read_events,
    read_head,
    read_logged,
)
from engine.services.aggregates.states import current_states
from engine.services.errors import GameEnded, NoGame, WrongAggregate
from engine.store.models import Game, Stream

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class View(Generic[S]):
    """A stream as read: `state` after event `seq`. `covered` is the seq of the valid stored
    snapshot it started from (0: none); `stale` = the stored snapshot must be overwritten."""

    row: Head | None  # None: the stream does not exist yet
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


async def require_active_game(game_id: int) -> None:
    active = await Game.filter(id=game_id).first().values_list("active", flat=True)
    if active is None:
        raise NoGame(game_id=game_id)
    if not active:
        raise GameEnded(game_id=game_id)


def check_aggregate(row: Stream | Head, aggregate: Aggregate[Any, Any]) -> None:
    if row.aggregate != aggregate.name:
        raise WrongAggregate(stream=row.key, aggregate=row.aggregate, expected=aggregate.name)


class _Event(Protocol):
    @property
    def step(self) -> int: ...
    @property
    def type(self) -> str: ...
    @property
    def payload(self) -> dict[str, Any]: ...


R = TypeVar("R", bound=_Event)


def effective(rows: Iterable[R]) -> list[R]:
    """The events that count: markers dropped, steps taken back by an undo dropped."""
    rows = list(rows)
    undone = {int(r.payload["step"]) for r in rows if r.type == UNDO}
    return [r for r in rows if not is_marker(r.type) and r.step not in undone]


def decode(aggregate: Aggregate[S, E], rows: Iterable[_Event]) -> list[E]:
    return [aggregate.event_from_dict(r.payload) for r in rows]


def _snapshot_valid(aggregate: Aggregate[Any, Any], head: Head) -> bool:
    """Whether the stored snapshot may be used (its content aside)."""
    if head.snap_seq is None or head.snap_version != aggregate.version:
        return False
    return head.snap_seq <= head.head_seq  # ahead of the log: never trust it


def _from_snapshot(aggregate: Aggregate[S, E], head: Head) -> S | None:
    """The snapshot's state, or None when it must not be trusted."""
    if not _snapshot_valid(aggregate, head):
        return None
    try:
        return aggregate.state_from_dict(load_json(head.snap_state))
    except Exception:  # an unreadable cache is not an error: the log is the truth
        log.warning("unreadable snapshot of stream %s ignored", head.id, exc_info=True)
        return None


async def read_view(
    aggregate: Aggregate[S, E],
    game_id: int,
    key: str,
    *,
    lock: bool = False,
    params: Mapping[str, Any] | None = None,
    use_snapshot: bool = True,
    active: bool = False,
) -> View[S]:
    """Latest valid snapshot + the events after it; a full replay when there is no valid
    snapshot or the tail holds an undo (it may take back a step the snapshot includes).

    The stream row, its game's `active` and the snapshot come in one statement, so the
    snapshot is checked against the head it was read with: the tail is read only when the
    snapshot is behind it. With `lock` (inside a transaction) the stream row is locked;
    with `active` an ended game raises GameEnded (NoGame if there is no game)."""
    check_key(key)
    conn = connection()
    head = await read_head(conn, game_id, key, lock=lock, snapshot=use_snapshot)
    if head is None:
        await (require_active_game if active else require_game)(game_id)
        return View(None, aggregate.initial(params or {}), 0, 0)
    if active and not head.active:
        raise GameEnded(game_id=game_id)
    return await view_at(aggregate, conn, head, kept=use_snapshot)


async def read_active_view(
    aggregate: Aggregate[S, E], game_id: int, kind: str
) -> tuple[View[S], int | None] | None:
    """The newest open stream of `kind` as `read_view` reads it, with its board message:
    usually one statement (the tail of the log only when the snapshot is behind). None: no
    stream of that kind is open; NoGame: no such game."""
    conn = connection()
    found = await read_active(conn, game_id, kind)
    if found is None:
        raise NoGame(game_id=game_id)
    if found.head is None:
        return None
    return await view_at(aggregate, conn, found.head), found.board


async def view_at(
    aggregate: Aggregate[S, E], conn: BaseDBAsyncClient, head: Head, *, kept: bool = True
) -> View[S]:
    """The stream's state at `head` (read by the caller): the state this process kept at
    that head (engine.services.aggregates.states; not with `kept=False`), else its snapshot
    and the log after it, or the whole log (see `read_view`)."""
    check_aggregate(head, aggregate)
    states = current_states()
    state = states.get(head, aggregate) if kept else None
    if state is not None:
        valid = _snapshot_valid(aggregate, head)
        covered = head.snap_seq if valid and head.snap_seq is not None else 0
        stale = not valid and head.snap_seq is not None
        return View(head, state, head.head_seq, head.head_step, covered=covered, stale=stale)
    view = await _read_at(aggregate, conn, head)
    if view.seq > 0:  # an empty stream's row may be rolled back, and its id used again
        states.put(head.id, head.key, aggregate, view.seq, view.step, view.state)
    return view


async def _read_at(aggregate: Aggregate[S, E], conn: BaseDBAsyncClient, head: Head) -> View[S]:
    base = _from_snapshot(aggregate, head)
    if base is not None and head.snap_seq is not None:
        covered = head.snap_seq
        tail = (
            await read_events(conn, head.id, covered, head.head_seq)
            if covered < head.head_seq
            else []
        )
        if all(r.type != UNDO for r in tail):
            events = decode(aggregate, [r for r in tail if not is_marker(r.type)])
            state = aggregate.fold(base, events)
            return View(head, state, head.head_seq, head.head_step, covered=covered)
    rows = await read_events(conn, head.id, 0, head.head_seq)
    state = aggregate.fold(aggregate.initial(head.params), decode(aggregate, effective(rows)))
    return View(head, state, head.head_seq, head.head_step, stale=head.snap_seq is not None)


async def load(
    aggregate: Aggregate[S, E], game_id: int, stream: str, *, rebuild: bool = False
) -> tuple[S, int]:
    """(state, seq) of a stream; a stream never written to is `initial({})` at seq 0.
    `rebuild=True` ignores the snapshot and replays the whole log (audits, tests)."""
    view = await read_view(aggregate, game_id, stream, use_snapshot=not rebuild)
    return view.state, view.seq


def steps_of(rows: list[LoggedRow]) -> list[Step]:
    groups: dict[int, list[LoggedRow]] = {}
    for r in rows:
        groups.setdefault(r.step, []).append(r)
    undone_by = {int(r.payload["step"]): r.step for r in rows if r.type == UNDO}
    steps = []
    for step, group in groups.items():
        first = group[0]
        is_undo = first.type == UNDO
        causes = [r.payload for r in group if r.type == CAUSE]
        steps.append(
            Step(
                step=step,
                kind="undo" if is_undo else "command",
                actor_id=first.actor_id,
                created_at=first.created_at,
                first_seq=first.seq,
                last_seq=group[-1].seq,
                events=tuple(dict(r.payload) for r in group if r.type != CAUSE),
                undoes=int(first.payload["step"]) if is_undo else None,
                undone_by=None if is_undo else undone_by.get(step),
                cause=dict(causes[0]) if causes else None,
            )
        )
    return steps


async def history(
    game_id: int, stream: str, *, last: int | None = None, after: int = 0
) -> list[Step]:
    """The stream's steps, oldest first, undone ones and the undos included: all of them
    (audits, tests), the newest `last` ones, or those after step `after` (with both: the
    newest `last` of those). One read by the (stream, step) index, so a bounded read costs
    what it returns, however old the stream. `undone_by` is always complete (an undo comes
    after the step it takes back); an undo's `undoes` may name a step outside the range."""
    check_key(stream)
    if last is not None and last < 0:
        raise ValueError(f"last must be >= 0: {last}")
    conn = connection()
    head = await read_head(conn, game_id, stream, lock=False, snapshot=False)
    if head is None:
        await require_game(game_id)
        return []
    if last is not None:
        after = max(after, head.head_step - last)
    return steps_of(await read_logged(conn, head.id, after))
