"""The one message per scene that the chat keeps up to date (its board): edited in place,
posted anew only when it is gone (deleted, or too old to edit) — found out now, or when the
group's queue gets to the edit after its handler went on (bot/middlewares/flood.py)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError
from aiogram.types import InlineKeyboardMarkup, Message

from bot.board_pin import NotPinned, pin_board, retire
from bot.middlewares.flood import if_refused
from engine.services import GameInfo, set_board_message
from engine.services.scenes import SceneView

log = logging.getLogger(__name__)


async def post_in_game(
    bot: Bot,
    game: GameInfo,
    text: str,
    *,
    reply_to: Message | None = None,
    markup: InlineKeyboardMarkup | None = None,
) -> Message:
    """A message in the game's chat (its topic), as a reply to the command when there is one."""
    if reply_to is not None:
        return await reply_to.reply(text, reply_markup=markup)
    return await bot.send_message(
        game.chat_id, text, message_thread_id=game.topic_id, reply_markup=markup
    )


async def edit_or_send(
    bot: Bot,
    game: GameInfo,
    message_id: int | None,
    text: str,
    markup: InlineKeyboardMarkup | None,
    posted: Callable[[int], Awaitable[None]],
) -> None:
    """Edit the message; if it is gone (now, or when the queue gets to the edit), send a new
    one and hand its id to `posted` (`board_keeper`)."""

    async def post_anew() -> None:
        sent = await post_in_game(bot, game, text, markup=markup)
        await posted(sent.message_id)

    async def gone(error: TelegramAPIError) -> None:
        if "not modified" in error.message:
            return
        log.info("board %s of game %s not editable: %s", message_id, game.id, error)
        await post_anew()

    if message_id is None:
        await post_anew()
        return
    async with if_refused(gone):
        await bot.edit_message_text(
            text, chat_id=game.chat_id, message_id=message_id, reply_markup=markup
        )


def board_keeper(
    bot: Bot,
    game: GameInfo,
    kind: str,
    view: SceneView[Any],
    *,
    pin: bool = True,
    not_pinned: NotPinned | None = None,
) -> Callable[[int], Awaitable[None]]:
    """What follows a board posted anew: it is remembered as the open scene's board, pinned
    (`pin`; bot/board_pin.py, `not_pinned` told when Telegram refuses) and the copy it
    replaces retired. A closed scene's last board is not remembered."""

    async def posted(message_id: int) -> None:
        if view.closed:
            return
        await set_board_message(game.id, kind, message_id)
        old = view.board_message_id
        if pin:
            await pin_board(bot, game, message_id, old=old, not_pinned=not_pinned)
        elif old is not None and old != message_id:
            await retire(bot, game, old)

    return posted
