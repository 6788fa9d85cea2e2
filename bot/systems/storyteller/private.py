"""The GM's preparation in the private chat with the bot (issue 25): /npc, /char, /chars and
/heal for the game chosen with /games, so an NPC's pools, health and wounds never reach the
group. In the group the same commands answer with what players may know (a name) and send
the rest to the GM privately (gm_only.py)."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command
from aiogram.utils.i18n import gettext as _

from bot.filters import IN_PRIVATE
from bot.systems.private import SelectedGame
from bot.systems.storyteller import characters, options
from bot.systems.storyteller.fight import refusals

CODE = "storyteller"
COMMANDS = ("npc", "char", "chars", "heal")


def choose_game() -> str:
    return _(
        "Which game is it for? Choose it with /games, then send the command here: what you "
        "enter in this chat is never shown in the group."
    )


def make_router() -> Router:
    router = Router(name="storyteller_private")
    router.message.outer_middleware(SelectedGame(CODE, COMMANDS, choose_game))
    router.message.filter(IN_PRIVATE)
    router.message.middleware(refusals())
    router.message.register(characters.on_char, Command("char"))
    router.message.register(characters.on_npc, Command("npc"))
    router.message.register(characters.on_chars, Command("chars"))
    router.message.register(options.on_heal, Command("heal"))
    return router
