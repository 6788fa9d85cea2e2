"""The one chase-row message per chase, edited in place (like the initiative board)."""

from __future__ import annotations

from typing import Any

from aiogram import Bot
from aiogram.types import InlineKeyboardMarkup, Message

from bot.board_message import board_keeper, edit_or_send, post_in_game
from bot.miniapp import board_button
from bot.render.keyboards import with_button_row
from bot.systems.savage.combat.board import dice_to_gm
from bot.systems.savage.render.chase import (
    chase_board_text,
    chase_events_text,
    chase_keyboard,
    end_summary,
    roller,
)
from bot.systems.savage.render.combat_events import Names, names_of
from bot.systems.savage.render.turn_menu import turn_rows
from engine.savage import Encounter
from engine.savage.chase.events import ChaseEnded, TurnStarted
from engine.savage.observe import owners_show_dice, table_sees_dice
from engine.services import GameInfo
from engine.services.savage import ChaseView, current_chase, current_encounter, quiet_mode
from engine.services.savage.chases import controllers


async def chase_names(game: GameInfo) -> Names:
    """Participant ids are encounter ids: show the characters' names."""
    view = await current_encounter(game.id)
    return names_of(view.state) if view is not None else names_of()


async def chase_texts(
    game: GameInfo, events: tuple[Any, ...], name: Names, fight: Encounter | None = None
) -> tuple[str, str | None]:
    """The chase events for the group, and the full text for the GM when the group's leaves
    out an NPC's dice (None: nothing left out; docs/rules/savage.md «Dice in the group»)."""
    whose = {who for e in events if (who := roller(e)) is not None}
    shown: set[str] = set()
    for pid in whose:
        ids = (
            {i for c in fight.combatants for i in (c.id, *(m.id for m in c.members))}
            if fight
            else ()
        )
        if fight is not None and pid in ids:
            visible = table_sees_dice(fight, pid)
        else:
            visible = owners_show_dice(await controllers(game.id, pid))
        if visible:
            shown.add(pid)
    group = chase_events_text(events, name, shown.__contains__)
    return group, (chase_events_text(events, name) if whose - shown else None)


async def tell_chase(
    bot: Bot,
    game: GameInfo,
    events: tuple[Any, ...],
    *,
    reply_to: Message | None = None,
    view: ChaseView | None = None,
    fight: Encounter | None = None,
) -> None:
    """What a chase step did, in the chat, and the row brought up to date — from `view` (the
    row as the step left it) and the `fight`'s names when the caller has them."""
    name = names_of(fight) if fight is not None else await chase_names(game)
    text, full = await chase_texts(game, events, name, fight)
    if any(isinstance(e, ChaseEnded) for e in events):  # who got away, who did not
        view = view or await current_chase(game.id)
        if view is not None:
            text += "\n" + end_summary(view.state, name)
    markup = None
    if any(isinstance(e, TurnStarted) for e in events):  # a chase caught up mid-turn
        markup = await _turn_markup(game, view)
    if text:
        await post_in_game(bot, game, text, reply_to=reply_to, markup=markup)
    await dice_to_gm(bot, game, full)
    if view is None:
        await show_chase(bot, game)
    else:
        await render_chase(bot, game, view, name=name)


async def _turn_markup(game: GameInfo, view: ChaseView | None) -> InlineKeyboardMarkup | None:
    """The acting character's buttons, now with its chase moves (item 2)."""
    fight = await current_encounter(game.id)
    chase = view or await current_chase(game.id)
    if fight is None or chase is None or quiet_mode(game):
        return None
    rows = turn_rows(fight.state, game.id, board=False, chase=chase.state)
    return InlineKeyboardMarkup(inline_keyboard=rows) if rows else None


async def show_chase(bot: Bot, game: GameInfo, *, new: bool = False) -> None:
    view = await current_chase(game.id)
    if view is not None:
        await render_chase(bot, game, view, new=new)


async def render_chase(
    bot: Bot, game: GameInfo, view: ChaseView, *, new: bool = False, name: Names | None = None
) -> None:
    name = name or await chase_names(game)
    text = chase_board_text(view.state, name, closed=view.closed)
    markup = None
    if not view.closed and view.state.ended is None:
        app = await board_button(bot, game.id, "chase")
        markup = with_button_row(chase_keyboard(view.state, game.id, view.seq), app)
    current = None if new else view.board_message_id
    posted = board_keeper(bot, game, "chase", view, pin=False)  # the fight's board is pinned
    await edit_or_send(bot, game, current, text, markup, posted)
