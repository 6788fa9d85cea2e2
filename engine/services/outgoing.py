"""Chat calls a shutdown could not make in time, kept for the next start.

The outgoing queue (bot/middlewares/flood.py) hands over what is still queued or under way
when the shutdown's bound runs out; `store` writes it, one row per call in the order it was
queued. The next start `claim`s the rows before it takes updates and sends them in `id`
order per chat, deleting each once sent (`done`). Several workers: a start or the sweep
claims only rows nobody holds or whose claim is older than the lease, all of them in one
conditional UPDATE, so one worker sends a chat's rows in order and two never both do.

A call that was under way may have reached Telegram without its answer reaching us: it is
sent again (Telegram has no idempotent send)."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from tortoise.expressions import Q

from engine.services.aggregates.sql import now
from engine.store.models import OutgoingCall


@dataclass(frozen=True)
class Kept:
    """One call: the chat whose queue it waited in, the method's name and its parameters."""

    chat: str
    method: str
    payload: dict[str, Any]
    id: int | None = None  # its row, once stored


async def store(calls: Iterable[Kept]) -> int:
    """Write the calls in their order; how many."""
    rows = [OutgoingCall(chat=c.chat, method=c.method, payload=c.payload) for c in calls]
    if rows:
        await OutgoingCall.bulk_create(rows)  # ids follow the list's order
    return len(rows)


async def claim(*, lease: timedelta | None = None) -> list[Kept]:
    """Claim the rows to send, oldest first. `lease` None: every row (one process, at
    start-up: they are the last run's); else only rows unclaimed or claimed longer than
    `lease` ago."""
    token = uuid.uuid4().hex
    rows = OutgoingCall.all()
    if lease is not None:
        rows = rows.filter(Q(claimed_at__isnull=True) | Q(claimed_at__lt=now() - lease))
    if not await rows.update(claimed_at=now(), claimed_by=token):
        return []
    taken = await OutgoingCall.filter(claimed_by=token).order_by("id")
    return [Kept(r.chat, r.method, r.payload, r.id) for r in taken]


async def done(call: Kept) -> None:
    """The call was sent (or refused for good): its row goes."""
    await OutgoingCall.filter(id=call.id).delete()
