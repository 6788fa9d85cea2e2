"""What only the GM may read, asked for in the group: it goes to the GM's private chat with
the bot, and the group reads names only (issue 25: the GM's preparation stays private)."""

from __future__ import annotations

from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from aiogram.types import Message
from aiogram.utils.i18n import gettext as _

from engine.services.types import GameInfo


async def to_gm(bot: Bot, message: Message, game: GameInfo, private: str, public: str) -> None:
    """What only the GM may read, asked for in the group: ``private`` goes to the GM's chat
    with the bot and the group reads ``public`` (names only); a GM who never opened that
    chat is told how to (the group still gets no number)."""
    sent = False
    if game.gm_id is not None:
        try:
            await bot.send_message(game.gm_id, private)
            sent = True
        except (TelegramForbiddenError, TelegramBadRequest):
            sent = False
    if sent:
        await message.reply(public + "\n" + _("The rest is in your private chat with the bot."))
        return
    await message.reply(
        public
        + "\n"
        + _(
            "Open a private chat with the bot and choose this game with /games: NPC sheets "
            "and wounds are shown there, never in the group."
        )
    )
