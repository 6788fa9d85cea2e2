"""SWADE chases in a group chat: the chase row message and the GM's and players'
commands; the chase follows the fight's turns (bot.routers.chase.sync)."""

from __future__ import annotations

from aiogram import Router

from bot.routers.chase import commands
from bot.routers.combat import GROUPS
from bot.routers.combat.scene import guard


def make_router() -> Router:
    router = Router(name="chase")
    router.message.filter(GROUPS)
    guard(router.message)
    guard(router.callback_query)
    commands.register(router)
    return router
