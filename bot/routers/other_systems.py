"""A command of some rule system in a chat whose game does not play it — or that has no game:
the systems' routers do not see it (bot/systems/filters.py), so it is answered here, last."""

from __future__ import annotations

from aiogram import Router
from aiogram.enums import ChatType
from aiogram.filters import Filter
from aiogram.types import Message

from bot.filters import command_of
from bot.render.errors import service_error_text
from bot.systems import registry
from engine.services.errors import NoGame, WrongSystem
from engine.services.types import GameInfo


def make_router() -> Router:
    router = Router(name="other_systems")
    router.message.register(on_other_system, _IsSystemCommand())
    return router


class _IsSystemCommand(Filter):
    async def __call__(self, message: Message) -> bool:
        if message.chat.type == ChatType.PRIVATE:
            return False
        return command_of(message) in registry.system_commands()


async def on_other_system(message: Message, game: GameInfo | None = None) -> None:
    if game is None:
        await message.reply(service_error_text(NoGame()))
        return
    await message.reply(service_error_text(WrongSystem(system=game.system)))
