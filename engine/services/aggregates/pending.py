"""A stream as one unit of work holds it (engine/services/aggregates/unit.py): the steps it
keeps in memory until the flush, the end of the stored log its undos read back, and the rows
the flush writes for it."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, TypeVar

from tortoise.backends.base.client import BaseDBAsyncClient

from engine.services.aggregates.log import View
from engine.services.aggregates.model import UNDO, Aggregate, is_marker
from engine.services.aggregates.sql import (
    EventRow,
    EventValues,
    HeadMove,
    SnapshotValues,
    dump_json,
    load_json,
    read_checkpoint,
    read_events,
)
from engine.store.models import Stream

S = TypeVar("S")

log = logging.getLogger(__name__)


@dataclass
class PendingStep:
    rows: list[tuple[str, dict[str, Any]]]  # (type, payload) in order, markers included
    snapshot: bool = False  # force a snapshot (an undo: the state is no fold of the log)


@dataclass
class Past(Generic[S]):
    """The end of a stream's stored log as this unit's undos read it: the rows after seq
    `lo` up to the head as read, and the state at `lo` — a checkpoint's (`text`, decoded on
    first use), or `initial(params)` at 0. `lo` is a step boundary: `step` ends there."""

    lo: int
    step: int
    rows: list[EventRow]
    text: object = None  # the checkpoint's JSON as stored; None: lo == 0
    state: S | None = None  # decoded

    def base(self, aggregate: Aggregate[S, Any], params: Mapping[str, Any]) -> S:
        if self.state is None:
            if self.text is None:
                self.state = aggregate.initial(params)
            else:
                self.state = aggregate.state_from_dict(load_json(self.text))
        return self.state


@dataclass
class HeldStream(Generic[S]):
    aggregate: Aggregate[S, Any]
    key: str
    view: View[S]
    state: S
    params: dict[str, Any]  # of a stream this unit creates
    steps: list[PendingStep] = field(default_factory=list)
    past: Past[S] | None = None  # read by the first undo of this unit, kept for the next
    stream_id: int | None = None  # its row's id, once known (a new stream: once written)

    @property
    def step(self) -> int:
        """The newest step number, the pending ones included."""
        return self.view.step + len(self.steps)

    @property
    def seq(self) -> int:
        return self.view.seq + sum(len(s.rows) for s in self.steps)


def type_of(payload: dict[str, Any]) -> str:
    kind = payload.get("type")
    kind = kind if isinstance(kind, str) else ""
    if kind.startswith("$"):
        raise ValueError(f"event type {kind!r} is reserved for the store")
    return kind


def last_command(rows: list[EventRow]) -> int | None:
    """The newest command step of `rows` (a suffix of the log: whole steps, every undo of
    a step in it included) that no undo in them took back; None if there is none."""
    undone: set[int] = set()
    for r in rows[::-1]:  # reversed(list[NamedTuple]) is Any to mypy
        if r.type == UNDO:
            undone.add(int(r.payload["step"]))
        elif not is_marker(r.type) and r.step not in undone:
            return r.step
    return None


def pending_rows(stream: HeldStream[Any]) -> list[EventRow]:
    out, seq, step = [], stream.view.seq, stream.view.step
    for pending in stream.steps:
        step += 1
        for kind, payload in pending.rows:
            seq += 1
            out.append(EventRow(seq, step, kind, payload))
    return out


async def read_older(
    conn: BaseDBAsyncClient, stream: HeldStream[S], past: Past[S] | None, step: int
) -> Past[S]:
    """`past` (None: nothing read yet) extended back to the newest checkpoint before
    it and before `step` (0: to the start of the log)."""
    assert stream.view.row is not None
    stream_id, head = stream.view.row.id, stream.view.seq
    lo = head if past is None else past.lo
    point = await read_checkpoint(
        conn, stream_id, stream.aggregate.version, seq_below=lo, step_below=step
    )
    start, start_step, text = (point.seq, point.step, point.state) if point else (0, 0, None)
    rows = await read_events(conn, stream_id, start, lo)
    rows += [] if past is None else past.rows
    if point is not None and (not rows or rows[0].step != start_step + 1):
        # not at a step boundary of this log: never trust it
        log.warning("checkpoint of stream %s at seq %s ignored", stream.key, start)
        return await read_older(conn, stream, Past(start, start_step, rows), 0)
    return Past(start, start_step, rows, text)


async def write_stream(
    conn: BaseDBAsyncClient,
    game_id: int,
    actor_id: int | None,
    stream: HeldStream[Any],
    at: datetime,
    moves: list[HeadMove],
    events: list[EventValues],
    snapshots: list[SnapshotValues],
    checkpoints: list[tuple[int, int, int, int, str]],
) -> None:
    """Add the stream's writes (`at`: the step's time) to those of the step; a new
    stream's row is created here."""
    view = stream.view
    rows: list[tuple[int, int, str, str]] = []
    seq, step = view.seq, view.step
    for pending in stream.steps:
        step += 1
        for kind, payload in pending.rows:
            seq += 1
            rows.append((seq, step, kind[:64], dump_json(payload)))
    if view.row is None:
        row = await Stream.create(
            game_id=game_id,
            key=stream.key,
            aggregate=stream.aggregate.name,
            params=stream.params,
            head_seq=seq,
            head_step=step,
            using_db=conn,
        )
        stream_id = int(row.id)
    else:
        stream_id = view.row.id
        moves.append((stream_id, view.seq, view.step, seq, step))
    stream.stream_id = stream_id
    events += [(stream_id, *r, actor_id, at) for r in rows]
    aggregate = stream.aggregate
    forced = any(p.snapshot for p in stream.steps)
    snapshot = forced or view.stale or seq - view.covered >= aggregate.snapshot_every
    every = aggregate.checkpoint_every
    checkpoint = every > 0 and step // every > view.step // every
    if snapshot or checkpoint:
        to_json = aggregate.state_to_json
        data = (
            to_json(stream.state) if to_json else dump_json(aggregate.state_to_dict(stream.state))
        )
        if snapshot:
            snapshots.append((stream_id, seq, aggregate.version, data))
        if checkpoint:
            checkpoints.append((stream_id, seq, step, aggregate.version, data))
