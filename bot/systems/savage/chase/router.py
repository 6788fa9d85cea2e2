"""The chase's router: every chase handler, in group chats only."""

from __future__ import annotations

from aiogram import Router

from bot.systems.savage.chase import commands
from bot.systems.savage.combat.router import GROUPS
from bot.systems.savage.combat.scene import guard


def make_router() -> Router:
    router = Router(name="chase")
    router.message.filter(GROUPS)
    guard(router.message)
    guard(router.callback_query)
    commands.register(router)
    return router
