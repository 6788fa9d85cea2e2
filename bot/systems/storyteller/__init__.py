"""The Storyteller d10-pool system (seed 002) in the chat: fights with the initiative board
and the GM's private review of each attack, the character library (/char, /npc, /chars);
the pools and presets are the shared dice router's `/p`. Registered in
bot/systems/installed.py."""

from __future__ import annotations

from aiogram import Router

from bot.systems.registry import ChatSystem
from bot.systems.storyteller import (
    board_command,
    characters,
    dice,
    fight,
    help,
    options,
    picker,
    private,
    sheet_rolls,
    words,
)
from bot.systems.storyteller.demo import DEMO
from bot.systems.storyteller.sync import board_sync

COMMANDS = frozenset(
    (
        "actions",
        "add",
        "ambush",
        "attack",
        "board",
        "char",
        "chars",
        "delay",
        "done",
        "drop",
        "fight",
        "fulldef",
        "heal",
        "init",
        "npc",
        "options",
        "publish",
        "undo",
        "yield",
    )
)


def routers() -> list[Router]:
    return [
        fight.make_router(),
        board_command.make_router(),
        characters.make_router(),
        options.make_router(),
        private.make_router(),
    ]


CHAT = ChatSystem(
    code="storyteller",
    aliases=words.SYSTEM_WORDS,
    dice=dice.TEXTS,
    title=help.title,
    routers=routers,
    commands=COMMANDS,
    help=help.help_text,
    menu=help.menu,
    rolls_help=help.rolls_help,
    rolls_menu=help.rolls_menu,
    app_screens=words.APP_WORDS,
    screen_names=help.screen_names,
    board_sync=board_sync,
    demo=DEMO,
    background=picker.defenses_forever,
    roll_args=sheet_rolls.roll_args,
)
