"""Long polling has one reader: Telegram answers a second `getUpdates` of the same bot with
409 Conflict. aiogram logs that at every retry in Telegram's words; this says, once a minute,
what it means here and what to do (several workers take updates through the webhook)."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.exceptions import TelegramConflictError
from aiogram.methods import GetUpdates, Response, TelegramMethod
from aiogram.methods.base import TelegramType

if TYPE_CHECKING:
    from aiogram import Bot

log = logging.getLogger("kosti")
EXPLAINED = (
    "another process is reading this bot's updates by long polling: only one may. Stop the "
    "other one, or run several workers in webhook mode (WEBHOOK_URL, docs/deploy.md)"
)


class OnePoller(BaseRequestMiddleware):
    def __init__(self, every: float = 60.0) -> None:
        self.every = every
        self._last = -every

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        try:
            return await make_request(bot, method)
        except TelegramConflictError:
            if isinstance(method, GetUpdates) and time.monotonic() - self._last >= self.every:
                log.error(EXPLAINED)
                self._last = time.monotonic()
            raise
