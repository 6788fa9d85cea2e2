"""Applying events: deterministic, no randomness, no validation beyond consistency.

``replay(events)`` rebuilds an encounter from its log; ``undo(events)`` drops the last step
(the events of the last command).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from functools import reduce
from typing import Any, TypeVar

from .character import Character, Condition
from .encounter import Encounter, LastRoll, PendingDamage
from .events import (
    ActionsDeclared,
    BenniesGiven,
    BennySpent,
    BleedingOutResolved,
    CardDealt,
    ChaseActionsCounted,
    CombatantAdded,
    CombatantRemoved,
    ConditionAdded,
    ConditionRemoved,
    DamageApplied,
    DamagePending,
    DamageRolled,
    DamageSoaked,
    DeckShuffled,
    Event,
    FatigueChanged,
    FreeActionsOnly,
    FullTurnTaken,
    HoldLost,
    HoldTaken,
    Incapacitated,
    Interrupted,
    Rerolled,
    Rolled,
    RoundEnded,
    RoundStarted,
    ShakenRemoved,
    ShakenSet,
    StatusSet,
    StunnedRemoved,
    StunnedSet,
    TurnEnded,
    TurnQueued,
    TurnStarted,
)
from .modifiers import support_value

_R = dataclasses.replace
# (the state, an event of the handler's class) -> the state after it
_HANDLERS: dict[type[Event], Callable[[Encounter, Any], Encounter]] = {}
H = TypeVar("H", bound=Callable[[Encounter, Any], Encounter])


def _on(cls: type[Event]) -> Callable[[H], H]:
    def register(fn: H) -> H:
        _HANDLERS[cls] = fn
        return fn

    return register


def evolve(state: Encounter, event: Event) -> Encounter:
    new = _HANDLERS[type(event)](state, event)
    return new if new.step == event.step else _R(new, step=event.step)


def replay(events: Iterable[Event], initial: Encounter | None = None) -> Encounter:
    return reduce(evolve, events, initial if initial is not None else Encounter())


def undo(events: Iterable[Event]) -> tuple[Event, ...]:
    """The log without its last step."""
    log = tuple(events)
    if not log:
        return log
    last = log[-1].step
    return tuple(e for e in log if e.step != last)


# --- helpers --------------------------------------------------------------------------


def _char(state: Encounter, cid: str, fn: Callable[[Character], Character]) -> Encounter:
    return state.update_character(cid, fn)


def _status(state: Encounter, cid: str, **changes: object) -> Encounter:
    return state.update_character(cid, lambda c: c.with_status(**changes))


def _members(
    state: Encounter, combatant_id: str, fn: Callable[[Character], Character]
) -> Encounter:
    return state.update_combatant(
        combatant_id, lambda c: _R(c, members=tuple(fn(m) for m in c.members))
    )


def _expire(character: Character, until: str, count: int) -> Character:
    conditions = character.status.conditions
    keep = tuple(c for c in conditions if not (c.until == until and c.turn <= count))
    # most turns expire nothing: the character itself, not a copy (a step evolves each member)
    return character if len(keep) == len(conditions) else character.with_conditions(keep)


def _without(character: Character, kind: str) -> Character:
    return character.with_conditions(
        tuple(c for c in character.status.conditions if c.kind != kind)
    )


def _with_condition(character: Character, condition: Condition) -> Character:
    """The condition replaces one of its kind — a Support bonus only the one for the same
    trait (seed 000 line 35: «+1 к одной подходящей проверке»: bonuses for different traits
    stay apart)."""
    keep = tuple(
        c
        for c in character.status.conditions
        if c.kind != condition.kind or (c.kind == "support" and c.skill != condition.skill)
    )
    return character.with_conditions((*keep, condition))


def _without_support_for(character: Character, trait: str) -> Character:
    """A roll of ``trait`` uses up the Support bonuses that fit it (its own and any-trait)."""
    return character.with_conditions(
        tuple(
            c
            for c in character.status.conditions
            if not (c.kind == "support" and c.skill in ("", trait))
        )
    )


_TURN_RESET: dict[str, Any] = {
    "actions_declared": 0,
    "actions_used": 0,
    "chase_actions": 0,
    "rolled": False,
    "free_only": False,
    "full_turn": "",
}


# --- set-up ---------------------------------------------------------------------------


@_on(CombatantAdded)
def _added(state: Encounter, e: CombatantAdded) -> Encounter:
    return _R(state, combatants=(*state.combatants, e.combatant))


@_on(CombatantRemoved)
def _removed(state: Encounter, e: CombatantRemoved) -> Encounter:
    gone = state.combatant(e.combatant)
    if e.member:
        members = tuple(m for m in gone.members if m.id != e.member)
        return state.replace_combatant(_R(gone, members=members))
    deck = state.deck.discarded([gone.card]) if gone.card else state.deck
    return _R(
        state,
        combatants=tuple(c for c in state.combatants if c.id != e.combatant),
        deck=deck,
        current=None if state.current == e.combatant else state.current,
        suspended=tuple(x for x in state.suspended if x != e.combatant),
        queued=tuple(x for x in state.queued if x != e.combatant),
    )


# --- cards and turns ------------------------------------------------------------------


@_on(DeckShuffled)
def _shuffled(state: Encounter, e: DeckShuffled) -> Encounter:
    mid_deal = e.reason in ("empty", "another_deck")
    return _R(state, deck=state.deck.with_order(e.order, mid_deal=mid_deal))


@_on(RoundStarted)
def _round_started(state: Encounter, e: RoundStarted) -> Encounter:
    combatants = tuple(_R(c, acted=False) for c in state.combatants)
    return _R(state, round=e.round, combatants=combatants, current=None, suspended=(), queued=())


@_on(CardDealt)
def _dealt(state: Encounter, e: CardDealt) -> Encounter:
    combatant = state.combatant(e.combatant)
    old = (combatant.card,) if combatant.card is not None else ()
    lost = [c for c in (*old, *e.drawn) if c != e.kept]
    deck = state.deck.take(e.drawn).discarded(lost)
    return _R(state, deck=deck).replace_combatant(_R(combatant, card=e.kept))


@_on(TurnStarted)
def _turn_started(state: Encounter, e: TurnStarted) -> Encounter:
    queued = tuple(x for x in state.queued if x != e.combatant)
    if e.via == "resume":
        suspended = state.suspended[:-1]
        return _R(state, current=e.combatant, suspended=suspended, queued=queued)

    def start(m: Character) -> Character:
        n = m.status.turns_started + 1
        return _expire(m.with_status(turns_started=n, **_TURN_RESET), "start", n)

    state = _members(state, e.combatant, start)
    state = state.update_combatant(e.combatant, lambda c: _R(c, hold=False, acted=True))
    return _R(state, current=e.combatant, queued=queued)


@_on(TurnEnded)
def _turn_ended(state: Encounter, e: TurnEnded) -> Encounter:
    def end(m: Character) -> Character:
        n = m.status.turns_ended + 1
        return _expire(m.with_status(turns_ended=n), "end", n)

    state = _members(state, e.combatant, end)
    # a benny re-rolls a roll of this turn only (docs/rules/savage.md «Переброс»)
    return _R(state, current=None if state.current == e.combatant else state.current, rolls=())


@_on(RoundEnded)
def _round_ended(state: Encounter, e: RoundEnded) -> Encounter:
    cards = [c.card for c in state.combatants if c.card is not None]
    combatants = tuple(_R(c, card=None) for c in state.combatants)
    return _R(
        state,
        combatants=combatants,
        deck=state.deck.discarded(cards),
        current=None,
        suspended=(),
        queued=(),
        rolls=(),
    )


@_on(TurnQueued)
def _turn_queued(state: Encounter, e: TurnQueued) -> Encounter:
    return _R(state, queued=(*state.queued, e.combatant))


@_on(HoldTaken)
def _hold_taken(state: Encounter, e: HoldTaken) -> Encounter:
    # The turn was not taken: the acting turn comes later, from Hold, and durations
    # "until the end of its next turn" wait for that one.
    state = _members(
        state,
        e.combatant,
        lambda m: m.with_status(turns_started=m.status.turns_started - 1, **_TURN_RESET),
    )
    state = state.update_combatant(e.combatant, lambda c: _R(c, hold=True, acted=False))
    return _R(state, current=None if state.current == e.combatant else state.current)


@_on(HoldLost)
def _hold_lost(state: Encounter, e: HoldLost) -> Encounter:
    queued = tuple(x for x in state.queued if x != e.combatant)  # its turn went with the Hold
    state = _R(state, queued=queued)
    return state.update_combatant(e.combatant, lambda c: _R(c, hold=False, acted=True))


@_on(Interrupted)
def _interrupted(state: Encounter, e: Interrupted) -> Encounter:
    if e.rolls:  # the opposed Athletics are the last rolls of both sides: not re-rollable
        ids = {m.id for c in (e.combatant, e.target) for m in state.combatant(c).members}
        state = _R(state, rolls=tuple(r for r in state.rolls if r.character not in ids))
    state = state.update_combatant(e.combatant, lambda c: _R(c, hold=False))
    if e.winner == e.combatant:
        suspended = state.suspended + ((e.target,) if state.current == e.target else ())
        return _R(state, current=None, suspended=suspended)
    return _R(state, queued=(*state.queued, e.combatant))


@_on(ActionsDeclared)
def _declared(state: Encounter, e: ActionsDeclared) -> Encounter:
    return _status(state, e.character, actions_declared=e.count)


@_on(ChaseActionsCounted)
def _chase_actions(state: Encounter, e: ChaseActionsCounted) -> Encounter:
    declared = max(state.character(e.character).status.actions_declared, e.declared)
    return _status(state, e.character, actions_declared=declared, chase_actions=e.used)


# --- rolls and states -----------------------------------------------------------------


@_on(Rolled)
def _rolled(state: Encounter, e: Rolled) -> Encounter:
    labels = {m.label for m in e.result.modifiers}

    def apply(c: Character) -> Character:
        if e.action:
            c = c.with_status(actions_used=c.status.actions_used + 1, rolled=True)
        if "support" in labels:
            c = _without_support_for(c, e.trait)
        if labels & {"aim", "aim_ignore"}:
            c = _without(c, "aim")
        return c

    state = _char(state, e.character, apply)
    return _R(state, rolls=_remember(state, e, labels))


def _helps(roll: Rolled | LastRoll) -> str:
    """The trait a Support roll helps ("" = any)."""
    return roll.follow.effect if roll.follow is not None else ""


def _remember(state: Encounter, e: Rolled, labels: set[str]) -> tuple[LastRoll, ...]:
    """The character's roll replaces its last one; a Support bonus used by this roll
    closes the supporter's roll; a resisting roll gives the Test its opposed total."""
    base: int | None = None
    if e.purpose == "support" and e.target:
        base = support_value(state.character(e.target).status, _helps(e))
    rolls = []
    for r in state.rolls:
        if r.character == e.character:
            continue
        if r.purpose == "support" and (
            ("support" in labels and r.target == e.character and _helps(r) in ("", e.trait))
            or (e.purpose == "support" and r.target == e.target and _helps(r) == _helps(e))
        ):  # the bonus is used, or another Support of that trait adds on
            r = _R(r, closed=True)
        if e.purpose == "resist" and r.purpose == "test" and r.character == e.target:
            r = _R(r, base=e.result.total)
        rolls.append(r)
    record = LastRoll(
        e.character, e.purpose, e.trait, e.result, e.step, e.target, e.follow, base=base
    )
    return (*rolls, record)


@_on(Rerolled)
def _rerolled(state: Encounter, e: Rerolled) -> Encounter:
    kept = e.result if e.kept == "new" else e.previous
    rolls = tuple(
        _R(r, result=kept, step=e.step) if r.character == e.character else r for r in state.rolls
    )
    return _R(state, rolls=rolls)


@_on(DamageRolled)
def _damage_rolled(state: Encounter, e: DamageRolled) -> Encounter:
    if not e.attacker:
        return state
    rolls = tuple(
        _R(r, closed=True) if r.character == e.attacker and r.purpose == "attack" else r
        for r in state.rolls
    )
    return _R(state, rolls=rolls)


@_on(DamagePending)
def _pending(state: Encounter, e: DamagePending) -> Encounter:
    return _R(state, pending=PendingDamage(e.character, e.wounds, e.shaken))


@_on(DamageSoaked)
def _soaked(state: Encounter, e: DamageSoaked) -> Encounter:
    p = state.pending
    assert p is not None and p.character == e.character
    return _R(state, pending=_R(p, soaked=e.soaked, attempts=p.attempts + 1))


@_on(DamageApplied)
def _applied(state: Encounter, e: DamageApplied) -> Encounter:
    def apply(c: Character) -> Character:
        limit = 3 if c.wild else 1
        wounds = min(limit, c.status.wounds + e.wounds)
        shaken = False if e.clear_shaken else (c.status.shaken or e.shaken or e.wounds > 0)
        return c.with_status(wounds=wounds, shaken=shaken)

    pending = state.pending
    if pending is not None and pending.character == e.character:
        pending = None
    return _R(_char(state, e.character, apply), pending=pending)


@_on(Incapacitated)
def _incapacitated(state: Encounter, e: Incapacitated) -> Encounter:
    def apply(c: Character) -> Character:
        injuries = c.status.injuries + ((e.injury,) if e.injury else ())
        return c.with_status(
            incapacitated=True,
            dead=c.status.dead or e.outcome == "dead",
            bleeding_out=e.outcome == "bleeding_out"
            or (c.status.bleeding_out and e.outcome != "dead"),
            injuries=injuries,
        )

    return _char(state, e.character, apply)


@_on(BleedingOutResolved)
def _bleeding(state: Encounter, e: BleedingOutResolved) -> Encounter:
    if e.outcome == "dead":
        return _status(state, e.character, dead=True, bleeding_out=False)
    if e.outcome == "stable":
        return _status(state, e.character, bleeding_out=False)
    return state


@_on(ShakenSet)
def _shaken(state: Encounter, e: ShakenSet) -> Encounter:
    return _status(state, e.character, shaken=True)


@_on(ShakenRemoved)
def _unshaken(state: Encounter, e: ShakenRemoved) -> Encounter:
    # a benny removes Shaken at any time (line 69): the turn is no longer free-actions-only
    return _status(state, e.character, shaken=False, free_only=False)


@_on(FreeActionsOnly)
def _free_only(state: Encounter, e: FreeActionsOnly) -> Encounter:
    return _status(state, e.character, free_only=True)


@_on(StunnedSet)
def _stunned(state: Encounter, e: StunnedSet) -> Encounter:
    return _status(state, e.character, stunned=True)


@_on(StunnedRemoved)
def _unstunned(state: Encounter, e: StunnedRemoved) -> Encounter:
    return _status(state, e.character, stunned=False)


@_on(ConditionAdded)
def _condition_added(state: Encounter, e: ConditionAdded) -> Encounter:
    return _char(state, e.character, lambda c: _with_condition(c, e.condition))


@_on(ConditionRemoved)
def _condition_removed(state: Encounter, e: ConditionRemoved) -> Encounter:
    return _char(state, e.character, lambda c: _without(c, e.kind))


@_on(FullTurnTaken)
def _full_turn(state: Encounter, e: FullTurnTaken) -> Encounter:
    return _status(state, e.character, full_turn=e.kind)


@_on(FatigueChanged)
def _fatigue(state: Encounter, e: FatigueChanged) -> Encounter:
    return _status(state, e.character, fatigue=e.level)


@_on(BennySpent)
def _benny_spent(state: Encounter, e: BennySpent) -> Encounter:
    return _char(state, e.character, lambda c: _R(c, bennies=c.bennies - 1))


@_on(BenniesGiven)
def _bennies_given(state: Encounter, e: BenniesGiven) -> Encounter:
    return _char(state, e.character, lambda c: _R(c, bennies=c.bennies + e.count))


@_on(StatusSet)
def _status_set(state: Encounter, e: StatusSet) -> Encounter:
    return _status(state, e.character, **dict(e.changes))
