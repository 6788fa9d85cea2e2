"""Keep the sender's row current (`user_info` in the handler data); a private message means
the bot may write to them first from now on."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.enums import ChatType
from aiogram.types import Chat, TelegramObject, User

from engine.services import mark_bot_started, touch_user


class UserUpsertMiddleware(BaseMiddleware):
    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        user: User | None = data.get("event_from_user")
        chat: Chat | None = data.get("event_chat")
        if user is not None and not user.is_bot:
            info = await touch_user(user.id, user.first_name, user.username)
            data["user_info"] = info  # the stored language, for the locale middleware
            if not info.bot_started and chat is not None and chat.type == ChatType.PRIVATE:
                await mark_bot_started(user.id)
        return await handler(event, data)
