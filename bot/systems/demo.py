"""A rule system's demo table for the playground: a script that plays what a newcomer would
do in the page (write in the demo's chat, open the private chat with the bot, press a button
there), so everything goes through the real dispatcher and nothing is written to the
database directly. The playground (bot/playground/demo.py) gives the script its table."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

GM = 0  # `who` is a position in the playground's cast: 0 the GM, then the players


class DemoTable(Protocol):
    chat_id: int  # the demo's chat
    thread_id: int | None  # its forum topic, or None
    cast: tuple[int, ...]  # the users' Telegram ids, by position

    async def say(self, who: int, text: str) -> None:
        """`who` writes `text` in the demo's chat (in its topic)."""

    async def start(self, who: int) -> None:
        """`who` opens the private chat with the bot (Start), unless it is open already."""

    async def press(self, who: int, label: str) -> None:
        """`who` presses, in the private chat with the bot, the first button whose text
        holds `label` on the newest message that has one (LookupError: none has)."""

    async def press_under(self, who: int, heading: str, label: str) -> None:
        """`who` presses, in the private chat, the button `label` in the row below a row of
        one button starting with `heading` (a form's section: its name, then its choices)."""


Script = Callable[[DemoTable], Awaitable[None]]
Text = Callable[[], str]


@dataclass(frozen=True)
class Demo:
    play: Script
    hint: Text  # one line about it, beside its button
    # its chat: None — the playground's main group; a title — a group of its own, or (forum)
    # a topic of that name in the forum group
    chat: str | None = None
    forum: bool = False


def scripted(lines: tuple[tuple[int, str], ...]) -> Script:
    """A script of (who, text) lines: the text is written in the demo's chat, "/start" opens
    that user's private chat with the bot."""

    async def play(table: DemoTable) -> None:
        for who, text in lines:
            if text == "/start":
                await table.start(who)
            else:
                await table.say(who, text)

    return play
