"""The fight's router: every combat handler, in group chats only."""

from __future__ import annotations

from aiogram import Router

from bot.filters import IN_GROUPS
from bot.systems.savage.combat import actions, setup, states, taps, turns, who
from bot.systems.savage.combat.scene import guard

GROUPS = IN_GROUPS


def make_router() -> Router:
    router = Router(name="combat")
    router.message.filter(GROUPS)
    guard(router.message)
    guard(router.callback_query)
    setup.register(router)
    turns.register(router)
    taps.register(router)
    actions.register(router)
    states.register(router)
    who.register(router)
    return router
