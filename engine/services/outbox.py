"""The transactional outbox: what must follow a committed step — the live push, the chat
board update, the chat message of a step made in the Mini App — is written in the step's own
transaction (one row per step, `outbox`), then delivered to the change subscribers
(engine.services.notify) and marked delivered.

A crash between the commit and the delivery loses nothing: `deliver_pending` (at start-up)
hands over every row still undelivered, in order, with its events decoded by their
aggregate. Several workers: each delivers the rows it wrote; the rows of a worker that
stopped are claimed and delivered by another one once their lease ran out (every worker
sweeps for them, `deliver_pending(lease=…)`). A row is marked only after every subscriber
took it, so what a crash interrupts is delivered again; subscribers that post to the chat
keep that window short (they queue the work; docs/storage.md «Outbox»).

Marks cost the steps nothing: the rows this process delivered are marked together, by one
UPDATE in a transaction of its own at most `MARK_AFTER_S` after the first of them was
delivered (whatever the number of steps meanwhile), and at shutdown (`flush_marks`). A
crash in that second repeats the side effects of the rows delivered in it (at most one
second of them) at the next start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterable
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.context import get_current_context
from tortoise.expressions import Q

from engine.services.aggregates.model import Aggregate, aggregate_named
from engine.services.aggregates.sql import dump_json, load_json, now, sql
from engine.services.notify import TOLD, Notification, current, current_origin, notify
from engine.store.models import OutboxItem

log = logging.getLogger(__name__)


EVENT_KEYS = ("events", "undone_events")  # the info keys holding engine events


@dataclass(frozen=True)
class Note:
    """One notification of a step: `topic` and what the subscribers read (`info`); `events`
    (and an undo's `undone_events`) are engine objects, stored as their aggregate's dicts."""

    topic: str
    info: dict[str, Any] = field(default_factory=dict)
    aggregate: Aggregate[Any, Any] | None = None

    def to_data(self) -> dict[str, Any]:
        info = dict(self.info)
        for key in EVENT_KEYS:
            if self.aggregate is not None and key in info:
                info[key] = [self.aggregate.event_to_dict(e) for e in info[key]]
        data: dict[str, Any] = {"topic": self.topic, "info": info}
        if self.aggregate is not None:
            data["aggregate"] = self.aggregate.name
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Note:
        info = dict(data.get("info") or {})
        aggregate = aggregate_named(data["aggregate"]) if data.get("aggregate") else None
        for key in EVENT_KEYS:
            if aggregate is not None and key in info:
                info[key] = tuple(aggregate.event_from_dict(e) for e in info[key])
        return cls(str(data["topic"]), info, aggregate)


def note(topic: str, aggregate: Aggregate[Any, Any] | None = None, **info: Any) -> Note:
    """A note made now: it keeps who made the change (`notify.origin`) for a later delivery."""
    info.setdefault("origin", current_origin())
    return Note(topic, info, aggregate)


# Claimed by its writer, which delivers it right after the commit.
_INSERT = (
    "INSERT INTO outbox (game_id, notes, created_at, claimed_at) VALUES (?, ?, ?, ?) RETURNING id"
)


async def write(conn: BaseDBAsyncClient, game_id: int, notes: Iterable[Note]) -> int | None:
    """The step's row, inside its transaction; its id (None: nothing to tell)."""
    data = [n.to_data() for n in notes]
    if not data:
        return None
    # execute_query_dict: the asyncpg client drops the rows of an INSERT in execute_query.
    at = now()
    rows = await conn.execute_query_dict(sql(conn, _INSERT), [game_id, dump_json(data), at, at])
    return int(rows[0]["id"])


async def told_in_step(game_id: int, notes: list[Note]) -> set[int]:
    """Inside a step's transaction that holds what the step tells too (a caller's
    `step_with_effects`): the bound notifier's in-step tellers tell `notes` (as delivered
    live: `Unit.with_states`) there; the indexes of those told, to mark (`told`) before the
    row is written, so neither this delivery's subscribers nor a sweep's tell them again. A
    teller's failure is the step's: nothing of it is stored."""
    notifier = current()
    tellers = notifier.in_step_tellers() if notifier is not None else ()
    told: set[int] = set()
    for teller in tellers:
        told |= await teller([Notification(game_id, n.topic, n.info) for n in notes])
    return told


def told(note: Note) -> Note:
    """`note` marked told inside its step (`told_in_step`)."""
    return Note(note.topic, {**note.info, TOLD: True}, note.aggregate)


def tellers_in_step() -> bool:
    """Whether the bound notifier has in-step tellers (`told_in_step`)."""
    notifier = current()
    return notifier is not None and bool(notifier.in_step_tellers())


MARK_AFTER_S = 1.0


class _Marks:
    """Ids of rows this process delivered and has not marked yet, with the database client
    they belong to (a test process opens many databases: ids never cross to another)."""

    def __init__(self) -> None:
        self.ids: list[int] = []
        self.client: object | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.tasks: set[asyncio.Task[None]] = set()

    def add(self, item_id: int) -> None:
        client = get_current_context()  # the open database (a transaction's too)
        if client is not self.client:
            self.ids, self.client = [], client  # the old database is closed: its rows wait
        self.ids.append(item_id)
        if self.timer is None:
            self.timer = asyncio.get_running_loop().call_later(MARK_AFTER_S, self._due)

    def take(self) -> list[int]:
        """The ids to mark on the current database (kept until `done`)."""
        return list(self.ids) if get_current_context() is self.client else []

    def done(self, ids: list[int]) -> None:
        if ids:
            marked = set(ids)
            self.ids = [i for i in self.ids if i not in marked]
        if not self.ids and self.timer is not None:
            self.timer.cancel()  # nothing left for the idle flush
            self.timer = None

    def _due(self) -> None:
        self.timer = None
        task = asyncio.get_running_loop().create_task(flush_marks())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)


_marks = _Marks()
_MARK = "UPDATE outbox SET delivered_at = ? WHERE id IN ({ids})"


async def mark_delivered(conn: BaseDBAsyncClient) -> list[int]:
    """Mark the rows delivered so far; the ids, to pass to `marked` once that is
    committed."""
    ids = _marks.take()
    if ids:
        text = _MARK.format(ids=", ".join("?" * len(ids)))
        await conn.execute_query(sql(conn, text), [now(), *ids])
    return ids


def marked(ids: list[int]) -> None:
    _marks.done(ids)


async def flush_marks() -> None:
    """Mark what was delivered and not marked yet, in a transaction of its own."""
    try:
        conn = OutboxItem._meta.db
        marked(await mark_delivered(conn))
    except Exception:  # a closed database or a busy one: the next flush marks them
        log.debug("outbox marks left for later", exc_info=True)


_holding: ContextVar[list[asyncio.Future[Any]] | None] = ContextVar("outbox_hold", default=None)
_delivery: ContextVar[Delivery | None] = ContextVar("outbox_delivery", default=None)
_held: set[asyncio.Task[None]] = set()
_CLAIM_DELIVERY = "UPDATE outbox SET delivered_at = ? WHERE id = ? AND delivered_at IS NULL"


def hold(work: asyncio.Future[Any]) -> None:
    """Called by a subscriber during a delivery: the row stays undelivered until `work` (the
    chat post it queued) is done, so a worker stopped meanwhile leaves it to another one
    (`deliver_pending`) instead of losing it. Outside a delivery: nothing."""
    held = _holding.get()
    if held is not None:
        held.append(work)


def delivering() -> bool:
    """Whether the caller runs within an outbox delivery (or work it spawned): what it fails
    to finish, the row's redelivery does again."""
    return _holding.get() is not None


@dataclass(frozen=True)
class Delivery:
    """The outbox row being delivered: its id, and a future done once every note of it
    was handed to the subscribers (one that tells the notes together waits for it)."""

    item_id: int
    notified: asyncio.Future[None]


def current_delivery() -> Delivery | None:
    """The row being delivered (None: not in a delivery, or a note with no row)."""
    return _delivery.get() if delivering() else None


@contextlib.asynccontextmanager
async def told_in_one_transaction(item_id: int | None) -> AsyncIterator[bool]:
    """For a subscriber that records what it tells durably in a transaction it opened (the
    chat's calls journaled, bot/miniapp_hooks.py): within, `delivering()` is False — its
    calls are its own, not made again by a redelivery — and the row is marked delivered in
    that transaction first. Yields False when the row was delivered already (another worker
    took it after a lease ran out, or this one before a crash): nothing is to be told then.
    Outside a delivery (`item_id` None) it yields True."""
    token = _holding.set(None)
    try:
        if item_id is None:
            yield True
            return
        conn = OutboxItem._meta.db  # the transaction the subscriber opened
        claimed, _ = await conn.execute_query(sql(conn, _CLAIM_DELIVERY), [now(), item_id])
        yield bool(claimed)
    finally:
        _holding.reset(token)


async def deliver(game_id: int, item_id: int | None, notes: Iterable[Note]) -> None:
    """Hand the notes to the subscribers; the row is marked delivered within a second of
    the last work a subscriber held (`hold`)."""
    held: list[asyncio.Future[Any]] = []
    notified: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    delivery = None if item_id is None else Delivery(item_id, notified)
    token, row = _holding.set(held), _delivery.set(delivery)
    try:
        for n in notes:
            await notify(game_id, n.topic, **n.info)
    finally:
        _holding.reset(token)
        _delivery.reset(row)
        notified.set_result(None)
    if item_id is None:
        return
    if not held:
        _marks.add(item_id)
        return

    async def mark_when_done() -> None:
        await asyncio.wait(held)
        if all(not w.cancelled() and w.exception() is None for w in held):
            _marks.add(item_id)
        # else: left undelivered, for the sweep (another worker's, or the next start's)

    task = asyncio.get_running_loop().create_task(mark_when_done())
    _held.add(task)
    task.add_done_callback(_held.discard)


async def wait_held(timeout: float) -> int:
    """Let the held work finish (shutdown, before `flush_marks`); how many rows still wait."""
    if _held:
        await asyncio.wait(list(_held), timeout=timeout)
    return len(_held)


async def deliver_pending(limit: int = 1000, *, lease: timedelta | None = None) -> int:
    """Deliver the rows a crash left undelivered, oldest first; how many.

    One process (`lease` None, at start-up): every undelivered row is the last run's. Several
    workers: only rows claimed longer than `lease` ago, each claimed anew by one conditional
    UPDATE first — of two workers sweeping at once, one delivers it. The lease must be far
    longer than a step's delivery (its writer delivers it at once and marks it within
    `MARK_AFTER_S`)."""
    told = set(_marks.take())  # delivered by this process, only not marked yet
    undelivered = OutboxItem.filter(delivered_at__isnull=True)
    if lease is not None:
        cutoff = now() - lease
        undelivered = undelivered.filter(Q(claimed_at__isnull=True) | Q(claimed_at__lt=cutoff))
    rows = [r for r in await undelivered.order_by("id").limit(limit) if r.id not in told]
    delivered = 0
    for row in rows:
        if lease is not None and not await _claim(row, cutoff):
            continue  # another worker took it
        try:
            notes = [Note.from_data(d) for d in load_json(row.notes)]
        except Exception:  # a row no code can read any more: kept, logged, skipped
            log.exception("outbox row %s cannot be decoded", row.id)
            continue
        await deliver(row.game_id, row.id, notes)
        delivered += 1
    await flush_marks()
    return delivered


async def _claim(row: OutboxItem, cutoff: datetime) -> bool:
    claimed = (
        await OutboxItem.filter(id=row.id, delivered_at__isnull=True)
        .filter(Q(claimed_at__isnull=True) | Q(claimed_at__lt=cutoff))
        .update(claimed_at=now())
    )
    return bool(claimed)


async def prune_delivered(older_than: timedelta = timedelta(days=1)) -> int:
    """Forget delivered rows older than `older_than`; how many."""
    return await OutboxItem.filter(
        delivered_at__isnull=False, delivered_at__lt=now() - older_than
    ).delete()
