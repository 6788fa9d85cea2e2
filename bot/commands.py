"""The command menu (setMyCommands): Russian for everyone, English for English clients."""

from __future__ import annotations

from aiogram import Bot
from aiogram.types import BotCommand

from bot.i18n import translator
from bot.render.help import command_descriptions


def _commands(locale: str) -> list[BotCommand]:
    with translator(locale):
        return [BotCommand(command=c, description=d) for c, d in command_descriptions()]


async def set_commands(bot: Bot) -> None:
    """Call once at start-up, after `setup_i18n()`."""
    await bot.set_my_commands(_commands("ru"))
    await bot.set_my_commands(_commands("ru"), language_code="ru")
    await bot.set_my_commands(_commands("en"), language_code="en")
