"""The live board stays findable: a board message posted anew (a fight started, `/board`) is
pinned where the bot may pin, and the copy it replaces is retired — unpinned and edited to
one line pointing below, its buttons gone — so only one copy ever has live buttons.

Where the bot may not pin (a plain member of the group, as bots join), Telegram refuses with
400. When a chat command posted the board (/fight, /board) the GM hears it once per chat and
process (`ChatRights.first_hint`), in private when they opened a chat with the bot, else in
the group; a board posted by a Mini App step or posted again because the old one was gone is
left unpinned with a log line (no chat message outside a command's answer). A group's pin
does not make its handler wait (bot/middlewares/flood.py): a refusal is learnt when the
group's queue gets to it, and told then."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError, TelegramBadRequest, TelegramForbiddenError
from aiogram.utils.i18n import gettext as _

from bot.chat_rights import ChatRights
from bot.middlewares.flood import if_refused
from engine.services import GameInfo

log = logging.getLogger(__name__)


NotPinned = Callable[[], Awaitable[None]]


async def pin_board(
    bot: Bot,
    game: GameInfo,
    message_id: int,
    *,
    old: int | None = None,
    not_pinned: NotPinned | None = None,
) -> None:
    """Pin the board `message_id` (silently) and retire the copy `old`; `not_pinned` when
    Telegram refuses (now, or once the group's queue gets to the pin)."""
    if old is not None and old != message_id:
        await retire(bot, game, old)

    async def refused(error: TelegramAPIError) -> None:
        log.info("game %s: board %s not pinned (%s)", game.id, message_id, error.message)
        if not_pinned is not None:
            await not_pinned()

    async with if_refused(refused):
        await bot.pin_chat_message(game.chat_id, message_id, disable_notification=True)


async def unpin(bot: Bot, game: GameInfo, message_id: int) -> None:
    async with if_refused(_never_mind):  # never pinned, or no right to: it stays as it is
        await bot.unpin_chat_message(game.chat_id, message_id=message_id)


async def retire(bot: Bot, game: GameInfo, message_id: int) -> None:
    """The old copy: unpinned, one line without buttons (a bot may always edit its own)."""
    await unpin(bot, game, message_id)

    async def not_retired(error: TelegramAPIError) -> None:  # deleted, or too old to edit
        log.info("game %s: old board %s not retired (%s)", game.id, message_id, error.message)

    async with if_refused(not_retired):
        await bot.edit_message_text(
            _("The live board is below ⬇️"), chat_id=game.chat_id, message_id=message_id
        )


async def _never_mind(error: TelegramAPIError) -> None:
    return None


def tell_not_pinned(bot: Bot, game: GameInfo, rights: ChatRights) -> NotPinned:
    """What a command that posts the board does when Telegram refuses its pin."""

    async def tell() -> None:
        await _tell_not_pinned(bot, game, rights)

    return tell


async def _tell_not_pinned(bot: Bot, game: GameInfo, rights: ChatRights) -> None:
    """Once per chat: the GM learns why the board is not pinned and how to find it."""
    if not rights.first_hint(game.chat_id, "pin"):
        return
    text = _(
        "I may not pin the fight's board in this chat. To have it pinned, make me an "
        "administrator with the right to pin messages; /board always brings it down."
    )
    if game.gm_id is not None:
        try:
            await bot.send_message(game.gm_id, text)
            return
        except (TelegramForbiddenError, TelegramBadRequest):
            pass  # the GM never opened a chat with the bot: the group hears it once
    await bot.send_message(game.chat_id, text, message_thread_id=game.topic_id)
