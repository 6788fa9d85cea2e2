"""``decide(state, command, rng) -> events``: checks a command against the rules and turns it
into events. The only place that draws random numbers (the chase deck and maneuvering rolls).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.dice.rng import Rng

from . import commands as c
from . import events as ev
from .base import Log
from .ending import check_end, end_chase, flee, stop_side, take_out
from .errors import ChaseError
from .model import ChaseState
from .moves import bump, change_position, drop_back, resolve_bump, resolve_critical
from .setup import (
    add_participant,
    join_group,
    lay_cards,
    leave_group,
    place,
    set_health,
    set_modifier,
    set_round_limit,
    start_chase,
)
from .turns import count_fight_actions, declare_actions, end_turn, start_round, start_turn


def decide(state: ChaseState, command: c.Command, rng: Rng) -> tuple[ev.Event, ...]:
    log = Log(state)
    if isinstance(command, c.StartChase):
        start_chase(log, command, rng)
        return tuple(log.events)
    if not state.started:
        raise ChaseError("not_started")
    if state.ended is not None:
        raise ChaseError("chase_over")
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise TypeError(f"not a chase command: {command!r}")
    handler(log, command, rng)
    check_end(log)
    return tuple(log.events)


# Each handler takes its own command class; the dict cannot tie a value's parameter to its key.
_HANDLERS: dict[type[c.Command], Callable[[Log, Any, Rng], None]] = {
    c.LayCards: lay_cards,
    c.AddParticipant: add_participant,
    c.PlaceParticipant: place,
    c.SetModifier: set_modifier,
    c.SetHealth: set_health,
    c.JoinGroup: join_group,
    c.LeaveGroup: leave_group,
    c.SetRoundLimit: set_round_limit,
    c.StartRound: start_round,
    c.StartTurn: start_turn,
    c.DeclareActions: declare_actions,
    c.CountFightActions: count_fight_actions,
    c.EndTurn: end_turn,
    c.ChangePosition: change_position,
    c.DropBack: drop_back,
    c.Bump: bump,
    c.ResolveBump: resolve_bump,
    c.ResolveCriticalFailure: resolve_critical,
    c.Flee: flee,
    c.TakeOutOfAction: take_out,
    c.StopSide: stop_side,
    c.EndChase: end_chase,
}
