"""The one initiative message per encounter: edited in place, sent anew only when it is
gone (deleted, or too old to edit), its id kept by the service."""

from __future__ import annotations

import logging

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError

from bot.board_message import board_keeper, edit_or_send
from bot.board_pin import NotPinned, unpin
from bot.middlewares.flood import if_refused
from bot.miniapp import board_button
from bot.render.keyboards import keyboard
from bot.systems.savage.render.combat import board_rows, board_text, mention
from bot.systems.savage.render.combat_events import gm_dice_copy
from bot.systems.savage.render.turn_menu import turn_rows
from engine import savage
from engine.services import GameInfo, get_user
from engine.services.savage import EncounterView, current_chase, current_encounter, quiet_mode

log = logging.getLogger(__name__)


async def dice_to_gm(bot: Bot, game: GameInfo, text: str | None) -> None:
    """The full lines, with an NPC's dice that the group's message leaves out, in the GM's
    private chat (nothing when the GM never opened one with the bot)."""
    if not text or game.gm_id is None:
        return

    async def not_sent(error: TelegramAPIError) -> None:
        log.info("game %s: the GM's dice copy not sent (%s)", game.id, error.message)

    async with if_refused(not_sent):  # the step does not wait for the GM's chat
        await bot.send_message(game.gm_id, gm_dice_copy(game.name, text))


async def show_board(
    bot: Bot, game: GameInfo, *, new: bool = False, not_pinned: NotPinned | None = None
) -> None:
    """Bring the board of the active encounter up to date (``new``: post it again below,
    pinned; `not_pinned`: told when Telegram refuses the pin)."""
    view = await current_encounter(game.id)
    if view is None:
        return
    await render_board(bot, game, view, new=new, not_pinned=not_pinned)


async def render_board(
    bot: Bot,
    game: GameInfo,
    view: EncounterView,
    *,
    new: bool = False,
    not_pinned: NotPinned | None = None,
    chase_open: bool | None = None,
) -> None:
    """Edit the board, or post it anew and pin it (bot/board_message.py); `chase_open`:
    False when the step knows no chase is open (the turn's buttons need not read it)."""
    text = board_text(view.state, closed=view.closed)
    markup = None
    if not view.closed:
        app = await board_button(bot, game.id, "initiative")
        rows = board_rows(view.state, game.id, view.seq)
        if menu_on_board(game, view.state):  # not in a turn message: here
            chase = None if chase_open is False else await current_chase(game.id)
            live = chase.state if chase is not None and not chase.closed else None
            rows = turn_rows(view.state, game.id, board=True, chase=live) + rows
        markup = keyboard(rows if app is None else [*rows, [app]])
    current = None if new else view.board_message_id
    posted = board_keeper(bot, game, "encounter", view, not_pinned=not_pinned)
    await edit_or_send(bot, game, current, text, markup, posted)
    if view.closed and view.board_message_id is not None:
        await unpin(bot, game, view.board_message_id)  # the fight is over: nothing to find


def menu_on_board(game: GameInfo, state: savage.Encounter) -> bool:
    """Whether the acting combatant's buttons are the board's: in a quiet game always (no
    turn message); else an NPC's (no player to ping: the GM's own buttons, where the GM
    pressed «Дальше»), a player's being in the turn message that pings its player."""
    return quiet_mode(game) or npc_acts(state)


def npc_acts(state: savage.Encounter) -> bool:
    """An NPC's turn: a combatant acts whom no player owns."""
    return state.current is not None and not state.owners(state.current)


async def turn_mentions(state: savage.Encounter, combatant_id: str) -> list[str]:
    """Link mentions of the players owning the combatant (tg://user?id=…)."""
    found = []
    for owner in state.owners(combatant_id):
        user = await get_user(owner)
        found.append(mention(owner, user.first_name if user else str(owner)))
    return found
