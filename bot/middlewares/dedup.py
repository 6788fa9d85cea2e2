"""Drop an update whose id was already handled (webhook redelivery, a second worker).

The id is claimed in the transaction of the update's first stored step
(engine.services.updates): a copy of an update whose step is stored is refused there and
its transaction rolls back; an update that stored no step is claimed after its handler. A
copy that arrives while its first is still being handled in this process is dropped at
once (`_in_flight`); one seen by this process shortly before is dropped without a query
(`_seen`, a bounded memory of recent ids: the database decides for the rest).
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import TelegramObject, Update

from engine.services.updates import DuplicateUpdate, claiming, settle

log = logging.getLogger(__name__)
SEEN = 10_000  # recent update ids remembered by this process


class DedupMiddleware(BaseMiddleware):
    def __init__(self) -> None:
        self._in_flight: set[int] = set()
        self._seen: OrderedDict[int, None] = OrderedDict()

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
            return None
        self._in_flight.add(update_id)
        try:
            with claiming(update_id) as claim:
                try:
                    result = await handler(event, data)
                except DuplicateUpdate:
                    log.info("update %s already handled, skipped", update_id)
                    return None
                if not await settle(claim):
                    log.info("update %s was handled twice (it stored nothing)", update_id)
                self._remember(update_id)
                return result
        finally:
            self._in_flight.discard(update_id)

    def _remember(self, update_id: int) -> None:
        self._seen[update_id] = None
        if len(self._seen) > SEEN:
            self._seen.popitem(last=False)
