"""The one initiative message per fight: edited in place, sent anew only when it is gone;
and a step told in the chat (its events, a proposal's notice and the GM's private copy)."""

from __future__ import annotations

import logging

from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from aiogram.types import InlineKeyboardMarkup, Message
from aiogram.utils.i18n import gettext as _

from bot.miniapp import board_button
from bot.render.keyboards import with_button_row
from bot.systems.storyteller import render
from engine.services import GameInfo, set_board_message
from engine.services.storyteller import FightView, current_fight
from engine.services.storyteller.fights import KIND
from engine.storyteller import events as ev
from engine.storyteller.fight import Fight

log = logging.getLogger(__name__)
SCREEN = "initiative"


async def post(
    bot: Bot,
    game: GameInfo,
    text: str,
    *,
    reply_to: Message | None = None,
    markup: InlineKeyboardMarkup | None = None,
) -> None:
    if reply_to is not None:
        await reply_to.reply(text, reply_markup=markup)
    else:
        await bot.send_message(
            game.chat_id, text, message_thread_id=game.topic_id, reply_markup=markup
        )


async def show_board(bot: Bot, game: GameInfo, *, new: bool = False) -> None:
    view = await current_fight(game.id)
    if view is not None:
        await render_board(bot, game, view, new=new)


async def render_board(bot: Bot, game: GameInfo, view: FightView, *, new: bool = False) -> None:
    text = render.board_text(view.state, closed=view.closed)
    markup = None
    if not view.closed:
        app = await board_button(bot, game.id, SCREEN)
        markup = with_button_row(render.board_keyboard(game.id, view.seq), app)
    message_id = None if new else view.board_message_id
    if message_id is not None:
        try:
            await bot.edit_message_text(
                text, chat_id=game.chat_id, message_id=message_id, reply_markup=markup
            )
            return
        except TelegramBadRequest as error:
            if "not modified" in error.message:
                return
            log.info("board %s of game %s not editable: %s", message_id, game.id, error)
    sent = await bot.send_message(
        game.chat_id, text, message_thread_id=game.topic_id, reply_markup=markup
    )
    if not view.closed:
        await set_board_message(game.id, KIND, sent.message_id)


async def send_review(bot: Bot, game: GameInfo, fight: Fight, seq: int) -> bool:
    """The proposal to the GM in private; False when the GM has not opened a chat with the
    bot (Telegram refuses the message)."""
    if game.gm_id is None:
        return False
    try:
        await bot.send_message(
            game.gm_id,
            render.proposal_text(fight, game.name),
            reply_markup=render.review_keyboard(fight, game.id, seq),
        )
    except (TelegramForbiddenError, TelegramBadRequest):
        return False
    return True


async def tell(
    bot: Bot,
    game: GameInfo,
    events: tuple[ev.Event, ...],
    view: FightView,
    *,
    before: Fight | None = None,
    reply_to: Message | None = None,
) -> None:
    """A stored step in the chat: a proposal's notice (and the GM's private copy), or the
    events for the table; then the board."""
    fight = view.state
    if events and isinstance(events[0], ev.AttackProposed) and fight.proposal is not None:
        text = render.waiting_text(fight)
        if not await send_review(bot, game, fight, view.seq):
            text += "\n" + _(
                "The GM has no private chat with me: open it with /start, or decide here "
                "with /publish or /drop."
            )
        if before is None or before.proposal is None:  # an adjustment says nothing new
            await post(bot, game, text, reply_to=reply_to)
    else:
        lines = render.events_lines(events, fight, render.TABLE, *([before] if before else []))
        if lines:
            await post(bot, game, "\n".join(lines), reply_to=reply_to)
    await render_board(bot, game, view)
