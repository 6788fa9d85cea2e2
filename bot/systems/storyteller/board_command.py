"""/board in a Storyteller game: the live board of the fight posted again at the bottom of
the chat, the old copy retired and the new one pinned where the bot may pin
(bot/board_pin.py)."""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.filters import Command
from aiogram.types import Message
from aiogram.utils.i18n import gettext as _

from bot.board_pin import tell_not_pinned
from bot.chat_rights import ChatRights
from bot.filters import IN_GROUPS
from bot.middlewares.flood import step_and_its_chat
from bot.systems.filters import game_of
from bot.systems.storyteller.board import show_board
from engine.services.storyteller import current_fight


def make_router() -> Router:
    router = Router(name="storyteller-board")
    router.message.filter(IN_GROUPS)
    router.message.register(on_board, Command("board"))
    return router


async def on_board(message: Message, bot: Bot, chat_rights: ChatRights) -> None:
    game = await game_of(message)
    view = await current_fight(game.id) if game is not None else None
    if game is None or view is None or view.closed:
        await message.reply(_("No fight is running here: the GM starts one with /fight."))
        return
    not_pinned = tell_not_pinned(bot, game, chat_rights)
    async with step_and_its_chat(bot):  # the board stored with its post, one transaction
        await show_board(bot, game, new=True, not_pinned=not_pinned)
