"""Which updates a rule system's chat routers see: the messages of chats whose game plays that
system. The game comes from `GameMiddleware` (data["game"]), loaded once per command."""

from __future__ import annotations

from typing import Any

from aiogram.filters import Filter
from aiogram.types import Message

from bot.parsing import topic_of
from bot.systems import registry
from engine.services import find_game
from engine.services.types import GameInfo


def command_of(message: Message) -> str | None:
    """`/attack@bot Гриммджо` -> "attack"; None if the message is no command."""
    text = message.text or message.caption or ""
    if not text.startswith("/"):
        return None
    return text[1:].split(maxsplit=1)[0].split("@", 1)[0].lower() if len(text) > 1 else None


class GameMiddleware:
    """An outer message middleware: for a group command of some installed system, the chat's
    game (or None) in data["game"] — what `PlaysSystem` and the fallback read."""

    async def __call__(self, handler: Any, event: Message, data: dict[str, Any]) -> Any:
        if event.chat.type != "private" and command_of(event) in registry.system_commands():
            data["game"] = await find_game(event.chat.id, topic_of(event))
        return await handler(event, data)


class PlaysSystem(Filter):
    """True for a message of a chat whose game plays `code`."""

    def __init__(self, code: str) -> None:
        self.code = code

    async def __call__(self, message: Message, game: GameInfo | None = None) -> bool:
        return game is not None and game.system == self.code
