"""/lang ru|en: the user's language, stored; the answer already comes in the new one."""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message
from aiogram.utils.i18n import I18n

from bot.i18n import normalize_locale, translator
from bot.middlewares.flood import step_and_its_chat
from bot.render import lang as texts
from engine.services import set_language


def make_router() -> Router:
    router = Router(name="lang")
    router.message.register(on_lang, Command("lang", "language"))
    return router


async def on_lang(message: Message, command: CommandObject, i18n: I18n, bot: Bot) -> None:
    assert message.from_user is not None
    locale = normalize_locale(command.args)
    if locale is None:
        await message.reply(texts.language_usage(i18n.current_locale))
        return
    async with step_and_its_chat(bot):  # the language and its answer, one transaction
        await set_language(message.from_user.id, locale)
        with translator(locale, i18n):
            await message.reply(texts.language_set())
