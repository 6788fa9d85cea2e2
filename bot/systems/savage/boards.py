"""A fight or chase step made in the Mini App, told in the chat: its events as the chat
commands tell them, and the board message brought up to date (bot/miniapp_hooks.py calls
this for the notifications of the encounter and chase scenes)."""

from __future__ import annotations

from typing import Any

from aiogram import Bot

from bot.systems.savage.chase.board import chase_names, render_chase, show_chase
from bot.systems.savage.combat.board import post, render_board, show_board
from bot.systems.savage.render.chase import chase_events_text
from bot.systems.savage.render.combat_events import Names, events_text, names_of
from engine.savage import Encounter
from engine.services.notify import Notification
from engine.services.savage import current_encounter
from engine.services.scenes import SceneView
from engine.services.types import GameInfo


def _view(game: GameInfo, note: Notification) -> SceneView[Any] | None:
    """The scene as the step left it, when the note carries it (a live delivery does; a
    row delivered again after a restart does not: then it is read)."""
    info = note.info
    if "state" not in info:
        return None
    return SceneView(
        game.id, str(info["stream"]), info["state"], info["state_seq"], False, info.get("board")
    )


async def _names(game: GameInfo, note: Notification) -> Names:
    """The fighters' names for a chase: from the fight as the step left it, when the step
    touched it (the chase followed the fight), else as stored."""
    fights = [v for v in (note.info.get("states") or {}).values() if isinstance(v, Encounter)]
    return names_of(fights[0]) if fights else await chase_names(game)


async def board_sync(bot: Bot, game: GameInfo, note: Notification) -> None:
    events = tuple(note.info.get("events") or ())
    view = _view(game, note)
    if note.topic == "encounter":
        view = view or await current_encounter(game.id)
        text = events_text(events, names_of(view.state)) if view and events else ""
        name = None
    else:
        name = await _names(game, note)
        text = chase_events_text(events, name) if events else ""
    if text:
        await post(bot, game, text)
    if view is None:
        await (show_board if note.topic == "encounter" else show_chase)(bot, game)
    elif note.topic == "encounter":
        await render_board(bot, game, view)
    else:
        await render_chase(bot, game, view, name=name)
