"""Filters as coroutines: aiogram runs a plain (sync) filter such as
``F.chat.type == "private"`` in a worker thread (`asyncio.to_thread`), a thread hop per
update and router; these answer on the event loop.

`index_commands` gives each router whose message handlers all answer commands one root
filter over their command words: a message passes through the routers that cannot take it
with one set look-up each, instead of every handler's `Command` parsing it again (a `/r` in
a game went past about thirty of them, one per command of its system's routers)."""

from __future__ import annotations

from collections.abc import Iterable

from aiogram import Router
from aiogram.enums import ChatType
from aiogram.filters import Command, Filter
from aiogram.types import Message


class ChatTypeIn(Filter):
    def __init__(self, *types: ChatType) -> None:
        self.types = frozenset(types)

    async def __call__(self, message: Message) -> bool:
        return message.chat.type in self.types


IN_GROUPS = ChatTypeIn(ChatType.GROUP, ChatType.SUPERGROUP)
IN_PRIVATE = ChatTypeIn(ChatType.PRIVATE)


def command_of(message: Message) -> str | None:
    """`/attack@bot Grimmjow` -> "attack"; None if the message is no command."""
    text = message.text or message.caption or ""
    if not text.startswith("/"):
        return None
    return text[1:].split(maxsplit=1)[0].split("@", 1)[0].lower() if len(text) > 1 else None


class CommandAmong(Filter):
    """True for a command in `commands` (lower case; the mention is the handlers' to check)."""

    def __init__(self, commands: Iterable[str]) -> None:
        self.commands = frozenset(commands)

    async def __call__(self, message: Message) -> bool:
        return command_of(message) in self.commands


def router_commands(router: Router) -> frozenset[str] | None:
    """The command words of the router's message handlers; None if some handler takes more
    than plain "/" commands (text, a pattern, another prefix)."""
    words: set[str] = set()
    for handler in router.message.handlers:
        commands = [f.callback for f in handler.filters or () if isinstance(f.callback, Command)]
        if not commands:
            return None
        for command in commands:
            if command.prefix != "/" or not all(isinstance(c, str) for c in command.commands):
                return None
            words.update(str(c).lower() for c in command.commands)
    return frozenset(words)


def index_commands(routers: Iterable[Router]) -> None:
    """A `CommandAmong` root filter on each router that answers only commands."""
    for router in routers:
        words = router_commands(router)
        if words is not None and router.message.handlers:
            router.message.filter(CommandAmong(words))
