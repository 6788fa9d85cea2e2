"""The chase follows the encounter's turns (docs/rules/chase.md: the action cards and the order
of turns are the combat engine's): a new round of the fight opens a chase round, a turn that
starts opens the chase turn of the combatant's participants on its action card (a Clubs card
rolls the Complication), a turn that ends closes them.

These steps are the game's bookkeeping, not anybody's choice: they are sent as the GM (the
services have no "system" actor), after the encounter command that caused them, whether that
command came from the chat or from the Mini App."""

from __future__ import annotations

import logging

from engine import savage
from engine.dice.rng import Rng
from engine.savage import chase
from engine.services.chases import chase_command, current_chase, start_chase_turn
from engine.services.encounters import current_encounter
from engine.services.errors import ServiceError
from engine.services.games import get_game

log = logging.getLogger(__name__)


async def follow_encounter(
    game_id: int, events: tuple[savage.Event, ...], *, rng: Rng
) -> list[chase.Event]:
    """Apply the chase steps that `events` (just stored) cause; returns the chase events.

    A refusal (a combatant who is not in the chase, a chase already over) is no error."""
    if not events:
        return []
    view = await current_chase(game_id)
    if view is None or view.state.ended is not None or not view.state.started:
        return []
    game = await get_game(game_id)
    encounter = await current_encounter(game_id)
    if game.gm_id is None or encounter is None:
        return []
    produced: list[chase.Event] = []
    for event in events:
        try:
            produced += await _follow(game_id, game.gm_id, event, encounter.state, rng)
        except (chase.ChaseError, ServiceError) as exc:
            log.debug("chase does not follow %s: %s", type(event).__name__, exc)
    return produced


def _ids(state: savage.Encounter, combatant_id: str) -> set[str]:
    try:
        combatant = state.combatant(combatant_id)
    except savage.RuleError:
        return {combatant_id}
    return {combatant.id, *(m.id for m in combatant.members)}


async def _follow(
    game_id: int, gm: int, event: savage.Event, state: savage.Encounter, rng: Rng
) -> list[chase.Event]:
    current = await current_chase(game_id)
    if current is None or current.state.ended is not None:
        return []
    if isinstance(event, savage.events.TurnEnded):
        produced: list[chase.Event] = []
        for turn in current.state.turns:
            if turn.participant in _ids(state, event.combatant):
                done = await chase_command(
                    game_id, chase.EndTurn(turn.participant), actor_id=gm, rng=rng
                )
                produced += done.events
        return produced
    if isinstance(event, savage.events.RoundStarted):
        done = await chase_command(game_id, chase.StartRound(), actor_id=gm, rng=rng)
        return list(done.events)
    if isinstance(event, savage.events.TurnStarted):
        return list((await start_chase_turn(game_id, actor_id=gm, rng=rng)).events)
    return []
