"""Chat calls not yet accepted by Telegram, kept in the database so that no crash loses them.

Every chat call (a message, an edit, a delete) the outgoing queue (bot/middlewares/flood.py)
takes is written here at once, in the order it was queued (`Journal.write`), and forgotten
once Telegram accepted it (`Journal.sent`). What a shutdown could not make in time and
could not journal (the database was out of reach) is written by `store`. The next start
`claim`s the rows before it takes updates and sends them in `id` order per chat, deleting
each once sent (`done`). Several workers: a start or the sweep claims only rows nobody
holds or whose claim is older than the lease, all of them in one conditional UPDATE, so
one worker sends a chat's rows in order and two never both do; a live worker renews the
claim on its own rows (`Journal.refresh`).

A call that was under way may have reached Telegram without its answer reaching us: it is
sent again (Telegram has no idempotent send; an edit sent twice changes nothing).

A post's caller may go on before Telegram answered, holding the post's row id, negated, as
its message id (a provisional id; a board stored with one, too). Once the post is sent, the
real id is written beside it (`SentCall`, the same flush that forgets the row) and the boards
and live messages stored with the provisional one are given the real one; a later call naming
the provisional id is sent with the real one (`real_id`), by any worker. The mapping is
pruned after a day (`prune_sent`)."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from tortoise.expressions import Q
from tortoise.transactions import in_transaction

from engine.services.aggregates.sql import dump_json, load_json, now, sql
from engine.services.batched import Batched
from engine.store.models import BoardMessage, LiveMessage, OutgoingCall, SentCall
from engine.store.queries import first_value


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
    return [Kept(r.chat, r.method, load_json(r.payload), r.id) for r in taken]


async def done(call: Kept, message_id: int | None = None) -> None:
    """The call was sent (or refused for good): its row goes; a post's real id is kept."""
    if call.id is None:
        return
    if message_id is not None:
        await _record_real_ids({call.id: message_id})
    await OutgoingCall.filter(id=call.id).delete()


PENDING = -1  # `real_id`: the post is still queued somewhere


async def real_id(row: int) -> int | None:
    """The message id Telegram gave the post journaled as `row`; `PENDING` while its row is
    still waiting; None when it will never have one (refused, or pruned)."""
    found: int | None = await first_value(SentCall.filter(id=row), "message_id")
    if found is not None:
        return found
    return PENDING if await OutgoingCall.filter(id=row).exists() else None


_REAL_IDS = (
    "UPDATE {table} SET message_id = CASE message_id {cases} END WHERE message_id IN ({ids})"
)


async def _record_real_ids(real: dict[int, int]) -> None:
    """The real ids, and in their place the provisional ones a board or a live message was
    stored with before its post was sent: one statement a table, whatever the number."""
    if not real:
        return
    await SentCall.bulk_create(
        [SentCall(id=row, message_id=message_id) for row, message_id in real.items()],
        ignore_conflicts=True,
    )
    conn = SentCall._meta.db
    cases = " ".join("WHEN ? THEN CAST(? AS BIGINT)" for _ in real)
    ids = ", ".join("?" * len(real))
    values = [v for row, message_id in real.items() for v in (-row, message_id)]
    for table in (BoardMessage._meta.db_table, LiveMessage._meta.db_table):
        text = _REAL_IDS.format(table=table, cases=cases, ids=ids)
        await conn.execute_query(sql(conn, text), [*values, *(-row for row in real)])


async def prune_sent(age: timedelta = timedelta(days=1)) -> int:
    """Forget the real ids of posts sent longer than `age` ago; how many. A board stored
    with a provisional id after its post was sent (the fix-up ran first) gets its real one
    here, before the mapping goes (a live message too)."""
    for board in await BoardMessage.filter(message_id__lt=0):
        found = await SentCall.filter(id=-board.message_id).first()
        if found is not None:
            await BoardMessage.filter(id=board.id).update(message_id=found.message_id)
    for form in await LiveMessage.filter(message_id__lt=0):
        found = await SentCall.filter(id=-form.message_id).first()
        if found is not None:
            await LiveMessage.filter(id=form.id).update(message_id=found.message_id)
    return await SentCall.filter(created_at__lt=now() - age).delete()


# -- the journal: every chat call of a live process, durable from the moment it is queued ---

_JOURNAL = (
    "INSERT INTO outgoing_call (chat, method, payload, created_at, claimed_at, claimed_by)"
    " VALUES (?, ?, ?, ?, ?, ?) RETURNING id"
)
_FORGET = "DELETE FROM outgoing_call WHERE id IN ({ids})"
_REFRESH = "UPDATE outgoing_call SET claimed_at = ? WHERE claimed_by = ?"
_RELEASE = "UPDATE outgoing_call SET claimed_at = NULL, claimed_by = NULL WHERE claimed_by = ?"
FORGET_AFTER_S = 0.05  # sent calls are forgotten together, by one DELETE


class Journal:
    """The chat calls this worker has queued and not yet seen accepted by Telegram, one row
    each (`write`), claimed by the worker so that no other one sends them while it lives
    (`refresh` renews the claim; a stopped worker's rows are another's once the lease ran
    out, `claim`). A call Telegram accepted, or refused for good, is forgotten (`sent`):
    the ids of the last `FORGET_AFTER_S` seconds go in one DELETE, off the step's path.

    A crash before that DELETE sends those calls again after the restart: the window where
    a duplicate may appear is a call's round trip plus `FORGET_AFTER_S`."""

    def __init__(self, worker: str | None = None) -> None:
        self.worker = worker or f"journal:{uuid.uuid4().hex}"
        self._sent = Batched(self._forget, after=FORGET_AFTER_S, what="sent chat call(s)")
        self._real: dict[int, int] = {}  # row -> message id, of posts sent and not yet written

    async def write(self, call: Kept) -> int:
        """The call's row (one INSERT, committed on its own); its id."""
        conn = OutgoingCall._meta.db
        at = now()
        params = [call.chat, call.method, dump_json(call.payload), at, at, self.worker]
        rows = await conn.execute_query_dict(sql(conn, _JOURNAL), params)
        return int(rows[0]["id"])

    def sent(self, ids: Iterable[int], message_id: int | None = None) -> None:
        """Telegram took the calls (or refused them for good); `message_id`: the post's."""
        ids = list(ids)
        if message_id is not None:
            self._real.update(dict.fromkeys(ids, message_id))
        self._sent.add(ids)

    async def flush(self) -> None:
        """Forget the calls sent so far."""
        await self._sent.flush()

    async def _forget(self, ids: list[int]) -> None:
        real = {row: self._real[row] for row in ids if row in self._real}
        async with in_transaction():  # one commit for the batch
            await _record_real_ids(real)  # before the rows go: `real_id` never sees neither
            conn = OutgoingCall._meta.db
            forget = _FORGET.format(ids=", ".join("?" * len(ids)))
            await conn.execute_query(sql(conn, forget), ids)
        for row in real:
            self._real.pop(row, None)

    async def refresh(self) -> None:
        """Renew this worker's claim on the calls it still has queued (a long queue
        outlives the lease: the group's 20 a minute)."""
        conn = OutgoingCall._meta.db
        await conn.execute_query(sql(conn, _REFRESH), [now(), self.worker])

    async def release(self) -> None:
        """Shutting down: the calls still queued are the next start's, or another worker's
        at its next sweep."""
        await self.flush()
        conn = OutgoingCall._meta.db
        await conn.execute_query(sql(conn, _RELEASE), [self.worker])
