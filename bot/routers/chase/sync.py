"""The chase in the chat follows the fight's turns (the bookkeeping itself is the service
engine/services/chase_sync.py; here the chat is told what it did)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aiogram import Bot

from bot.render.chase import chase_events_text
from bot.routers.chase.board import chase_names, show_chase
from bot.routers.combat.board import post
from bot.routers.combat.names import Ref
from bot.routers.combat.scene import report
from engine import savage
from engine.dice.rng import Rng
from engine.savage import chase
from engine.services import GameInfo, ServiceError, chase_command, current_chase
from engine.services.chase_sync import fatigue_to_fight
from engine.services.chase_sync import follow_encounter as follow_chase_turns


async def follow_encounter(
    bot: Bot,
    game: GameInfo,
    events: tuple[savage.Event, ...],
    rng: Rng,
    cause: Mapping[str, Any] | None = None,
) -> None:
    """After a fight step in the chat: the chase follows it, and the chat shows what changed."""
    view = await current_chase(game.id)
    if view is None or view.state.ended is not None or not view.state.started:
        return
    produced = await follow_chase_turns(game.id, events, rng=rng, cause=cause)
    if produced:
        text = chase_events_text(produced, await chase_names(game))
        if text:
            await post(bot, game, text)
    await show_chase(bot, game)


async def declare_in_chase(
    bot: Bot, game: GameInfo, user_id: int, ref: Ref, count: int, rng: Rng
) -> None:
    """Actions declared in the fight count in the chase turn too (multi-action)."""
    view = await current_chase(game.id)
    pid = ref.character_id
    if view is None or pid is None or view.state.turn(pid) is None:
        return
    try:
        await chase_command(game.id, chase.DeclareActions(pid, count), actor_id=user_id, rng=rng)
    except (chase.ChaseError, ServiceError):
        return
    await show_chase(bot, game)


async def fatigue_in_fight(
    bot: Bot, game: GameInfo, events: tuple[chase.Event, ...], rng: Rng
) -> None:
    """A chase critical failure resolved with Fatigue: the linked fight character gains the
    level (engine.services.chase_sync.fatigue_to_fight); the chat is told as for any fight
    step, the fight board refreshed, and the chase follows (its level is already counted)."""
    out = await fatigue_to_fight(game.id, events, rng=rng)
    if out is not None and out.events:
        await report(bot, game, out.events, out.state, rng, cause=out)
