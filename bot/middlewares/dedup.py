"""Drop an update whose id was already handled (webhook redelivery, a second worker)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import TelegramObject, Update

from engine.services import claim_update

log = logging.getLogger(__name__)


class DedupMiddleware(BaseMiddleware):
    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if isinstance(event, Update) and not await claim_update(event.update_id):
            log.info("update %s already handled, skipped", event.update_id)
            return None
        return await handler(event, data)
