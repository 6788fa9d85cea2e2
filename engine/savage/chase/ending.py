"""Flee and the end of a chase (seed 001, lines 45-47)."""

from __future__ import annotations

from engine.dice.rng import Rng

from . import commands as c
from . import events as ev
from .base import Log, acting, active, check_modifier, critical_pending, spend_action, standing
from .errors import ChaseError
from .maneuver import maneuver_roll
from .model import ChaseState
from .queries import nearest_opponent_distance
from .rules import FLEE_MIN_DISTANCE, GM_END_REASONS, flee_modifier


def flee(log: Log, cmd: c.Flee, rng: Rng) -> None:
    s = log.state
    p, t = acting(s, cmd.participant)
    spend_action(p, t)  # seed 001, line 45: «Отрыв (Flee) — действие»
    distance = nearest_opponent_distance(s, p.id)
    if distance is None:
        raise ChaseError("no_opponents", participant=p.id)
    flee_mod = flee_modifier(distance)  # seed 001, lines 45-46
    if flee_mod is None:
        raise ChaseError("flee_too_close", required=FLEE_MIN_DISTANCE, distance=distance)
    mods = [("flee", flee_mod), *standing(s, p, free=False, extra_action=True)]
    mods.append(("modifier", check_modifier(cmd.modifier)))
    roll = maneuver_roll(p, mods, rng)
    log.emit(
        ev.FleeRolled,
        participant=p.id,
        distance=distance,
        roll=roll,
        escaped=roll.success,
        pending=critical_pending(log, p, roll),
    )


def take_out(log: Log, cmd: c.TakeOutOfAction, rng: Rng) -> None:
    p = active(log.state, cmd.participant)
    log.emit(ev.TakenOutOfAction, participant=p.id)


def stop_side(log: Log, cmd: c.StopSide, rng: Rng) -> None:
    if cmd.side not in log.state.sides():
        raise ChaseError("unknown_side", side=cmd.side)
    log.emit(ev.ChaseEnded, reason="side_stopped", side=cmd.side)


def end_chase(log: Log, cmd: c.EndChase, rng: Rng) -> None:
    if cmd.reason not in GM_END_REASONS:
        raise ChaseError("bad_end_reason", reasons=list(GM_END_REASONS))
    if cmd.side is not None and cmd.side not in log.state.sides():
        raise ChaseError("unknown_side", side=cmd.side)
    log.emit(ev.ChaseEnded, reason=cmd.reason, side=cmd.side)


def check_end(log: Log) -> None:
    """Seed 001, lines 46-47: the chase ends by itself when this command left at most one
    side with anyone still in it; the side that just emptied names the reason."""
    s = log.state
    if s.ended is not None or s.round == 0:
        return
    remaining = {p.side for p in s.participants if p.active}
    emptied = [x for x in _active_sides(log.initial) if x not in remaining]
    if len(remaining) >= 2 or not emptied:
        return
    side = emptied[0]
    escaped = any(
        isinstance(e, ev.FleeRolled) and e.escaped and s.participant(e.participant).side == side
        for e in log.events
    )
    log.emit(ev.ChaseEnded, reason="escaped" if escaped else "out_of_action", side=side)


def _active_sides(s: ChaseState) -> list[str]:
    return list(dict.fromkeys(p.side for p in s.participants if p.active))
