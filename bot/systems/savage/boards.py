"""A fight or chase step made in the Mini App, told in the chat: its events as the chat
commands tell them (an NPC's dice to the GM alone), and the board message brought up to
date (bot/miniapp_hooks.py calls this for the notifications of the encounter and chase
scenes). A step that only passed the turn to an NPC posts nothing, as its tap on the chat's
board does (bot/systems/savage/combat/tell.py): the edited board shows whose turn it is."""

from __future__ import annotations

from typing import Any

from aiogram import Bot

from bot.board_message import post_in_game
from bot.systems.savage.chase.board import chase_names, chase_texts, render_chase, show_chase
from bot.systems.savage.combat.board import dice_to_gm, npc_acts, render_board, show_board
from bot.systems.savage.combat.tell import TURN_HEADERS
from bot.systems.savage.render.combat_events import Names, group_texts, names_of
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


def _only_turn_to_npc(events: tuple[Any, ...], fight: Encounter) -> bool:
    """The step only ended a turn and started an NPC's: nothing the board does not say."""
    return npc_acts(fight) and all(isinstance(e, TURN_HEADERS) for e in events)


async def _names(game: GameInfo, note: Notification) -> Names:
    """The fighters' names for a chase: from the fight as the step left it, when the step
    touched it (the chase followed the fight), else as stored."""
    fights = [v for v in (note.info.get("states") or {}).values() if isinstance(v, Encounter)]
    return names_of(fights[0]) if fights else await chase_names(game)


async def board_sync(bot: Bot, game: GameInfo, note: Notification) -> None:
    events = tuple(note.info.get("events") or ())
    view = _view(game, note)
    full = None  # the GM's copy with the NPC dice the group's text leaves out
    if note.topic == "encounter":
        view = view or await current_encounter(game.id)
        text = ""
        if view and events and not _only_turn_to_npc(events, view.state):
            text, full = group_texts(events, names_of(view.state), view.state)
        name = None
    else:
        name = await _names(game, note)
        fights = [v for v in (note.info.get("states") or {}).values() if isinstance(v, Encounter)]
        fight = fights[0] if fights else None
        if fight is None and (fight_view := await current_encounter(game.id)) is not None:
            fight = fight_view.state
        text, full = await chase_texts(game, events, name, fight) if events else ("", None)
    if text:
        await post_in_game(bot, game, text)
    await dice_to_gm(bot, game, full)
    if view is None:
        await (show_board if note.topic == "encounter" else show_chase)(bot, game)
    elif note.topic == "encounter":
        await render_board(bot, game, view)
    else:
        await render_chase(bot, game, view, name=name)
