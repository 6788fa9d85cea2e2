"""Rounds and turns; the Complication a Clubs action card triggers (seed 001, 21-30)."""

from __future__ import annotations

from engine.dice.rng import Rng

from . import commands as c
from . import events as ev
from .base import Log, acting, active, standing
from .errors import ChaseError
from .maneuver import maneuver_roll
from .model import Participant, Pending
from .options import JOKER_SUCCESS_SHIFT
from .rules import COMPLICATIONS, CRITICAL, MAX_ACTIONS, SHIFT_TWO, critical_choices, suit_of


def start_round(log: Log, cmd: c.StartRound, rng: Rng) -> None:
    s = log.state
    if len({p.side for p in s.participants if p.active}) < 2:
        raise ChaseError("need_two_sides")
    limit = s.options.round_limit
    if limit is not None and s.round >= limit:  # seed 001, line 47: the GM's round limit
        log.emit(ev.ChaseEnded, reason="round_limit", side=None)
        return
    log.emit(ev.RoundStarted, round=s.round + 1)


def start_turn(log: Log, cmd: c.StartTurn, rng: Rng) -> None:
    s = log.state
    if s.round == 0:
        raise ChaseError("no_round")
    p = active(s, cmd.participant)
    if s.turn(p.id) is not None:
        raise ChaseError("turn_in_progress", participant=p.id)
    log.emit(ev.TurnStarted, participant=p.id, action_card=cmd.action_card)
    # Seed 001, line 21: a Clubs action card -> an immediate free maneuvering roll. Members
    # of a group do not roll: their driver or leader moves them (line 8).
    card = cmd.action_card
    if card is not None and not card.is_joker and card.suit == "clubs" and p.leader is None:
        complication(log, p, rng)


def complication(log: Log, p: Participant, rng: Rng) -> None:
    s = log.state
    chase_card = s.row[p.position]
    suit = suit_of(chase_card)
    suit_mod, failure = COMPLICATIONS[suit]
    mods = [("complication", suit_mod), *standing(s, p, free=True)]
    roll = maneuver_roll(p, mods, rng)
    pid = log.pending_id()
    lucky = s.options.joker_complication == JOKER_SUCCESS_SHIFT and failure == SHIFT_TWO
    pending: Pending | None = None
    if roll.critical_failure or (not roll.success and failure == CRITICAL):
        result = CRITICAL
        pending = Pending(pid, "critical", p.id, choices=critical_choices(p.movement))
    elif roll.success:
        result = "passed"
        if lucky:  # the other reading of line 28: a lucky break, move up to two cards
            result, pending = "lucky_shift", Pending(pid, "shift", p.id, max_cards=2)
    elif lucky:
        result = "no_effect"
    else:  # Hearts/Diamonds: one card; Joker: up to two (line 28), opponents choose (line 35)
        result = failure
        pending = Pending(pid, "bump", p.id, max_cards=2 if failure == SHIFT_TWO else 1)
    log.emit(
        ev.ComplicationRolled,
        participant=p.id,
        chase_card=chase_card,
        roll=roll,
        result=result,
        pending=pending,
    )


def declare_actions(log: Log, cmd: c.DeclareActions, rng: Rng) -> None:
    """Seed 000 line 27: «заявить до трёх действий … объявляет их до первого броска»."""
    _, t = acting(log.state, cmd.participant, mover=False)
    if not 1 <= cmd.count <= MAX_ACTIONS:
        raise ChaseError("bad_actions", min=1, max=MAX_ACTIONS, used=t.actions_taken)
    if t.actions_taken:
        raise ChaseError("actions_already_declared", participant=cmd.participant)
    log.emit(ev.ActionsDeclared, participant=cmd.participant, count=cmd.count)


def count_fight_actions(log: Log, cmd: c.CountFightActions, rng: Rng) -> None:
    t = log.state.turn(active(log.state, cmd.participant).id)
    if t is None:
        raise ChaseError("no_turn", participant=cmd.participant)
    if not 1 <= cmd.declared <= MAX_ACTIONS or not 0 <= cmd.used <= MAX_ACTIONS:
        raise ChaseError("bad_actions", min=1, max=MAX_ACTIONS, used=cmd.used)
    if (max(t.declared_actions, cmd.declared), cmd.used) != (t.declared_actions, t.fight_actions):
        log.emit(
            ev.FightActionsCounted,
            participant=cmd.participant,
            declared=cmd.declared,
            used=cmd.used,
        )


def end_turn(log: Log, cmd: c.EndTurn, rng: Rng) -> None:
    p = active(log.state, cmd.participant)
    if log.state.turn(p.id) is None:
        raise ChaseError("no_turn", participant=p.id)
    log.emit(ev.TurnEnded, participant=p.id)
