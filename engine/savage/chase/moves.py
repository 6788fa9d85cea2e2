"""Change Position, dropping back, Bump and pending choices (seed 001, lines 14-37)."""

from __future__ import annotations

from engine.dice.rng import Rng

from . import commands as c
from . import events as ev
from .base import (
    Log,
    acting,
    active,
    check_cards,
    check_direction,
    check_modifier,
    critical_pending,
    move,
    spend_action,
    standing,
)
from .errors import ChaseError
from .maneuver import maneuver_roll
from .rules import CHANGE_POSITION_ACTION_BONUS


def change_position(log: Log, cmd: c.ChangePosition, rng: Rng) -> None:
    s = log.state
    p, t = acting(s, cmd.participant)
    check_direction(cmd.direction)
    check_cards(cmd.max_cards, 1, 2)
    if t.changed_position:  # seed 001, lines 14-15: once per turn
        raise ChaseError("already_changed_position", participant=p.id)
    if t.dropped_back:  # seed 001, line 16
        raise ChaseError("dropped_back", participant=p.id)
    if cmd.as_action:  # line 15: «учитывается как действие при штрафе за несколько действий»
        spend_action(p, t)
    mods = list(standing(s, p, free=not cmd.as_action, extra_action=cmd.as_action))
    if cmd.as_action:  # seed 001, line 15: +2 as an ordinary action
        mods.insert(0, ("change_position_action", CHANGE_POSITION_ACTION_BONUS))
    mods.append(("modifier", check_modifier(cmd.modifier)))
    roll = maneuver_roll(p, mods, rng)
    cards = 0 if not roll.success else min(cmd.max_cards, 1 if roll.raises == 0 else 2)
    log.emit(
        ev.PositionChangeRolled,
        participant=p.id,
        as_action=cmd.as_action,
        direction=cmd.direction,
        roll=roll,
        cards=cards,
        pending=critical_pending(log, p, roll),
    )
    move(log, p.id, p.position + cmd.direction * cards, "change_position")


def drop_back(log: Log, cmd: c.DropBack, rng: Rng) -> None:
    s = log.state
    if not s.options.linear:
        raise ChaseError("not_linear")
    p, t = acting(s, cmd.participant)
    check_cards(cmd.cards, 1, 2)
    if t.changed_position:
        raise ChaseError("already_changed_position", participant=p.id)
    if t.dropped_back:
        raise ChaseError("dropped_back", participant=p.id)
    log.emit(ev.DroppedBack, participant=p.id, cards=cmd.cards)
    move(log, p.id, p.position - cmd.cards, "drop_back")


def bump(log: Log, cmd: c.Bump, rng: Rng) -> None:
    s = log.state
    attacker, t = acting(s, cmd.attacker, mover=False)
    target = active(s, cmd.target)
    check_direction(cmd.direction)
    if attacker.id == target.id:
        raise ChaseError("bump_self")
    if attacker.side == target.side:
        raise ChaseError("bump_own_side", attacker=attacker.id, target=target.id)
    unit = s.participant(target.leader) if target.leader else target  # line 37: the group
    if unit.id in t.bumped:  # line 36: one card per target per attacker's turn
        raise ChaseError("bump_limit", attacker=attacker.id, target=unit.id)
    log.emit(
        ev.Bumped, attacker=attacker.id, target=target.id, unit=unit.id, direction=cmd.direction
    )
    move(log, unit.id, unit.position + cmd.direction, "bump")


def resolve_bump(log: Log, cmd: c.ResolveBump, rng: Rng) -> None:
    s = log.state
    pending = s.pending_by_id(cmd.pending)
    if pending is None or pending.kind not in ("bump", "shift"):
        raise ChaseError("unknown_pending", pending=cmd.pending)
    target = s.participant(pending.target)
    check_direction(cmd.direction)
    # Seed 001, line 34: «Сдвиг … перемещает цель на одну Карту погони» — a Bump moves the
    # target (the opposing side picks only the direction, line 35); a lucky shift of the
    # participant itself may stay put.
    check_cards(cmd.cards, 1 if pending.kind == "bump" else 0, pending.max_cards)
    if cmd.chooser is not None:
        chooser = active(s, cmd.chooser)
        # An indirect Bump: the opposing side chooses (line 35); a shift: the participant.
        if pending.kind == "bump" and chooser.side == target.side:
            raise ChaseError("not_opposing_side", chooser=chooser.id, target=target.id)
        if pending.kind == "shift" and chooser.id != target.id:
            raise ChaseError("bad_choice", choices=[target.id])
    log.emit(
        ev.PendingMoveResolved,
        pending=pending.id,
        chooser=cmd.chooser,
        direction=cmd.direction,
        cards=cmd.cards,
    )
    cause = "bump" if pending.kind == "bump" else "shift"
    unit = target.leader or target.id
    move(log, unit, s.participant(unit).position + cmd.direction * cmd.cards, cause)


def resolve_critical(log: Log, cmd: c.ResolveCriticalFailure, rng: Rng) -> None:
    pending = log.state.pending_by_id(cmd.pending)
    if pending is None or pending.kind != "critical":
        raise ChaseError("unknown_pending", pending=cmd.pending)
    if cmd.choice not in pending.choices:
        raise ChaseError("bad_choice", choices=list(pending.choices))
    log.emit(
        ev.CriticalFailureResolved,
        pending=pending.id,
        choice=cmd.choice,
        participant=pending.target,
    )
