"""Savage Worlds (SWADE) in the chat: fights with the initiative board, chases with the
chase row, the character library (bot/systems/savage/combat, chase, render). Registered in
bot/systems/installed.py."""

from __future__ import annotations

from aiogram import Router

from bot.systems.demo import Demo, scripted
from bot.systems.registry import ChatSystem
from bot.systems.savage.boards import board_sync
from bot.systems.savage.chase import router as chase
from bot.systems.savage.combat import private
from bot.systems.savage.combat import router as combat
from bot.systems.savage.demo import DEMO, demo_hint
from bot.systems.savage.render import dice, help
from engine.services.savage import CODE

COMMANDS = frozenset(
    (
        "act",
        "actions",
        "add",
        "aim",
        "attack",
        "back",
        "benny",
        "bump",
        "card",
        "board",
        "char",
        "chars",
        "chase",
        "check",
        "cond",
        "deal",
        "defend",
        "escape",
        "fatigue",
        "fight",
        "flee",
        "hit",
        "hold",
        "interrupt",
        "move",
        "quiet",
        "next",
        "remove",
        "reroll",
        "scene",
        "shaken",
        "soak",
        "status",
        "support",
        "take",
        "test",
        "undo",
        "unshake",
        "переброс",  # an emulator's alias of /reroll (Telegram clients send it as text)
    )
)


def routers() -> list[Router]:
    return [combat.make_router(), chase.make_router(), private.make_router()]


CHAT = ChatSystem(
    code=CODE,
    aliases=("дикий", "swade", "дикие", "дм", "савага", "sw", "sawo"),
    newgame_example="дикий Пустые земли",
    dice=dice.TEXTS,
    title=help.title,
    routers=routers,
    commands=COMMANDS,
    help=help.section,
    menu=help.menu,
    rolls_help=help.rolls_help,
    rolls_menu=help.rolls_menu,
    app_screens={
        "бой": "initiative",
        "битва": "initiative",
        "инициатива": "initiative",
        "fight": "initiative",
        "initiative": "initiative",
        "погоня": "chase",
        "chase": "chase",
    },
    screen_names=help.screen_names,
    board_sync=board_sync,
    demo=Demo(scripted(DEMO), demo_hint),
)
