"""/start (welcome, deep links `hr` and `game_<id>`, pending hidden rolls) and /help."""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import CallbackQuery, Message
from aiogram.utils.i18n import I18n

from bot.callbacks import HelpCallback
from bot.filters import IN_PRIVATE
from bot.hidden_rolls import deliver_pending
from bot.middlewares.flood import step_and_its_chat
from bot.render import games as game_texts
from bot.render import help as texts
from bot.render.keyboards import help_keyboard
from engine.services import select_private_game, take_pending_deliveries

GAME_PAYLOAD_PREFIX = "game_"


def make_router() -> Router:
    router = Router(name="start")
    router.message.register(on_start_private, CommandStart(), IN_PRIVATE)
    router.message.register(on_start_group, CommandStart())
    router.message.register(on_help, Command("help"))
    router.callback_query.register(on_help_section, HelpCallback.filter())
    return router


async def on_start_private(message: Message, command: CommandObject, bot: Bot, i18n: I18n) -> None:
    user = message.from_user
    assert user is not None
    # (The user middleware has already marked the user as reachable.)
    payload = (command.args or "").strip()
    await message.answer(texts.welcome(user))
    if payload.startswith(GAME_PAYLOAD_PREFIX) and payload[len(GAME_PAYLOAD_PREFIX) :].isdigit():
        game_id = int(payload[len(GAME_PAYLOAD_PREFIX) :])
        async with step_and_its_chat(bot):  # the choice and its answer, one transaction
            game = await select_private_game(user.id, game_id)
            await message.answer(game_texts.game_selected(game))
    # Whatever the payload ("hr" from a group's link, or none): nothing that waited is lost —
    # the rolls taken and their copies sent are one transaction.
    async with step_and_its_chat(bot):
        await deliver_pending(bot, i18n, user.id, await take_pending_deliveries(user.id))


async def on_start_group(message: Message) -> None:
    await message.reply(texts.group_start())


async def on_help(message: Message) -> None:
    labels = {key: label for key, (label, _text) in texts.help_sections().items()}
    await message.reply(texts.help_menu(), reply_markup=help_keyboard(labels))


async def on_help_section(query: CallbackQuery, callback_data: HelpCallback) -> None:
    sections = texts.help_sections()
    labels = {key: label for key, (label, _text) in sections.items()}
    section = sections.get(callback_data.section)
    if section is not None and isinstance(query.message, Message):
        markup = help_keyboard(labels, callback_data.section)
        await query.message.edit_text(section[1], reply_markup=markup)
    await query.answer()
