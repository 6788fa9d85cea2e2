"""The last router: a message that looks like a command and that no router took.

A likely command is suggested (bot/suggest.py). In a group, where other bots' commands
pass by too, the bot answers only when it has a guess or the command names it
(`/nxt@kosti_bot`); in the private chat it always answers."""

from __future__ import annotations

from collections.abc import Callable

from aiogram import Bot, Router
from aiogram.enums import ChatType
from aiogram.types import Message

from bot.render import hints as texts
from bot.suggest import guess_command

Commands = Callable[[], frozenset[str]]


def make_router(commands: Commands) -> Router:
    router = Router(name="fallback")

    async def on_unknown(message: Message, bot: Bot) -> None:
        await answer_unknown(message, bot, commands())

    router.message.register(on_unknown, _looks_like_command)
    return router


async def _looks_like_command(message: Message) -> bool:
    """An async filter (a plain one would run in a thread: tests/bot/test_filters.py)."""
    return (message.text or "").startswith("/")


async def answer_unknown(message: Message, bot: Bot, known: frozenset[str]) -> None:
    head, _space, rest = (message.text or "").partition(" ")
    word, _at, addressee = head[1:].partition("@")
    if addressee:
        me = await bot.me()
        if addressee.lower() != (me.username or "").lower():
            return  # another bot's command
    if not word:
        return
    guess = guess_command(word, known)
    private = message.chat.type == ChatType.PRIVATE
    if guess is None:
        if private or addressee:
            await message.reply(texts.unknown_command())
        return
    command, glued = guess
    args = " ".join(part for part in (glued, rest.strip()) if part)
    suggestion = f"/{command} {args}".rstrip()
    if word.isascii():
        await message.reply(texts.did_you_mean(suggestion))
    else:
        await message.reply(texts.latin_only(suggestion))
