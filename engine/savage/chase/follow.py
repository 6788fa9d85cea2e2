"""The chase follows the fight (pure): which chase steps a fight step causes, and which fight
command a chase step causes. The services store both sides in one unit of work.

docs/rules/chase.md: the action cards and the order of turns are the combat engine's — a new
round of the fight opens a chase round, a turn that starts opens the chase turn of the
combatant's participants on its action card (a Clubs card rolls the Complication), a turn
that ends closes them. The fight character is the one source of a linked participant's
health («Wounds and Fatigue»): after every fight step the participants take their
characters' Wounds and Fatigue (`SetHealth`) and leave the chase when the character is out
of the fight (Incapacitated or dead; seed 001, line 47). A chase critical failure resolved
with Fatigue (seed 001, line 30) gives the linked character that Fatigue level in the fight
(seed 000, line 79).

Not imported by `engine.savage.chase` itself: it needs the combat engine too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import reduce

from engine import savage
from engine.dice.rng import Rng
from engine.savage.chase.commands import (
    Command,
    CountFightActions,
    EndTurn,
    SetHealth,
    StartRound,
    StartTurn,
    TakeOutOfAction,
)
from engine.savage.chase.decide import decide
from engine.savage.chase.errors import ChaseError
from engine.savage.chase.events import CriticalFailureResolved, Event
from engine.savage.chase.evolve import evolve
from engine.savage.chase.model import ChaseState
from engine.savage.chase.rules import FATIGUE_OUT, MAX_WOUNDS

Step = tuple[tuple[Event, ...], ChaseState]  # a chase step's events and the state after them


def fight_character(encounter: savage.Encounter, pid: str) -> savage.Character | None:
    """The fight character a chase participant stands for: the character with its id, or
    the one character of a combatant with its id (a group's id stands for nobody)."""
    try:
        return encounter.find(pid)[1]
    except savage.RuleError:
        return None


def health_of(pid: str, character: savage.Character) -> SetHealth:
    """The character's Wounds and Fatigue for participant `pid` (seed 000 lines 73, 79;
    Nerves of Steel ignores one Wound's penalty, Improved two — as
    `Character.wound_penalty`)."""
    ignored = 2 if character.has_edge("improved_nerves_of_steel") else 0
    ignored = ignored or (1 if character.has_edge("nerves_of_steel") else 0)
    wounds = max(0, min(character.status.wounds, MAX_WOUNDS))
    fatigue = max(0, min(character.status.fatigue, FATIGUE_OUT))
    return SetHealth(pid, wounds, fatigue, ignored)


def health_commands(state: ChaseState, encounter: savage.Encounter) -> list[list[Command]]:
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
        commands: list[Command] = []
        if (health.wounds, health.fatigue, health.ignored_wounds) != (
            p.wounds,
            p.fatigue,
            p.ignored_wounds,
        ):
            commands.append(health)
        if character.status.out and health.fatigue < FATIGUE_OUT:  # Fatigue 3: SetHealth does
            commands.append(TakeOutOfAction(p.id))
        if commands:
            steps.append(commands)
    return steps


def fight_actions_commands(state: ChaseState, encounter: savage.Encounter) -> list[Command]:
    """One turn, one multi-action count (seed 000 lines 27-29): each open chase turn of a
    linked participant takes its fight character's declaration and fight actions."""
    commands: list[Command] = []
    for t in state.turns:
        character = fight_character(encounter, t.participant)
        if character is None or not state.participant(t.participant).active:
            continue
        status = character.status
        declared = max(1, status.actions_declared)
        if (max(t.declared_actions, declared), status.actions_used) != (
            t.declared_actions,
            t.fight_actions,
        ):
            commands.append(CountFightActions(t.participant, declared, status.actions_used))
    return commands


def chase_actions_commands(state: ChaseState, encounter: savage.Encounter) -> list[savage.Command]:
    """The other way: each linked fight character in its turn takes its chase turn's
    declaration and chase actions (Change Position as an action, Flee; seed 001 lines 15,
    45)."""
    commands: list[savage.Command] = []
    for t in state.turns:
        character = fight_character(encounter, t.participant)
        if character is None or not character.status.in_turn:
            continue
        status = character.status
        if (max(status.actions_declared, t.declared_actions), t.actions_used) != (
            status.actions_declared,
            status.chase_actions,
        ):
            commands.append(
                savage.CountChaseActions(character.id, t.declared_actions, t.actions_used)
            )
    return commands


def run_commands(state: ChaseState, commands: Sequence[Command], rng: Rng) -> Step:
    """The commands as one step, each decided on the state the previous ones left (one
    refusal refuses them all: ChaseError)."""
    events: list[Event] = []
    for command in commands:
        new = decide(state, command, rng)
        state = reduce(evolve, new, state)
        events.extend(new)
    return tuple(events), state


def linked(state: ChaseState, combatant: savage.Combatant) -> list[str]:
    """The active participants standing for the combatant or one of its members."""
    ids = {combatant.id, *(m.id for m in combatant.members)}
    return [p.id for p in state.participants if p.id in ids and p.active]


def start_turns(
    state: ChaseState, combatant: savage.Combatant, rng: Rng, participant: str | None = None
) -> Step | None:
    """The chase turns of the combatant's participants on its action card, as one step
    (None: it has no participant in the chase; `participant` picks one of them). No card —
    it acts from a Hold kept since an earlier round — means no Complication."""
    pids = linked(state, combatant)
    if participant is not None:
        pids = [p for p in pids if p == participant]
    if not pids:
        return None
    return run_commands(state, [StartTurn(pid, combatant.card) for pid in pids], rng)


def catch_up(state: ChaseState, fight: savage.Encounter, added: Iterable[str]) -> list[Command]:
    """A chase that joins a fight in the middle of a round (or a participant added during
    the turn of its combatant) is playable at once: the chase round opens as soon as two
    sides stand in the row, and the acting combatant's participants get their chase turn
    on its action card, as if the chase had followed the fight from the round's start."""
    if state.ended is not None or fight.round == 0:
        return []
    commands: list[Command] = []
    sides = {p.side for p in state.participants if p.active}
    fresh = set(added)
    if state.round == 0:
        if len(sides) < 2:
            return []
        commands.append(StartRound())
        fresh = {p.id for p in state.participants}  # the round opens for everyone
    acting = fight.acting
    if acting is not None:
        opened = {t.participant for t in state.turns} if state.round else set()
        commands += [
            StartTurn(pid, acting.card)
            for pid in linked(state, acting)
            if pid in fresh and pid not in opened
        ]
    return commands


def _ids(fight: savage.Encounter, combatant_id: str) -> set[str]:
    try:
        combatant = fight.combatant(combatant_id)
    except savage.RuleError:
        return {combatant_id}
    return {combatant.id, *(m.id for m in combatant.members)}


def _steps_of(state: ChaseState, fight: savage.Encounter, event: object, rng: Rng) -> list[Step]:
    if isinstance(event, savage.events.TurnEnded):
        steps: list[Step] = []
        for turn in state.turns:
            if turn.participant in _ids(fight, event.combatant):
                step = run_commands(state, [EndTurn(turn.participant)], rng)
                state = step[1]
                steps.append(step)
        return steps
    if isinstance(event, savage.events.RoundStarted):
        return [run_commands(state, [StartRound()], rng)]
    if isinstance(event, savage.events.TurnStarted) and fight.acting is not None:
        opened = start_turns(state, fight.acting, rng)
        return [] if opened is None else [opened]
    return []


def removed_commands(
    state: ChaseState, before: savage.Encounter, events: Iterable[object]
) -> list[Command]:
    """Fighters the GM removed from the fight (`CombatantRemoved`) leave the chase too: a
    participant with no fight character behind it would stand in the row nameless."""
    gone: set[str] = set()
    for e in events:
        if not isinstance(e, savage.events.CombatantRemoved):
            continue
        if e.member:
            gone.add(e.member)
        else:
            gone |= _ids(before, e.combatant)
    return [TakeOutOfAction(p.id) for p in state.participants if p.active and p.id in gone]


def follow_fight(
    state: ChaseState,
    fight: savage.Encounter,
    events: Iterable[object],
    rng: Rng,
    before: savage.Encounter | None = None,
) -> list[Step]:
    """The chase steps a fight step causes: the health of linked participants first (a
    Complication the turn start rolls already carries a new Wound), then the round and
    turns. `fight` is the encounter after the step. A refusal (a combatant who is not in
    the chase, a chase already over) is no error: that step is left out."""
    if state.ended is not None or not state.started:
        return []
    events = tuple(events)
    steps: list[Step] = []
    removed = removed_commands(state, before, events) if before is not None else []
    for commands in ([removed] if removed else []) + health_commands(state, fight):
        try:
            step = run_commands(state, commands, rng)
        except ChaseError:
            break
        state = step[1]
        steps.append(step)
    for event in events:
        if state.ended is not None:
            break
        try:
            new = _steps_of(state, fight, event, rng)
        except ChaseError:
            continue
        if new:
            state = new[-1][1]
            steps.extend(new)
    if state.ended is None:
        counted = fight_actions_commands(state, fight)
        synced: Step | None = None
        try:
            synced = run_commands(state, counted, rng) if counted else None
        except ChaseError:
            synced = None
        if synced is not None and synced[0]:
            steps.append(synced)
    return steps


def fight_commands(
    events: Iterable[Event], state: ChaseState, fight: savage.Encounter
) -> list[savage.Command]:
    """The fight commands a chase step causes: the Fatigue of a critical failure, then the
    chase turns' action counts."""
    fatigue = fatigue_for_fight(events, fight)
    return [*([fatigue] if fatigue is not None else []), *chase_actions_commands(state, fight)]


def fatigue_for_fight(events: Iterable[Event], fight: savage.Encounter) -> savage.Command | None:
    """A chase critical failure resolved with Fatigue (seed 001, line 30) for a participant
    linked to a fight character: `ChangeFatigue` +1 for that character (seed 000, line 79).
    None: no such resolution or no linked character."""
    pids = [
        e.participant
        for e in events
        if isinstance(e, CriticalFailureResolved) and e.choice == "fatigue"
    ]
    if not pids or not pids[-1]:
        return None
    character = fight_character(fight, pids[-1])
    return None if character is None else savage.ChangeFatigue(character.id, 1)
