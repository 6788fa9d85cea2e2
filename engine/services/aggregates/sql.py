"""The store's hot path in plain parametrised SQL, on the connection of the current context.

`execute` runs on every command; through the ORM it built ~55 `StreamEvent` objects per
step and a query object per statement. Here each statement is a fixed text, written with
`?` placeholders and rendered once per driver in its own style (SQLite `?`, asyncpg `$n`),
and rows come back as tuples. Tables and columns are those of `engine.store.models`
(`streams`, `stream_events`, `stream_snapshots`, `stream_checkpoints`, `games`); the JSON
columns are written as the models' JSONField writes them (compact `json.dumps`) and read
back the same way.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from functools import cache, lru_cache
from typing import Any, NamedTuple

from tortoise import timezone
from tortoise.backends.base.client import BaseDBAsyncClient

from engine.store.models import Game, Stream, StreamEvent

_encoder = json.JSONEncoder(separators=(",", ":"))  # = JSONField's default json.dumps
dump_json = _encoder.encode


def load_json(value: Any) -> Any:
    """A JSON column as read: text (SQLite, asyncpg's jsonb) or already decoded."""
    return json.loads(value) if isinstance(value, str | bytes) else value


def connection() -> BaseDBAsyncClient:
    """The models' connection in the current context: the transaction's inside one."""
    return Stream._meta.db


def now() -> datetime:
    return timezone.now()


@cache
def _render(executor_class: Any, query_class: Any, text: str) -> str:
    parts = text.split("?")
    context = query_class.SQL_CONTEXT
    out = [parts[0]]
    for i, part in enumerate(parts[1:]):
        out.append(executor_class.parameter(None, i).get_sql(context))
        out.append(part)
    return "".join(out)


def sql(conn: BaseDBAsyncClient, text: str) -> str:
    """`text` with each `?` replaced by the driver's placeholder for that position."""
    return _render(conn.executor_class, conn.query_class, text)  # type: ignore[arg-type]  # a class is hashable (mypy reads its __eq__ as the instances')


def options_of(stored: Any) -> dict[str, Any]:
    """`games.options` as a plain statement reads it (JSON text, or decoded), as a dict."""
    value = load_json(stored) if isinstance(stored, str | bytes) else stored
    return dict(value) if isinstance(value, dict) else {}


_CREATED_AT = Game._meta.fields_map["created_at"]


@lru_cache(maxsize=4096)
def created_at_of(stored: Any) -> datetime:
    """`games.created_at` as a plain statement reads it -> the aware datetime. A game's is
    read on every step and system command and never changes, and its ISO text took a quarter
    of the read to parse: remembered for the games in play (a datetime is immutable)."""
    value: datetime = _CREATED_AT.to_python_value(stored)
    return value


class Head(NamedTuple):
    """A stream's row as the store needs it, with its game's `active` and its snapshot."""

    id: int
    key: str
    aggregate: str
    params: dict[str, Any]
    head_seq: int
    head_step: int
    closed: bool
    active: bool  # the game's
    snap_seq: int | None  # None: no snapshot (or not asked for)
    snap_version: int | None
    snap_state: Any  # JSON text as stored; decoded only when the version matches


class EventRow(NamedTuple):
    seq: int
    step: int
    type: str
    payload: dict[str, Any]


_HEAD = (
    'SELECT s.id, s."key", s.aggregate, s.params, s.head_seq, s.head_step, s.closed_at, g.active'
    "{snapshot} FROM streams s JOIN games g ON g.id = s.game_id{join}"
    ' WHERE s.game_id = ? AND s."key" = ?{lock}'
)
_WITH_SNAPSHOT = (
    ", n.seq, n.version, n.state",
    " LEFT JOIN stream_snapshots n ON n.stream_id = s.id",
)


async def read_head(
    conn: BaseDBAsyncClient, game_id: int, key: str, *, lock: bool, snapshot: bool
) -> Head | None:
    """One statement: the stream row (locked with `lock` where the database can: PostgreSQL
    serialises writers of the stream here, SQLite serialises transactions anyway), its
    game's `active` and, with `snapshot`, the stored snapshot. None: no such stream."""
    columns, join = _WITH_SNAPSHOT if snapshot else ("", "")
    for_update = lock and conn.capabilities.support_for_update
    text = _HEAD.format(snapshot=columns, join=join, lock=" FOR UPDATE OF s" if for_update else "")
    _, rows = await conn.execute_query(sql(conn, text), [game_id, key])
    if not rows:
        return None
    r = tuple(rows[0])
    snap = r[8:11] if snapshot else (None, None, None)
    return Head(
        r[0], r[1], r[2], load_json(r[3]) or {}, r[4], r[5], r[6] is not None, bool(r[7]), *snap
    )


_HEADS = (
    'SELECT s.id, s."key", s.aggregate, s.params, s.head_seq, s.head_step, s.closed_at, g.active,'
    " n.seq, n.version, n.state FROM streams s JOIN games g ON g.id = s.game_id"
    " LEFT JOIN stream_snapshots n ON n.stream_id = s.id"
    ' WHERE s.game_id = ? AND s."key" IN ({keys})'
)


async def read_heads(
    conn: BaseDBAsyncClient, game_id: int, keys: Sequence[str]
) -> dict[str, Head | None]:
    """One statement: `read_head` (with the snapshot, unlocked) of several streams of a game;
    None for a key with no stream."""
    text = _HEADS.format(keys=", ".join(["?"] * len(keys)))
    _, rows = await conn.execute_query(sql(conn, text), [game_id, *keys])
    found: dict[str, Head | None] = dict.fromkeys(keys)
    for row in rows:
        r = tuple(row)
        found[r[1]] = Head(
            r[0], r[1], r[2], load_json(r[3]) or {}, r[4], r[5], r[6] is not None, bool(r[7]),
            r[8], r[9], r[10],
        )  # fmt: skip
    return found


_ACTIVE = (
    'SELECT s.id, s."key", s.aggregate, s.params, s.head_seq, s.head_step, s.closed_at,'
    " g.active, n.seq, n.version, n.state, b.message_id FROM games g"
    " LEFT JOIN streams s ON s.game_id = g.id AND s.\"key\" LIKE ? ESCAPE '\\'"
    " AND s.closed_at IS NULL"
    " LEFT JOIN stream_snapshots n ON n.stream_id = s.id"
    " LEFT JOIN board_messages b ON b.stream_id = s.id"
    " WHERE g.id = ? ORDER BY s.id DESC LIMIT 1"
)


def _like_prefix(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


class Active(NamedTuple):
    """The newest open stream of a kind (None: none is open) and its board message."""

    head: Head | None
    board: int | None


async def read_active(conn: BaseDBAsyncClient, game_id: int, kind: str) -> Active | None:
    """One statement: the game's newest open stream of `kind` with its snapshot and board
    message. None: no such game."""
    values = [_like_prefix(f"{kind}:"), game_id]
    _, rows = await conn.execute_query(sql(conn, _ACTIVE), values)
    if not rows:
        return None
    r = tuple(rows[0])
    if r[0] is None:
        return Active(None, None)
    head = Head(
        r[0], r[1], r[2], load_json(r[3]) or {}, r[4], r[5], r[6] is not None, bool(r[7]),
        r[8], r[9], r[10],
    )  # fmt: skip
    return Active(head, r[11])


_EVENTS = (
    "SELECT seq, step, type, payload FROM stream_events"
    " WHERE stream_id = ? AND seq > ? AND seq <= ? ORDER BY seq"
)


async def read_events(
    conn: BaseDBAsyncClient, stream_id: int, after: int, upto: int
) -> list[EventRow]:
    """The stream's events after seq `after` up to seq `upto` (the head as read), in order."""
    _, rows = await conn.execute_query(sql(conn, _EVENTS), [stream_id, after, upto])
    return [EventRow(r[0], r[1], r[2], load_json(r[3])) for r in rows]


class LoggedRow(NamedTuple):
    """An event row with its actor and time, as the history shows it."""

    seq: int
    step: int
    type: str
    payload: dict[str, Any]
    actor_id: int | None
    created_at: datetime


_CREATED_AT = StreamEvent._meta.fields_map["created_at"]  # SQLite: text -> aware datetime
_LOGGED = "SELECT seq, step, type, payload, actor_id, created_at FROM stream_events WHERE "
_ALL_LOGGED = _LOGGED + "stream_id = ? ORDER BY seq"
_LOGGED_AFTER = _LOGGED + "stream_id = ? AND step > ? ORDER BY seq"


async def read_logged(conn: BaseDBAsyncClient, stream_id: int, after_step: int) -> list[LoggedRow]:
    """The stream's rows of the steps after `after_step`, in order; a bounded read goes by
    the (stream, step) index, so it costs what it returns."""
    if after_step > 0:
        _, rows = await conn.execute_query(sql(conn, _LOGGED_AFTER), [stream_id, after_step])
    else:
        _, rows = await conn.execute_query(sql(conn, _ALL_LOGGED), [stream_id])
    times: dict[Any, datetime] = {}  # the rows of a step share one time: convert it once

    def when(value: Any) -> datetime:
        found = times.get(value)
        if found is None:
            found = times[value] = _CREATED_AT.to_python_value(value)
        return found

    return [LoggedRow(r[0], r[1], r[2], load_json(r[3]), r[4], when(r[5])) for r in rows]


# stream id, its head (seq, step) and the new one
HeadMove = tuple[int, int, int, int, int]
# A VALUES list names its columns column1… in SQLite and PostgreSQL alike; the casts give
# PostgreSQL their types.
_ADVANCE = (
    "UPDATE streams SET head_seq = m.column4, head_step = m.column5, updated_at = ?"
    " FROM (VALUES {rows}) AS m WHERE streams.id = m.column1"
    " AND streams.head_seq = m.column2 AND streams.head_step = m.column3"
)
_MOVE_ROW = "(" + ", ".join(["CAST(? AS INTEGER)"] * 5) + ")"


async def advance_heads(conn: BaseDBAsyncClient, moves: Sequence[HeadMove]) -> bool:
    """Move each stream's head from (seq, step) to (new seq, new step) in one statement;
    False if any of them is elsewhere (the caller's transaction is then rolled back)."""
    if not moves:
        return True
    text = _ADVANCE.format(rows=", ".join([_MOVE_ROW] * len(moves)))
    values: list[object] = [now(), *(v for move in moves for v in move)]
    moved, _ = await conn.execute_query(sql(conn, text), values)
    return moved == len(moves)


_INSERT_EVENTS = (
    "INSERT INTO stream_events (stream_id, seq, step, type, payload, actor_id, created_at) VALUES "
)
_EVENT_ROW = "(?, ?, ?, ?, ?, ?, ?)"
ROWS_PER_INSERT = 500  # 3,500 parameters: far below SQLite's and PostgreSQL's limits


# (stream_id, seq, step, type, payload as JSON text, actor_id, created_at)
EventValues = tuple[int, int, int, str, str, int | None, datetime]


async def insert_events(conn: BaseDBAsyncClient, rows: Sequence[EventValues]) -> None:
    """New events (of one stream or several) in one multi-row INSERT (one statement, where
    executemany runs one per row; UNIQUE (stream, seq) rejects a seq already taken:
    IntegrityError)."""
    for start in range(0, len(rows), ROWS_PER_INSERT):
        chunk = rows[start : start + ROWS_PER_INSERT]
        text = _INSERT_EVENTS + ", ".join([_EVENT_ROW] * len(chunk))
        await conn.execute_query(sql(conn, text), [v for r in chunk for v in r])


# stream id, seq, version, the state as JSON text
SnapshotValues = tuple[int, int, int, str]
_WRITE_SNAPSHOTS = (
    "INSERT INTO stream_snapshots (stream_id, seq, version, state, updated_at) VALUES {rows}"
    " ON CONFLICT (stream_id) DO UPDATE SET seq = excluded.seq, version = excluded.version,"
    " state = excluded.state, updated_at = excluded.updated_at"
)


async def write_snapshots(conn: BaseDBAsyncClient, snapshots: Sequence[SnapshotValues]) -> None:
    """Overwrite the streams' snapshots (insert the first ones) in one statement. The caller
    holds their heads (the conditional update in the same transaction)."""
    if not snapshots:
        return
    at = now()
    text = _WRITE_SNAPSHOTS.format(rows=", ".join(["(?, ?, ?, ?, ?)"] * len(snapshots)))
    await conn.execute_query(sql(conn, text), [v for s in snapshots for v in (*s, at)])


class CheckpointRow(NamedTuple):
    seq: int
    step: int
    state: Any  # JSON text as stored; decoded only once chosen


_CHECKPOINT = (
    "SELECT seq, step, state FROM stream_checkpoints"
    " WHERE stream_id = ? AND version = ? AND seq < ? AND step < ? ORDER BY seq DESC LIMIT 1"
)
_INSERT_CHECKPOINT = (
    "INSERT INTO stream_checkpoints (stream_id, seq, step, version, state, created_at)"
    " VALUES (?, ?, ?, ?, ?, ?)"
)


async def read_checkpoint(
    conn: BaseDBAsyncClient, stream_id: int, version: int, *, seq_below: int, step_below: int
) -> CheckpointRow | None:
    """The newest checkpoint of the stream in the aggregate's `version` before seq
    `seq_below` and step `step_below` (by the UNIQUE (stream, seq) index), or None."""
    values = [stream_id, version, seq_below, step_below]
    _, rows = await conn.execute_query(sql(conn, _CHECKPOINT), values)
    return CheckpointRow(*rows[0]) if rows else None


async def write_checkpoint(
    conn: BaseDBAsyncClient, stream_id: int, seq: int, step: int, version: int, state: str
) -> None:
    """Keep the stream's state at `seq` (the new head, after step `step`). The caller holds
    the head, so the seq is new: UNIQUE (stream, seq) never fires but on a lost race."""
    values = [stream_id, seq, step, version, state, now()]
    await conn.execute_query(sql(conn, _INSERT_CHECKPOINT), values)
