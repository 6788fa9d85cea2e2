"""The transactional outbox: what must follow a committed step — the live push, the chat
board update, the chat message of a step made in the Mini App — is written in the step's own
transaction (one row per step, `outbox`), then delivered to the change subscribers
(engine.services.notify) and marked delivered.

A crash between the commit and the delivery loses nothing: `deliver_pending` (at start-up)
hands over every row still undelivered, in order, with its events decoded by their
aggregate. A row is marked only after every subscriber took it, so what a crash interrupts
is delivered again; subscribers that post to the chat keep that window short (they queue
the work; docs/storage.md «Outbox»).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient

from engine.services.aggregates.model import Aggregate, aggregate_named
from engine.services.aggregates.sql import dump_json, load_json, now, sql
from engine.services.notify import current_origin, notify
from engine.store.models import OutboxItem

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Note:
    """One notification of a step: `topic` and what the subscribers read (`info`); `events`
    are engine objects, stored as their aggregate's dicts."""

    topic: str
    info: dict[str, Any] = field(default_factory=dict)
    aggregate: Aggregate[Any, Any] | None = None

    def to_data(self) -> dict[str, Any]:
        info = dict(self.info)
        if self.aggregate is not None and "events" in info:
            info["events"] = [self.aggregate.event_to_dict(e) for e in info["events"]]
        data: dict[str, Any] = {"topic": self.topic, "info": info}
        if self.aggregate is not None:
            data["aggregate"] = self.aggregate.name
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Note:
        info = dict(data.get("info") or {})
        aggregate = aggregate_named(data["aggregate"]) if data.get("aggregate") else None
        if aggregate is not None and "events" in info:
            info["events"] = tuple(aggregate.event_from_dict(e) for e in info["events"])
        return cls(str(data["topic"]), info, aggregate)


def note(topic: str, aggregate: Aggregate[Any, Any] | None = None, **info: Any) -> Note:
    """A note made now: it keeps who made the change (`notify.origin`) for a later delivery."""
    info.setdefault("origin", current_origin())
    return Note(topic, info, aggregate)


_INSERT = "INSERT INTO outbox (game_id, notes, created_at) VALUES (?, ?, ?) RETURNING id"


async def write(conn: BaseDBAsyncClient, game_id: int, notes: Iterable[Note]) -> int | None:
    """The step's row, inside its transaction; its id (None: nothing to tell)."""
    data = [n.to_data() for n in notes]
    if not data:
        return None
    # execute_query_dict: the asyncpg client drops the rows of an INSERT in execute_query.
    rows = await conn.execute_query_dict(sql(conn, _INSERT), [game_id, dump_json(data), now()])
    return int(rows[0]["id"])


async def deliver(game_id: int, item_id: int | None, notes: Iterable[Note]) -> None:
    """Hand the notes to the subscribers, then mark the row delivered."""
    for n in notes:
        await notify(game_id, n.topic, **n.info)  # type: ignore[arg-type]
    if item_id is not None:
        await OutboxItem.filter(id=item_id).update(delivered_at=now())


async def deliver_pending(limit: int = 1000) -> int:
    """Deliver the rows a crash left undelivered, oldest first; how many."""
    rows = await OutboxItem.filter(delivered_at__isnull=True).order_by("id").limit(limit)
    for row in rows:
        try:
            notes = [Note.from_data(d) for d in load_json(row.notes)]
        except Exception:  # a row no code can read any more: kept, logged, skipped
            log.exception("outbox row %s cannot be decoded", row.id)
            continue
        await deliver(row.game_id, row.id, notes)  # type: ignore[attr-defined]
    return len(rows)


async def prune_delivered(older_than: timedelta = timedelta(days=1)) -> int:
    """Forget delivered rows older than `older_than`; how many."""
    return await OutboxItem.filter(
        delivered_at__isnull=False, delivered_at__lt=now() - older_than
    ).delete()
