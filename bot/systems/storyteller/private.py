"""The GM's preparation in the private chat with the bot (issue 25): /npc, /char, /chars and
/heal for the game chosen with /games, so an NPC's pools, health and wounds never reach the
group. In the group the same commands answer with what players may know (a name) and send
the rest to the GM privately (gm_only.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware, Router
from aiogram.filters import Command
from aiogram.types import Message, TelegramObject
from aiogram.utils.i18n import gettext as _

from bot.filters import IN_PRIVATE, command_of
from bot.systems.storyteller import characters, options
from bot.systems.storyteller.fight import refusals
from engine.services import selected_private_game

CODE = "storyteller"
COMMANDS = ("npc", "char", "chars", "heal")


def choose_game() -> str:
    return _(
        "Which game is it for? Choose it with /games, then send the command here: what you "
        "enter in this chat is never shown in the group."
    )


class SelectedGame(BaseMiddleware):
    """In the private chat, the game the user chose with /games, when it plays Storyteller
    (data["game"], what the system's filter reads); without a chosen game, how to choose."""

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if not isinstance(event, Message) or event.from_user is None:
            return await handler(event, data)
        if event.chat.type != "private" or command_of(event) not in COMMANDS:
            return await handler(event, data)
        game = await selected_private_game(event.from_user.id)
        if game is None:
            await event.reply(choose_game())
            return None
        if game.system == CODE:
            data["game"] = game
        return await handler(event, data)


def make_router() -> Router:
    router = Router(name="storyteller_private")
    router.message.outer_middleware(SelectedGame())
    router.message.filter(IN_PRIVATE)
    router.message.middleware(refusals())
    router.message.register(characters.on_char, Command("char"))
    router.message.register(characters.on_npc, Command("npc"))
    router.message.register(characters.on_chars, Command("chars"))
    router.message.register(options.on_heal, Command("heal"))
    return router
