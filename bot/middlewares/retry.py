"""Bot API session middleware: obey 429 Too Many Requests (aiogram does not retry itself).

The chat calls the outgoing queue holds (bot/middlewares/flood_queue.py) are retried there, at the
head of their chat's queue, for as long as it takes (`queued_elsewhere`); this middleware
retries the others (answering a button, reading a member) a few times."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.exceptions import TelegramRetryAfter
from aiogram.methods import Response, TelegramMethod
from aiogram.methods.base import TelegramType

if TYPE_CHECKING:
    from aiogram import Bot

log = logging.getLogger(__name__)


class RetryAfterMiddleware(BaseRequestMiddleware):
    """Sleep `retry_after` seconds and try again, at most `attempts` retries; a wait longer
    than `max_wait` seconds is not worth blocking a handler for, so it is raised at once."""

    def __init__(
        self,
        attempts: int = 3,
        max_wait: float = 60.0,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
        queued_elsewhere: Callable[[TelegramMethod[Any]], bool] | None = None,
    ) -> None:
        self.queued_elsewhere = queued_elsewhere
        self.attempts = attempts
        self.max_wait = max_wait
        self.sleep = sleep

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        if self.queued_elsewhere is not None and self.queued_elsewhere(method):
            return await make_request(bot, method)
        for attempt in range(1, self.attempts + 1):
            try:
                return await make_request(bot, method)
            except TelegramRetryAfter as error:
                if error.retry_after > self.max_wait:
                    raise
                log.warning(
                    "%s: flood control, retry %d/%d in %ss",
                    type(method).__name__,
                    attempt,
                    self.attempts,
                    error.retry_after,
                )
                await self.sleep(error.retry_after)
        return await make_request(bot, method)
