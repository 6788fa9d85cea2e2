"""The chase's router: every chase handler, in group chats only."""

from __future__ import annotations

from aiogram import Router

from bot.routers.chase import commands
from bot.routers.combat.router import GROUPS
from bot.routers.combat.scene import guard


def make_router() -> Router:
    router = Router(name="chase")
    router.message.filter(GROUPS)
    guard(router.message)
    guard(router.callback_query)
    commands.register(router)
    return router
