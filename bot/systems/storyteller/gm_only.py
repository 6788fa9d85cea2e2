"""What only the GM may read, asked for in the group: it goes to the GM's private chat with
the bot, and the group reads names only (issue 25: the GM's preparation stays private)."""

from __future__ import annotations

import logging

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError, TelegramBadRequest, TelegramForbiddenError
from aiogram.types import Message
from aiogram.utils.i18n import gettext as _

from bot.middlewares.flood import if_refused
from engine.services.types import GameInfo

log = logging.getLogger(__name__)


async def to_gm(bot: Bot, message: Message, game: GameInfo, private: str, public: str) -> None:
    """What only the GM may read, asked for in the group: ``private`` goes to the GM's chat
    with the bot and the group reads ``public`` (names only); a GM who never opened that
    chat is told how to (the group still gets no number).

    Nothing here waits for Telegram (it may run in a step's transaction): a refused copy
    turns the group's answer into the sentence on how to open the chat once Telegram says
    so (`if_refused`)."""
    told = public + "\n" + _("The rest is in your private chat with the bot.")
    open_it = (
        public
        + "\n"
        + _(
            "Open a private chat with the bot and choose this game with /games: NPC sheets "
            "and wounds are shown there, never in the group."
        )
    )
    if game.gm_id is None:
        await message.reply(open_it)
        return
    answer = await message.reply(told)

    async def refused(error: TelegramAPIError) -> None:
        if not isinstance(error, TelegramForbiddenError | TelegramBadRequest):
            log.warning("game %s: the GM's copy was refused: %s", game.id, error)
            return
        await bot.edit_message_text(open_it, chat_id=answer.chat.id, message_id=answer.message_id)

    async with if_refused(refused):
        await bot.send_message(game.gm_id, private)
