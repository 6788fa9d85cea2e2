"""The table of chat calls a shutdown kept (engine/services/outgoing.py): order and claims."""

from __future__ import annotations

from datetime import timedelta

from engine.services import outgoing
from engine.services.aggregates.sql import now
from engine.services.outgoing import Kept
from engine.store.models import OutgoingCall

LEASE = timedelta(minutes=1)


def calls() -> list[Kept]:
    return [
        Kept(chat, "SendMessage", {"chat_id": int(chat), "text": f"{chat}:{i}"})
        for i in range(3)
        for chat in ("-100", "7")
    ]


async def test_claimed_in_the_order_stored(db: object) -> None:
    assert await outgoing.store(calls()) == 6
    taken = await outgoing.claim()
    assert [c.payload["text"] for c in taken] == [c.payload["text"] for c in calls()]
    assert [c.id for c in taken] == sorted(c.id for c in taken if c.id is not None)


async def test_a_claimed_row_is_not_claimed_again_until_its_lease_ran_out(db: object) -> None:
    await outgoing.store(calls())
    first = await outgoing.claim(lease=LEASE)
    assert len(first) == 6
    assert await outgoing.claim(lease=LEASE) == []  # another worker sends them
    # that worker stopped: once the lease ran out, they are claimed anew
    await OutgoingCall.filter(id=first[0].id).update(claimed_at=now() - 2 * LEASE)
    [again] = await outgoing.claim(lease=LEASE)
    assert again.payload == first[0].payload
    # alone at start-up, every row is the last run's
    assert len(await outgoing.claim()) == 6


async def test_done_removes_the_row(db: object) -> None:
    await outgoing.store(calls()[:2])
    first, second = await outgoing.claim()
    await outgoing.done(first)
    assert [c.payload for c in await outgoing.claim()] == [second.payload]


async def test_nothing_stored_nothing_claimed(db: object) -> None:
    assert await outgoing.store([]) == 0
    assert await outgoing.claim() == []
