"""The inbox: updates Telegram gave us, stored before they are acknowledged.

A webhook update is answered 200 only once its row is written (a database out of reach: 503,
and Telegram delivers it again); long polling asks for the next offset only once the batch
is written. A row is deleted once its update was handled (`Inbox.handled`, one DELETE for
every update handled within `FORGET_AFTER_S`), so what a crash or a database outage
interrupted is still here: the next start (one process) or another worker once the lease ran
out (several) handles it. A step an update already stored is not applied twice: its id is
claimed in the step's own transaction (engine/services/updates.py), so a second handling
finds it taken.

Why a table of received updates rather than answering the webhook once the step committed:
a handler may wait for its chat (the group's 20 messages a minute), and Telegram opens only
a few connections to a webhook; holding them would stall every chat at Telegram's side.

An update already handled (its id in `processed_updates`) is not stored again: Telegram's
resend of an update we answered late is dropped here, before any handler."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.transactions import in_transaction

from engine.services.aggregates.sql import now, sql
from engine.services.batched import Batched
from engine.store.models import ReceivedUpdate

FORGET_AFTER_S = 0.05

_STORE = (
    "INSERT INTO received_update"
    " (update_id, lane, payload, received_at, claimed_at, claimed_by)"
    " SELECT ?, ?, ?, ?, ?, ?"
    " WHERE NOT EXISTS (SELECT 1 FROM processed_updates WHERE update_id = ?)"
    " ON CONFLICT (update_id) DO NOTHING RETURNING update_id"
)
_FORGET = "DELETE FROM received_update WHERE update_id IN ({ids})"
_CLAIM = (
    "UPDATE received_update SET claimed_at = ?, claimed_by = ?"
    " WHERE claimed_at IS NULL OR claimed_at < ? RETURNING update_id, lane, payload"
)
_REFRESH = "UPDATE received_update SET claimed_at = ? WHERE claimed_by = ?"
_RELEASE = "UPDATE received_update SET claimed_at = NULL, claimed_by = NULL WHERE claimed_by = ?"


@dataclass(frozen=True)
class Received:
    """One update: its id, its lane (the chat) and its JSON."""

    update_id: int
    lane: str
    payload: str


class Inbox:
    """This worker's side of the table: what it stores it claims (`worker`)."""

    def __init__(self, worker: str) -> None:
        self.worker = worker
        self._handled = Batched(self._forget, after=FORGET_AFTER_S, what="handled update(s)")

    async def store(self, updates: Sequence[Received]) -> list[Received]:
        """Write the updates in one transaction; those that are new (not stored or handled
        already). Raises if the database is out of reach: nothing is acknowledged then."""
        if not updates:
            return []
        if len(updates) == 1:  # the webhook's: one statement, no transaction around it
            return await self._store(ReceivedUpdate._meta.db, updates)
        async with in_transaction() as conn:
            return await self._store(conn, updates)

    async def _store(self, conn: BaseDBAsyncClient, updates: Sequence[Received]) -> list[Received]:
        at, text = now(), sql(conn, _STORE)
        fresh: list[Received] = []
        for u in updates:
            params = [u.update_id, u.lane, u.payload, at, at, self.worker, u.update_id]
            if await conn.execute_query_dict(text, params):
                fresh.append(u)
        return fresh

    def handled(self, update_id: int) -> None:
        self._handled.add([update_id])

    async def flush(self) -> None:
        """Delete the rows of the updates handled so far."""
        await self._handled.flush()

    async def _forget(self, ids: list[int]) -> None:
        conn = ReceivedUpdate._meta.db
        await conn.execute_query(sql(conn, _FORGET.format(ids=", ".join("?" * len(ids)))), ids)

    async def claim(self, lease: timedelta | None = None) -> list[Received]:
        """Take the rows left to handle, oldest first: every row (`lease` None: one process
        at its start, they are the last run's) or only those nobody holds or whose claim is
        older than `lease` (a stopped worker's)."""
        conn = ReceivedUpdate._meta.db
        at = now()
        # lease None: every row, whoever claimed it
        cutoff = at + timedelta(days=1) if lease is None else at - lease
        rows = await conn.execute_query_dict(sql(conn, _CLAIM), [at, self.worker, cutoff])
        taken = [Received(int(r["update_id"]), str(r["lane"]), str(r["payload"])) for r in rows]
        return sorted(taken, key=lambda r: r.update_id)

    async def refresh(self) -> None:
        """Renew the claim on the updates this worker still has to handle."""
        conn = ReceivedUpdate._meta.db
        await conn.execute_query(sql(conn, _REFRESH), [now(), self.worker])

    async def release(self) -> None:
        """Shutting down: what is left is the next start's, or another worker's."""
        await self.flush()
        conn = ReceivedUpdate._meta.db
        await conn.execute_query(sql(conn, _RELEASE), [self.worker])


async def waiting(lanes: Iterable[str] | None = None) -> int:
    """How many updates wait in the table (in `lanes`, if given)."""
    rows = ReceivedUpdate.all()
    if lanes is not None:
        rows = rows.filter(lane__in=list(lanes))
    return await rows.count()
