"""The one initiative message per encounter: edited in place, sent anew only when it is
gone (deleted, or too old to edit), its id kept by the service."""

from __future__ import annotations

import logging

from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from aiogram.types import InlineKeyboardMarkup, Message

from bot.board_pin import pin_board, unpin
from bot.miniapp import board_button
from bot.render.keyboards import with_button_row
from bot.systems.savage.render.combat import board_keyboard, board_text, mention
from bot.systems.savage.render.combat_events import gm_dice_copy
from bot.systems.savage.render.turn_menu import turn_rows
from engine import savage
from engine.services import GameInfo, get_user, set_board_message
from engine.services.savage import EncounterView, current_chase, current_encounter, quiet_mode

log = logging.getLogger(__name__)


async def post(
    bot: Bot,
    game: GameInfo,
    text: str,
    *,
    reply_to: Message | None = None,
    markup: InlineKeyboardMarkup | None = None,
) -> None:
    """A message in the game's chat (as a reply to the command when there is one)."""
    if reply_to is not None:
        await reply_to.reply(text, reply_markup=markup)
    else:
        await bot.send_message(
            game.chat_id, text, message_thread_id=game.topic_id, reply_markup=markup
        )


async def dice_to_gm(bot: Bot, game: GameInfo, text: str | None) -> None:
    """The full lines, with an NPC's dice that the group's message leaves out, in the GM's
    private chat (nothing when the GM never opened one with the bot)."""
    if not text or game.gm_id is None:
        return
    try:
        await bot.send_message(game.gm_id, gm_dice_copy(game.name, text))
    except (TelegramForbiddenError, TelegramBadRequest) as error:
        log.info("game %s: the GM's dice copy not sent (%s)", game.id, error.message)


async def edit_or_send(
    bot: Bot,
    game: GameInfo,
    message_id: int | None,
    text: str,
    markup: InlineKeyboardMarkup | None,
) -> int | None:
    """Edit the message; if it is gone, send a new one and return its id (None: edited)."""
    if message_id is not None:
        try:
            await bot.edit_message_text(
                text, chat_id=game.chat_id, message_id=message_id, reply_markup=markup
            )
            return None
        except TelegramBadRequest as error:
            if "not modified" in error.message:
                return None
            log.info("board %s of game %s not editable: %s", message_id, game.id, error)
    sent = await bot.send_message(
        game.chat_id, text, message_thread_id=game.topic_id, reply_markup=markup
    )
    return sent.message_id


async def show_board(bot: Bot, game: GameInfo, *, new: bool = False) -> bool | None:
    """Bring the board of the active encounter up to date (``new``: post it again below)."""
    view = await current_encounter(game.id)
    if view is None:
        return None
    return await render_board(bot, game, view, new=new)


async def render_board(
    bot: Bot, game: GameInfo, view: EncounterView, *, new: bool = False
) -> bool | None:
    """Edit the board, or post it anew and pin it (bot/board_pin.py): whether the new copy
    is pinned, None when none was posted."""
    text = board_text(view.state, closed=view.closed)
    markup = None
    if not view.closed:
        app = await board_button(bot, game.id, "initiative")
        keyboard = board_keyboard(view.state, game.id, view.seq)
        if quiet_mode(game):  # no turn message: the acting one's buttons are here
            chase = await current_chase(game.id)
            live = chase.state if chase is not None and not chase.closed else None
            rows = turn_rows(view.state, game.id, board=True, chase=live)
            keyboard = InlineKeyboardMarkup(inline_keyboard=rows + keyboard.inline_keyboard)
        markup = with_button_row(keyboard, app)
    current = None if new else view.board_message_id
    sent = await edit_or_send(bot, game, current, text, markup)
    if view.closed and view.board_message_id is not None:
        await unpin(bot, game, view.board_message_id)  # the fight is over: nothing to find
    if sent is None or view.closed:
        return None
    await set_board_message(game.id, "encounter", sent)
    return await pin_board(bot, game, sent, old=view.board_message_id)


async def turn_mentions(state: savage.Encounter, combatant_id: str) -> list[str]:
    """Link mentions of the players owning the combatant (tg://user?id=…)."""
    found = []
    for owner in state.owners(combatant_id):
        user = await get_user(owner)
        found.append(mention(owner, user.first_name if user else str(owner)))
    return found
