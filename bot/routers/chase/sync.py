"""The chase follows the encounter's turns (docs/rules/chase.md: the action cards and the
order of turns are the combat engine's): a new round of the fight opens a chase round, a
turn that starts opens the chase turn of the combatant's participants on its action card
(a Clubs card rolls the Complication), a turn that ends closes them.

These steps are the game's bookkeeping, not a choice: they are sent as the GM (the
service has no "system" actor), after the encounter command that caused them."""

from __future__ import annotations

from aiogram import Bot

from bot.render.chase import chase_events_text
from bot.routers.chase.board import chase_names, show_chase
from bot.routers.combat.board import post
from bot.routers.combat.names import Ref
from engine import savage
from engine.dice.rng import Rng
from engine.savage import chase
from engine.services import (
    GameInfo,
    NotInChase,
    ServiceError,
    chase_command,
    current_chase,
    start_chase_turn,
)


def _ids(state: savage.Encounter, combatant_id: str) -> set[str]:
    try:
        c = state.combatant(combatant_id)
    except savage.RuleError:
        return {combatant_id}
    return {c.id, *(m.id for m in c.members)}


async def follow_encounter(
    bot: Bot,
    game: GameInfo,
    events: tuple[savage.Event, ...],
    state: savage.Encounter,
    rng: Rng,
) -> None:
    view = await current_chase(game.id)
    if view is None or game.gm_id is None:
        return
    if view.state.ended is not None or not view.state.started:
        return
    gm = game.gm_id
    produced: list[chase.Event] = []
    for e in events:
        try:
            produced += await _follow(game.id, gm, e, state, rng)
        except (chase.ChaseError, NotInChase):
            continue  # not everyone is in the chase; a refusal of the sync is no error
    if produced:
        text = chase_events_text(produced, await chase_names(game))
        if text:
            await post(bot, game, text)
    await show_chase(bot, game)


async def _follow(
    game_id: int, gm: int, e: savage.Event, state: savage.Encounter, rng: Rng
) -> list[chase.Event]:
    current = await current_chase(game_id)
    if current is None or current.state.ended is not None:
        return []
    if isinstance(e, savage.events.TurnEnded):
        out: list[chase.Event] = []
        for turn in current.state.turns:
            if turn.participant in _ids(state, e.combatant):
                done = await chase_command(
                    game_id, chase.EndTurn(turn.participant), actor_id=gm, rng=rng
                )
                out += done.events
        return out
    if isinstance(e, savage.events.RoundStarted):
        return list((await chase_command(game_id, chase.StartRound(), actor_id=gm, rng=rng)).events)
    if isinstance(e, savage.events.TurnStarted):
        return list((await start_chase_turn(game_id, actor_id=gm, rng=rng)).events)
    return []


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
