"""What a rule system brings to the chat. The shared modules read it here and never name a
system: the words for /newgame, the title, the routers (which see only the updates of games
of that system), the help section and command menu entries (its dice commands' too), the
/app screens, the service refusals' texts, and how a step made in the Mini App is told in
the chat."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiogram import Router

from bot.render.dice import DiceTexts, register_texts
from bot.systems.demo import Demo

if TYPE_CHECKING:
    from aiogram import Bot
    from aiogram.types import Message

    from engine.services.notify import Notification
    from engine.services.types import GameInfo

Text = Callable[[], str]
BoardSync = Callable[["Bot", "GameInfo", "Notification"], Awaitable[None]]
Background = Callable[["Bot"], Coroutine[Any, Any, None]]


@dataclass(frozen=True)
class RollHint:
    """The answer to a dice command that cannot be rolled as typed (HTML)."""

    text: str


# a dice command's text completed before it is rolled (a preset from the roller's sheet):
# (message, roll code, text) -> the text to roll, a hint to answer instead, or None (as typed)
RollArgs = Callable[["Message", str, str], Awaitable["str | RollHint | None"]]


@dataclass(frozen=True)
class ChatSystem:
    code: str  # as in the engine's registry (engine/services/systems.py)
    aliases: tuple[str, ...]  # words for /newgame, Russian first, lower case
    title: Text
    routers: Callable[[], list[Router]] = list  # fresh routers (each attaches once)
    commands: frozenset[str] = frozenset()  # its chat commands (refused in other games)
    help: Text | None = None  # its section of /help
    menu: Callable[[], list[tuple[str, str]]] = list  # its command-menu entries
    # its dice commands (they work in any chat): lines of /help's «Rolls», menu entries
    rolls_help: Text | None = None
    rolls_menu: Callable[[], list[tuple[str, str]]] = list
    dice: DiceTexts | None = None  # how its rolls' results and odds read (bot/render/dice.py)
    newgame_example: str = ""  # /newgame's example in the help: its word and a game's name
    app_screens: Mapping[str, str] = field(default_factory=dict)  # /app word -> screen
    screen_names: Callable[[], dict[str, str]] = dict  # screen -> «the initiative board»
    board_sync: BoardSync | None = None  # a Mini App step of one of its scenes, in the chat
    background: Background | None = None  # a task the bot runs while it is up (timers)
    demo: Demo | None = None  # the playground's demo table (bot/systems/demo.py)
    roll_args: RollArgs | None = None  # completes its dice commands' text (RollArgs)


_SYSTEMS: dict[str, ChatSystem] = {}


def register(system: ChatSystem) -> ChatSystem:
    if system.code in _SYSTEMS:
        raise ValueError(f"chat adapter {system.code!r} is registered already")
    if system.dice is not None:
        register_texts(system.code, system.dice)
    _SYSTEMS[system.code] = system
    return system


async def complete_roll(message: Message, kind: str, args: str) -> str | RollHint:
    """The dice command's text as a system completes it (the first that does), else as typed."""
    for system in _SYSTEMS.values():
        if system.roll_args is not None:
            done = await system.roll_args(message, kind, args)
            if done is not None:
                return done
    return args


def installed() -> tuple[ChatSystem, ...]:
    return tuple(_SYSTEMS.values())


def get(code: str) -> ChatSystem | None:
    return _SYSTEMS.get(code)


def by_alias(word: str) -> str | None:
    """The code of the system a /newgame word means (an alias -> its code), or None."""
    word = word.strip().lower()
    for system in _SYSTEMS.values():
        if word == system.code or word in system.aliases:
            return system.code
    return None


def system_commands() -> frozenset[str]:
    """Every command some installed system handles in its games' chats."""
    return frozenset().union(*(s.commands for s in _SYSTEMS.values()))
