"""A rule system's commands in the private chat with the bot, for the game the user chose with
/games (as /hr there): where a GM enters what players must not see."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import Message, TelegramObject

from bot.filters import command_of
from engine.services import selected_private_game


class SelectedGame(BaseMiddleware):
    """Before the system's filter reads data["game"]: in the private chat, the game the user
    chose, if it plays the system `code`; without a chosen game, `hint()` says how to choose
    one. Only `commands` are looked at."""

    def __init__(self, code: str, commands: Collection[str], hint: Callable[[], str]) -> None:
        self.code, self.commands, self.hint = code, commands, hint

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if not isinstance(event, Message) or event.from_user is None:
            return await handler(event, data)
        if event.chat.type != "private" or command_of(event) not in self.commands:
            return await handler(event, data)
        game = await selected_private_game(event.from_user.id)
        if game is None:
            await event.reply(self.hint())
            return None
        if game.system == self.code:
            data["game"] = game
        return await handler(event, data)
