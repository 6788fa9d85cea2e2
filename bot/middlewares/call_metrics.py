"""Every Bot API request counted by method and result (engine/services/metrics.py): the
innermost session middleware, so each try of a call Telegram answered 429 counts once."""

from __future__ import annotations

from aiogram import Bot
from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.exceptions import (
    TelegramAPIError,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import Response, TelegramMethod
from aiogram.methods.base import TelegramType

from engine.services.metrics import BOT_CALLS


def result_of(error: BaseException) -> str:
    if isinstance(error, TelegramRetryAfter):
        return "retry_after"
    if isinstance(error, TelegramNetworkError | TelegramServerError | OSError | TimeoutError):
        return "network"
    if isinstance(error, TelegramAPIError):
        return "refused"
    return "error"


class CountCalls(BaseRequestMiddleware):
    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        name = type(method).__name__
        try:
            response = await make_request(bot, method)
        except Exception as error:
            BOT_CALLS.labels(name, result_of(error)).inc()
            raise
        BOT_CALLS.labels(name, "ok").inc()
        return response
