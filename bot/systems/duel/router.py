"""The duel's chat handlers, one router per screen under one: the thread (bot/systems/duel/
thread.py: fighters, the duel, export and undo), the submission form in the DM (form.py) and
the GM's review there (review.py), buttons only. The game a message belongs to and the
refusals in the user's words are set here once for the three (common.py)."""

from __future__ import annotations

from aiogram import Router

from bot.systems.duel import form, review, thread
from bot.systems.duel.common import DuelGame, refusals


def make_router() -> Router:
    router = Router(name="duel")
    router.message.outer_middleware(DuelGame())  # before the system's filter reads the game
    router.message.middleware(refusals())
    router.callback_query.middleware(refusals())
    router.include_routers(thread.make_router(), form.make_router(), review.make_router())
    return router
