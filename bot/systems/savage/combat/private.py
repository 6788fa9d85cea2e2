"""/char and /chars in the private chat with the bot, for the game chosen with /games (as
/hr there): the GM enters NPC sheets where players never see them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware, Bot, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message, TelegramObject

from bot.filters import IN_PRIVATE, command_of
from bot.systems.savage.combat import setup
from bot.systems.savage.combat.scene import Call, guard
from bot.systems.savage.render import combat_setup as texts
from engine.services import selected_private_game
from engine.services.savage import CODE

COMMANDS = ("char", "chars")


class SelectedGame(BaseMiddleware):
    """Before the system's filter reads data["game"]: in the private chat, the game the user
    chose, if it plays Savage Worlds; without a chosen game, a hint how to choose one."""

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
            await event.reply(texts.choose_game_for_sheets())
            return None
        if game.system == CODE:
            data["game"] = game
        return await handler(event, data)


def make_router() -> Router:
    router = Router(name="savage_private")
    router.message.outer_middleware(SelectedGame())
    router.message.filter(IN_PRIVATE)
    guard(router.message)
    router.message.register(on_char, Command("char"))
    router.message.register(on_chars, Command("chars"))
    return router


async def on_char(message: Message, command: CommandObject, bot: Bot, game: Any) -> None:
    await setup.char_command(bot, Call(message, game, None, command.args))


async def on_chars(message: Message, command: CommandObject, game: Any) -> None:
    await setup.chars_command(Call(message, game, None, command.args))
