"""De-duplication of Telegram updates (webhook redeliveries, several workers).

An update's id is claimed in the transaction of the first step it writes (`claiming` around
the handler, `claim_in` inside the services' transactions): the claim and the step commit
together or not at all, so a redelivered copy of a stored step is refused by the primary
key (`DuplicateUpdate`, the copy's transaction rolls back), and a copy of an update whose
first attempt failed before its commit is simply handled — nothing is lost, nothing
repeats, and the claim costs no transaction of its own. An update that writes no step is
claimed after its handler (`settle`, one plain INSERT).

A handler that tells the chat what its step did opens `step_with_effects` around both: the
step and the outgoing journal's rows of its chat calls (bot/middlewares/flood.py) commit in
one transaction, and what must follow the commit — the calls' queueing, the live push, the
states kept — runs after it (`after_commit`). A crash can no longer fall between a stored
step and what it tells the chat.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime, timedelta

from tortoise import timezone
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from engine.services.after_commit import collecting, holding
from engine.services.aggregates.sql import sql
from engine.store.models import ProcessedUpdate

_CLAIM = "INSERT INTO processed_updates (update_id, created_at) VALUES (?, ?)"


class DuplicateUpdate(Exception):
    """This update's id was claimed already: its first copy's step is stored."""

    def __init__(self, update_id: int) -> None:
        super().__init__(f"update {update_id} was handled already")
        self.update_id = update_id


@dataclass
class Claim:
    update_id: int
    taken: bool = False  # inserted in a transaction that committed (or is running)


_current: ContextVar[Claim | None] = ContextVar("kosti_update_claim", default=None)


@contextlib.contextmanager
def claiming(update_id: int) -> Iterator[Claim]:
    """Around one update's handling: its first step's transaction claims the id."""
    claim = Claim(update_id)
    token = _current.set(claim)
    try:
        yield claim
    finally:
        _current.reset(token)


def unclaimed() -> bool:
    """Is an update being handled whose id no transaction has claimed yet?"""
    claim = _current.get()
    return claim is not None and not claim.taken


async def claim_in(conn: BaseDBAsyncClient) -> Claim | None:
    """Inside a step's transaction: claim the current update's id (once per update). The
    claim taken, for `release` if the transaction does not commit; `DuplicateUpdate` if
    another copy has it."""
    claim = _current.get()
    if claim is None or claim.taken:
        return None
    try:
        await conn.execute_query(sql(conn, _CLAIM), [claim.update_id, timezone.now()])
    except IntegrityError:
        raise DuplicateUpdate(claim.update_id) from None
    claim.taken = True
    return claim


def release(claim: Claim | None) -> None:
    """The transaction that took `claim` rolled back: the next one claims again."""
    if claim is not None:
        claim.taken = False


@contextlib.asynccontextmanager
async def step_transaction() -> AsyncIterator[BaseDBAsyncClient]:
    """A step's transaction, the current update's claim its first INSERT (`claim_in`); if it
    does not commit, the claim is released for the next attempt."""
    claim = None
    try:
        async with in_transaction() as tx:
            claim = await claim_in(tx)
            yield tx
    except BaseException:
        release(claim)
        raise


@contextlib.asynccontextmanager
async def step_with_effects() -> AsyncIterator[BaseDBAsyncClient]:
    """One transaction for a handler's step and its chat calls' journal rows (the module's
    docstring); the steps within are nested in it. What `after_commit` was given
    (engine/services/after_commit.py) runs once it committed, in order; nothing of it if it
    did not."""
    if holding_effects():  # nested: the outer transaction's commit is the one
        async with step_transaction() as tx:
            yield tx
        return
    with collecting() as later:
        async with step_transaction() as tx:
            yield tx
    for then in later:
        await then()


def holding_effects() -> bool:
    """Whether a `step_with_effects` transaction is open in this context."""
    return holding()


async def claim_update(update_id: int) -> bool:
    """True the first time an update id is seen, False for a duplicate (a plain INSERT
    outside any transaction: the primary key decides, atomically)."""
    conn = ProcessedUpdate._meta.db
    try:
        await conn.execute_query(sql(conn, _CLAIM), [update_id, timezone.now()])
    except IntegrityError:
        return False
    return True


async def settle(claim: Claim) -> bool:
    """After the handler: claim an update that wrote no step. False: a copy had it."""
    return True if claim.taken else await claim_update(claim.update_id)


async def prune_updates(older_than: datetime | timedelta) -> int:
    """Forget update ids claimed before a moment (or longer ago than a duration)."""
    cutoff = timezone.now() - older_than if isinstance(older_than, timedelta) else older_than
    return await ProcessedUpdate.filter(created_at__lt=cutoff).delete()
