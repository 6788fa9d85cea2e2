"""A fight step made in the Mini App, told in the chat: its events (a proposal's notice
and the GM's private copy; after an undo that brings a proposal back, both edited back —
a publication undone keeps its result struck through, a proposal undone away its notice
struck through, as after the chat's /undo) and
the board brought up to date (bot/miniapp_hooks.py calls
this for the notifications of the fight scene)."""

from __future__ import annotations

import dataclasses

from aiogram import Bot

from bot.systems.storyteller.board import show_board, tell, tell_undone
from engine.services.notify import Notification
from engine.services.scenes import SceneView
from engine.services.storyteller import FightView, current_fight
from engine.services.types import GameInfo
from engine.storyteller import events as ev


async def board_sync(bot: Bot, game: GameInfo, note: Notification) -> None:
    events = tuple(note.info.get("events") or ())
    info = note.info
    view = None
    if "state" in info:
        view = SceneView(
            game.id, str(info["stream"]), info["state"], info["state_seq"], False, info.get("board")
        )
    view = view or await current_fight(game.id)
    if view is None:
        await show_board(bot, game)
        return
    if "undone" in info:  # an undo: told as the chat's /undo tells it
        undone = tuple(info.get("undone_events") or ())
        await tell_undone(bot, game, view, before=_proposed(view, undone), undone=undone)
        return
    await tell(bot, game, events, view)


def _proposed(view: FightView, undone: tuple[ev.Event, ...]) -> FightView | None:
    """The fight as it was with the proposal an undo took (its notice is then struck
    through, as after the chat's /undo); None when it took none."""
    proposed = [e.proposal for e in undone if isinstance(e, ev.AttackProposed)]
    if not proposed:
        return None
    return dataclasses.replace(view, state=dataclasses.replace(view.state, proposal=proposed[-1]))
