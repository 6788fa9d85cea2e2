"""Which updates a rule system's chat routers see: the messages of chats whose game plays that
system. The game comes from `GameMiddleware` (data["game"]), loaded once per command."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any

from aiogram import BaseMiddleware
from aiogram.filters import Filter
from aiogram.types import Message, TelegramObject

from bot.filters import command_of
from bot.parsing import topic_of
from bot.systems import registry
from engine.services import find_game
from engine.services.types import GameInfo

# The game GameMiddleware loaded for the message being handled: the system's handlers take it
# from here (`game_of`) instead of reading it a second time.
_loaded: ContextVar[tuple[int, GameInfo | None] | None] = ContextVar("kosti_game", default=None)


class GameMiddleware(BaseMiddleware):
    """An outer message middleware: for a group command of some installed system, the chat's
    game (or None) in data["game"] — what `PlaysSystem` and the fallback read."""

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if (
            not isinstance(event, Message)
            or event.chat.type == "private"
            or command_of(event) not in registry.system_commands()
        ):
            return await handler(event, data)
        game = data["game"] = await find_game(event.chat.id, topic_of(event))
        token = _loaded.set((id(event), game))
        try:
            return await handler(event, data)
        finally:
            _loaded.reset(token)


async def game_of(message: Message) -> GameInfo | None:
    """The chat's (topic's) active game: as the middleware loaded it for this message, else
    read now."""
    loaded = _loaded.get()
    if loaded is not None and loaded[0] == id(message):
        return loaded[1]
    return await find_game(message.chat.id, topic_of(message))


class PlaysSystem(Filter):
    """True for a message of a chat whose game plays `code`."""

    def __init__(self, code: str) -> None:
        self.code = code

    async def __call__(self, message: Message, game: GameInfo | None = None) -> bool:
        return game is not None and game.system == self.code
