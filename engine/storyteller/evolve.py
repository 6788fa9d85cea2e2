"""``evolve(fight, event) -> fight``: applies one event; ``replay`` folds a log."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from functools import reduce
from typing import Any, TypeVar

from . import events as ev
from .fight import Fight
from .initiative import Turn

_R = dataclasses.replace
# (the state, an event of the handler's class) -> the state after it
_HANDLERS: dict[type[ev.Event], Callable[[Fight, Any], Fight]] = {}
H = TypeVar("H", bound=Callable[[Fight, Any], Fight])


def _on(cls: type[ev.Event]) -> Callable[[H], H]:
    def register(fn: H) -> H:
        _HANDLERS[cls] = fn
        return fn

    return register


def evolve(state: Fight, event: ev.Event) -> Fight:
    new = _HANDLERS[type(event)](state, event)
    return new if new.step == event.step else _R(new, step=event.step)


def replay(events: Iterable[ev.Event], initial: Fight | None = None) -> Fight:
    return reduce(evolve, events, initial if initial is not None else Fight())


def undo(events: Iterable[ev.Event]) -> tuple[ev.Event, ...]:
    """The log without its last step."""
    log = tuple(events)
    if not log:
        return log
    last = log[-1].step
    return tuple(e for e in log if e.step != last)


def _turn(state: Fight, fn: Callable[[Turn], Turn]) -> Fight:
    assert state.turn is not None
    return _R(state, turn=fn(state.turn))


def _mark_done(state: Fight, fid: str) -> Fight:
    if state.turn is None or state.turn.done(fid):
        return state
    return _turn(state, lambda t: _R(t, acted=(*t.acted, fid)))


@_on(ev.FighterAdded)
def _added(state: Fight, e: ev.FighterAdded) -> Fight:
    return _R(state, fighters=(*state.fighters, e.fighter))


@_on(ev.FighterRemoved)
def _removed(state: Fight, e: ev.FighterRemoved) -> Fight:
    state = _mark_done(state, e.fighter)
    return _R(state, fighters=tuple(f for f in state.fighters if f.id != e.fighter))


@_on(ev.AmbushRolled)
def _ambushed(state: Fight, e: ev.AmbushRolled) -> Fight:
    return _R(state, ambush=e.pending)


@_on(ev.TurnStarted)
def _started(state: Fight, e: ev.TurnStarted) -> Fight:
    fighters = tuple(
        _R(f, actions=1, actions_used=0, full_defense=False, defenses=0) for f in state.fighters
    )
    dice = dict(state.initiative_dice)
    for r in e.rolls:
        dice.setdefault(r.fighter, r.die)
    return _R(
        state,
        round=e.round,
        turn=Turn(e.rolls),
        fighters=fighters,
        ambush=None,
        initiative_dice=tuple(dice.items()),
    )


@_on(ev.TurnEnded)
def _ended(state: Fight, e: ev.TurnEnded) -> Fight:
    return _R(state, turn=None)


@_on(ev.ActionsDeclared)
def _declared(state: Fight, e: ev.ActionsDeclared) -> Fight:
    return state.replace_fighter(e.fighter, actions=e.count)


@_on(ev.Delayed)
def _delayed(state: Fight, e: ev.Delayed) -> Fight:
    return _turn(state, lambda t: _R(t, delayed=(*t.delayed, e.fighter)))


@_on(ev.Yielded)
def _yielded(state: Fight, e: ev.Yielded) -> Fight:
    return _turn(state, lambda t: _R(t, yielded=(*t.yielded, e.fighter)))


@_on(ev.FullDefenseDeclared)
def _full(state: Fight, e: ev.FullDefenseDeclared) -> Fight:
    return state.replace_fighter(e.fighter, full_defense=True)


@_on(ev.Acted)
def _acted(state: Fight, e: ev.Acted) -> Fight:
    def done(t: Turn) -> Turn:
        delayed = tuple(f for f in t.delayed if f != e.fighter)
        acted = t.acted if t.done(e.fighter) else (*t.acted, e.fighter)
        return _R(t, acted=acted, delayed=delayed)

    return _turn(state, done)


@_on(ev.InterruptRolled)
def _interrupt(state: Fight, e: ev.InterruptRolled) -> Fight:
    if not e.success or state.turn is None:
        return state

    def gave_up(t: Turn) -> Turn:
        delayed = tuple(f for f in t.delayed if f != e.fighter)
        return _R(t, gave_up=(*t.gave_up, e.fighter), delayed=delayed)

    return _turn(state, gave_up)


@_on(ev.WillpowerSpent)
def _spent(state: Fight, e: ev.WillpowerSpent) -> Fight:
    c = state.fighter(e.fighter).character
    return state.replace_fighter(
        e.fighter, character=_R(c, willpower_points=c.willpower_points - 1)
    )


@_on(ev.AttackResolved)
def _attacked(state: Fight, e: ev.AttackResolved) -> Fight:
    for hurt in (e.damage, e.counter):
        if hurt is None:
            continue
        c = state.fighter(hurt.victim).character
        c = _R(c, health=hurt.marks, armor=None if hurt.armor_destroyed else c.armor)
        state = state.replace_fighter(hurt.victim, character=c)
    if state.turn is not None:
        a = state.fighter(e.attacker)
        state = state.replace_fighter(e.attacker, actions_used=a.actions_used + 1)
        target = state.fighter(e.target)
        if e.defense_source == "full":
            state = state.replace_fighter(e.target, defenses=target.defenses + 1)
        elif e.defense_source == "actions":
            state = state.replace_fighter(e.target, actions_used=target.actions_used + 1)
    elif state.ambush is not None and state.ambush.attacker == e.attacker:
        state = _R(state, ambush=None)
    return state


@_on(ev.Incapacitated)
def _incapacitated(state: Fight, e: ev.Incapacitated) -> Fight:
    if e.keeps_action and state.turn is not None:
        return _turn(state, lambda t: _R(t, last_action=(*t.last_action, e.fighter)))
    return _mark_done(state, e.fighter)


@_on(ev.Died)
def _died(state: Fight, e: ev.Died) -> Fight:
    return _mark_done(state.replace_fighter(e.fighter, dead=True), e.fighter)


@_on(ev.AttackProposed)
def _proposed(state: Fight, e: ev.AttackProposed) -> Fight:
    return _R(state, proposal=e.proposal)


@_on(ev.ProposalDropped)
@_on(ev.ProposalPublished)
def _proposal_gone(state: Fight, e: ev.Event) -> Fight:
    return _R(state, proposal=None)


@_on(ev.Configured)
def _configured(state: Fight, e: ev.Configured) -> Fight:
    return _R(state, options=e.options)
