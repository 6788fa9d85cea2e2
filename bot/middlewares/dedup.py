"""Drop an update whose id was already handled (webhook redelivery, a second worker).

The id is claimed in the transaction of the update's first stored step
(engine.services.updates): a copy of an update whose step is stored is refused there and
its transaction rolls back; an update that stored no step is claimed after its handler. A
copy that arrives while its first is still being handled in this process is dropped at
once (`_in_flight`); one seen by this process shortly before is dropped without a query
(`_seen`, a bounded memory of recent ids: the database decides for the rest).

Several workers (REDIS_URL) also share what each has in hand and has finished
(`SharedUpdates`): a worker takes an update's id with SET NX before handling it, so a copy
that reaches another worker meanwhile (Telegram resent it, not having heard the answer) is
dropped there, even one that stores nothing (a /help answered twice); after the handler the
mark says "done" for as long as Telegram could resend. A failed handler gives the id back.
An update a stopped worker left in the inbox (bot/intake.py `taken_over`) is handled whatever
its mark says: the worker that held it is gone, and the database's claim decides.
If Redis does not answer, each worker goes on alone and the database decides, as with one
process.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import TelegramObject, Update
from redis.asyncio import Redis
from redis.exceptions import RedisError

from bot.intake import taken_over
from bot.middlewares.watch import note
from engine.services.updates import DuplicateUpdate, claiming, settle
from engine.store.redis import PREFIX

log = logging.getLogger(__name__)
SEEN = 10_000  # recent update ids remembered by this process
IN_HAND_S = 120  # a worker killed mid-update: its id is free again after this
DONE_S = 2 * 24 * 3600  # Telegram resends an update for at most a day


class SharedUpdates:
    """The update ids the workers hold or finished, in Redis."""

    def __init__(self, redis: Redis, worker: str) -> None:
        self.redis, self.worker = redis, worker
        self._last_complaint = -60.0

    @staticmethod
    def key(update_id: int) -> str:
        return f"{PREFIX}update:{update_id}"

    async def take(self, update_id: int) -> bool:
        """False: another worker has it or finished it."""
        try:
            return bool(
                await self.redis.set(self.key(update_id), self.worker, nx=True, ex=IN_HAND_S)
            )
        except (RedisError, OSError) as error:
            self._complain(error)
            return True  # alone: the database decides

    async def finish(self, update_id: int, *, handled: bool) -> None:
        try:
            if handled:
                await self.redis.set(self.key(update_id), "done", ex=DONE_S)
            else:
                await self.redis.delete(self.key(update_id))
        except (RedisError, OSError) as error:
            self._complain(error)

    def _complain(self, error: BaseException) -> None:
        now = time.monotonic()
        if now - self._last_complaint >= 60:
            log.warning("Redis does not answer, updates are de-duplicated alone: %s", error)
            self._last_complaint = now


class DedupMiddleware(BaseMiddleware):
    def __init__(self, shared: SharedUpdates | None = None) -> None:
        self._in_flight: set[int] = set()
        self._seen: OrderedDict[int, None] = OrderedDict()
        self.shared = shared

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if not isinstance(event, Update):
            return await handler(event, data)
        update_id = event.update_id
        if update_id in self._in_flight or update_id in self._seen:
            log.info("update %s already handled, skipped", update_id)
            note("duplicate")
            return None
        if self.shared is not None and not taken_over() and not await self.shared.take(update_id):
            log.info("update %s is another worker's, skipped", update_id)
            note("duplicate")
            return None
        self._in_flight.add(update_id)
        handled = False
        try:
            with claiming(update_id) as claim:
                try:
                    result = await handler(event, data)
                except DuplicateUpdate:
                    log.info("update %s already handled, skipped", update_id)
                    handled = True
                    note("duplicate")
                    return None
                handled = True
                if not await settle(claim):
                    log.info("update %s was handled twice (it stored nothing)", update_id)
                self._remember(update_id)
                return result
        finally:
            self._in_flight.discard(update_id)
            if self.shared is not None:
                await self.shared.finish(update_id, handled=handled)

    def _remember(self, update_id: int) -> None:
        self._seen[update_id] = None
        if len(self._seen) > SEEN:
            self._seen.popitem(last=False)
