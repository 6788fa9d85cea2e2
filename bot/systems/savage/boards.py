"""A fight or chase step made in the Mini App, told in the chat: its events as the chat
commands tell them, and the board message brought up to date (bot/miniapp_hooks.py calls
this for the notifications of the encounter and chase scenes)."""

from __future__ import annotations

from aiogram import Bot

from bot.systems.savage.chase.board import chase_names, show_chase
from bot.systems.savage.combat.board import post, show_board
from bot.systems.savage.render.chase import chase_events_text
from bot.systems.savage.render.combat_events import events_text, names_of
from engine.services.notify import Notification
from engine.services.savage import current_encounter
from engine.services.types import GameInfo


async def board_sync(bot: Bot, game: GameInfo, note: Notification) -> None:
    events = tuple(note.info.get("events") or ())
    if note.topic == "encounter":
        view = await current_encounter(game.id)
        text = events_text(events, names_of(view.state)) if view and events else ""
    else:
        text = chase_events_text(events, await chase_names(game)) if events else ""
    if text:
        await post(bot, game, text)
    if note.topic == "encounter":
        await show_board(bot, game)
    else:
        await show_chase(bot, game)
