"""The chase follows the encounter's turns (docs/rules/chase.md: the action cards and the order
of turns are the combat engine's): a new round of the fight opens a chase round, a turn that
starts opens the chase turn of the combatant's participants on its action card (a Clubs card
rolls the Complication), a turn that ends closes them.

These steps are the game's bookkeeping, not anybody's choice: they are sent as the GM (the
services have no "system" actor), after the encounter command that caused them, whether that
command came from the chat or from the Mini App. Each is stored with its cause (the encounter
step), so undoing that step takes them back too (`undo_followed`) — as long as they are
still the chase's newest steps.

The fight character is the one source of a linked participant's health (docs/rules/chase.md
«Wounds and Fatigue»): after every encounter step the participants take their characters'
Wounds and Fatigue (`SetHealth`), and leave the chase when the character is out of the fight
(Incapacitated or dead; seed 001, line 47). A chase critical failure resolved with Fatigue
gives the linked character that Fatigue in the fight (`fatigue_to_fight`)."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from engine import savage
from engine.dice.rng import Rng
from engine.savage import chase
from engine.savage.chase.events import CriticalFailureResolved
from engine.savage.chase.rules import FATIGUE_OUT
from engine.services import aggregates as agg
from engine.services.chases import (
    chase_command,
    chase_commands,
    current_chase,
    fight_character,
    health_of,
    start_chase_turn,
)
from engine.services.chases_aggregate import CHASE
from engine.services.encounters import EncounterOutcome, current_encounter, encounter_command
from engine.services.encounters_common import CommandOutcome, UndoOutcome
from engine.services.errors import ServiceError
from engine.services.games import get_game
from engine.services.notify import notify

log = logging.getLogger(__name__)


Cause = Mapping[str, Any]


def cause_of(out: CommandOutcome[Any, Any]) -> Cause | None:
    """The encounter step an outcome wrote (None if it wrote nothing)."""
    return None if out.step_id is None else {"stream": out.stream, "step": out.step_id}


async def follow_encounter(
    game_id: int,
    events: tuple[savage.Event, ...],
    *,
    rng: Rng,
    cause: Cause | None = None,
) -> list[chase.Event]:
    """Apply the chase steps that `events` (just stored, by the encounter step `cause`)
    cause; returns the chase events.

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
    # Health first: a Complication the turn start rolls already carries a new Wound.
    produced = await _sync_health(game_id, game.gm_id, encounter.state, rng, cause)
    for event in events:
        try:
            produced += await _follow(game_id, game.gm_id, event, encounter.state, rng, cause)
        except (chase.ChaseError, ServiceError) as exc:
            log.debug("chase does not follow %s: %s", type(event).__name__, exc)
    return produced


def health_commands(
    state: chase.ChaseState, encounter: savage.Encounter
) -> list[list[chase.Command]]:
    """What brings each active linked participant in line with its fight character: a
    `SetHealth` if its Wounds or Fatigue differ, a `TakeOutOfAction` if the character is out
    of the fight (seed 001, line 47: «преследователи выведены из строя»). One list (one
    step) per participant that needs any."""
    steps = []
    for p in state.participants:
        character = fight_character(encounter, p.id) if p.active else None
        if character is None:
            continue
        health = health_of(p.id, character)
        commands: list[chase.Command] = []
        if (health.wounds, health.fatigue, health.ignored_wounds) != (
            p.wounds,
            p.fatigue,
            p.ignored_wounds,
        ):
            commands.append(health)
        if character.status.out and health.fatigue < FATIGUE_OUT:  # Fatigue 3: SetHealth does
            commands.append(chase.TakeOutOfAction(p.id))
        if commands:
            steps.append(commands)
    return steps


async def _sync_health(
    game_id: int, gm: int, encounter: savage.Encounter, rng: Rng, cause: Cause | None
) -> list[chase.Event]:
    """One GM step per participant whose health changed, stored with `cause`."""
    view = await current_chase(game_id)
    if view is None or view.state.ended is not None:
        return []
    produced: list[chase.Event] = []
    for commands in health_commands(view.state, encounter):
        try:
            done = await chase_commands(game_id, commands, actor_id=gm, rng=rng, cause=cause)
        except (chase.ChaseError, ServiceError) as exc:  # e.g. the chase ended meanwhile
            log.debug("chase health not synced: %s", exc)
            break
        produced += done.events
    return produced


async def fatigue_to_fight(
    game_id: int, events: Iterable[chase.Event], *, rng: Rng
) -> EncounterOutcome | None:
    """After a chase step: a critical failure resolved with Fatigue (seed 001, line 30) for a
    participant linked to a fight character gives that character a Fatigue level in the
    fight (`ChangeFatigue` +1 as the GM; seed 000, line 79). Returns the encounter outcome
    (None: no such resolution, no fight, no linked character, or the fight refused it —
    e.g. while damage waits for a Soak). The caller follows that step like any other
    (`follow_encounter` with its cause): the chase already counted the level, so the
    forward sync finds both equal and changes nothing."""
    pids = [
        e.participant
        for e in events
        if isinstance(e, CriticalFailureResolved) and e.choice == "fatigue"
    ]
    if not pids or not pids[-1]:
        return None
    game = await get_game(game_id)
    encounter = await current_encounter(game_id)
    if game.gm_id is None or encounter is None:
        return None
    character = fight_character(encounter.state, pids[-1])
    if character is None:
        return None
    command = savage.ChangeFatigue(character.id, 1)
    try:
        return await encounter_command(game_id, command, actor_id=game.gm_id, rng=rng)
    except (savage.RuleError, ServiceError) as exc:
        log.info("chase Fatigue of %s not given in the fight: %s", character.id, exc)
        return None


def _ids(state: savage.Encounter, combatant_id: str) -> set[str]:
    try:
        combatant = state.combatant(combatant_id)
    except savage.RuleError:
        return {combatant_id}
    return {combatant.id, *(m.id for m in combatant.members)}


async def _follow(
    game_id: int,
    gm: int,
    event: savage.Event,
    state: savage.Encounter,
    rng: Rng,
    cause: Cause | None,
) -> list[chase.Event]:
    current = await current_chase(game_id)
    if current is None or current.state.ended is not None:
        return []
    if isinstance(event, savage.events.TurnEnded):
        produced: list[chase.Event] = []
        for turn in current.state.turns:
            if turn.participant in _ids(state, event.combatant):
                done = await chase_command(
                    game_id, chase.EndTurn(turn.participant), actor_id=gm, rng=rng, cause=cause
                )
                produced += done.events
        return produced
    if isinstance(event, savage.events.RoundStarted):
        done = await chase_command(game_id, chase.StartRound(), actor_id=gm, rng=rng, cause=cause)
        return list(done.events)
    if isinstance(event, savage.events.TurnStarted):
        opened = await start_chase_turn(game_id, actor_id=gm, rng=rng, cause=cause)
        return list(opened.events)
    return []


async def undo_followed(game_id: int, undone: UndoOutcome[Any, Any], *, actor_id: int) -> int:
    """After an encounter undo: take back the chase steps that the undone step caused (the
    chase's newest ones; a chase step made since stops it). Returns how many."""
    view = await current_chase(game_id)
    if view is None:
        return 0
    cause = {"stream": undone.stream, "step": undone.undone_step}
    try:
        steps = await agg.undo_caused(CHASE, game_id, view.stream, cause, actor_id=actor_id)
    except ServiceError as exc:  # the chase closed or the game ended meanwhile
        log.debug("chase steps of %s not undone: %s", cause, exc)
        return 0
    if steps:
        last = steps[-1]
        await notify(
            game_id,
            "chase",
            stream=view.stream,
            seq=last.seq,
            undone=last.undone_step,
            actor_id=actor_id,
        )
    return len(steps)
