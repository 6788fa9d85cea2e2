"""/char and /chars in the private chat with the bot, for the game chosen with /games (as
/hr there): the GM enters NPC sheets where players never see them."""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from bot.filters import IN_PRIVATE
from bot.systems.private import SelectedGame
from bot.systems.savage.combat import setup
from bot.systems.savage.combat.scene import Call, guard
from bot.systems.savage.render import combat_setup as texts
from engine.services import GameInfo
from engine.services.savage import CODE

COMMANDS = ("char", "chars")


def make_router() -> Router:
    router = Router(name="savage_private")
    router.message.outer_middleware(SelectedGame(CODE, COMMANDS, texts.choose_game_for_sheets))
    router.message.filter(IN_PRIVATE)
    guard(router.message)
    router.message.register(on_char, Command("char"))
    router.message.register(on_chars, Command("chars"))
    return router


async def on_char(message: Message, command: CommandObject, bot: Bot, game: GameInfo) -> None:
    await setup.char_command(bot, Call(message, game, None, command.args))


async def on_chars(message: Message, command: CommandObject, game: GameInfo) -> None:
    await setup.chars_command(Call(message, game, None, command.args))
