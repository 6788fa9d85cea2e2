"""Bot API session middleware: keep aiogram's parametrised `Response[...]` models alive.

aiogram reads every Bot API answer with `Response[method.__returning__]`, and pydantic keeps
parametrised generic models in a weak cache: once the garbage collector has freed one, the
next answer builds it again — about 20 ms of CPU each time, one answer in seven under load
(a profile of bench/pipeline.py's fight step). Holding the model of each answer type used
builds it once per process.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.methods import Response, TelegramMethod
from aiogram.methods.base import TelegramType

if TYPE_CHECKING:
    from aiogram import Bot

KEPT: dict[Any, type[Response[Any]]] = {}  # the answer type -> its Response model


class KeepResponseTypes(BaseRequestMiddleware):
    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        returning = method.__returning__
        if returning not in KEPT:
            KEPT[returning] = Response[returning]  # type: ignore[valid-type]  # known at run time
        return await make_request(bot, method)
