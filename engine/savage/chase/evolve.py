"""``evolve(state, event) -> state``: deterministic, no rules checked, no randomness."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from . import events as ev
from .model import ACTIVE, ESCAPED, OUT_OF_ACTION, ChaseEnd, ChaseState, Pending, TurnState
from .rules import FATIGUE_OUT


def evolve(state: ChaseState, event: ev.Event) -> ChaseState:
    state = _apply(state, event)
    return replace(state, step=event.step) if state.step != event.step else state


def replay(events: Iterable[ev.Event], state: ChaseState | None = None) -> ChaseState:
    state = state if state is not None else ChaseState()
    for event in events:
        state = evolve(state, event)
    return state


def last_step(events: Iterable[ev.Event]) -> int:
    return max((e.step for e in events), default=0)


def undo(events: Iterable[ev.Event]) -> tuple[ev.Event, ...]:
    """The log without its last step (every event of the last command)."""
    log = tuple(events)
    last = last_step(log)
    return tuple(e for e in log if e.step != last)


def _apply(s: ChaseState, e: ev.Event) -> ChaseState:
    match e:
        case ev.ChaseStarted(options=options, row=row):
            return replace(s, options=options, row=row)
        case ev.CardsLaid(cards=cards, at="rear"):
            shifted = tuple(replace(p, position=p.position + len(cards)) for p in s.participants)
            return replace(s, row=cards + s.row, participants=shifted)
        case ev.CardsLaid(cards=cards):
            return replace(s, row=s.row + cards)
        case ev.ParticipantAdded(participant=p):
            return replace(s, participants=(*s.participants, p))
        case ev.ModifierSet(participant=pid, modifier=m):
            return s.with_participant(replace(s.participant(pid), modifier=m))
        case ev.HealthSet(participant=pid, wounds=w, fatigue=f, ignored_wounds=ignored):
            p = replace(s.participant(pid), wounds=w, fatigue=f, ignored_wounds=ignored)
            s = s.with_participant(p)
            return _set_status(s, pid, OUT_OF_ACTION) if f >= FATIGUE_OUT and p.active else s
        case ev.GroupJoined(participant=pid, leader=leader):
            pos = s.participant(leader).position
            return s.with_participant(replace(s.participant(pid), leader=leader, position=pos))
        case ev.GroupLeft(participant=pid):
            return s.with_participant(replace(s.participant(pid), leader=None))
        case ev.RoundStarted(round=n):
            return replace(s, round=n, turns=())
        case ev.RoundLimitSet(limit=limit):
            return replace(s, options=s.options.with_round_limit(limit))
        case ev.TurnStarted(participant=pid, action_card=card):
            return replace(s, turns=(*s.turns, TurnState(pid, card)))
        case ev.ActionsDeclared(participant=pid, count=n):
            return s.with_turn(replace(_turn(s, pid), declared_actions=n))
        case ev.FightActionsCounted(participant=pid, declared=n, used=used):
            t = _turn(s, pid)
            return s.with_turn(
                replace(t, declared_actions=max(t.declared_actions, n), fight_actions=used)
            )
        case ev.ComplicationRolled(pending=pending):
            return _add_pending(s, pending)
        case ev.PositionChangeRolled(participant=pid, as_action=as_action, pending=pending):
            t = _turn(s, pid)
            t = replace(t, changed_position=True, actions_used=t.actions_used + int(as_action))
            return _add_pending(s.with_turn(t), pending)
        case ev.DroppedBack(participant=pid):
            return s.with_turn(replace(_turn(s, pid), dropped_back=True))
        case ev.Bumped(attacker=a, unit=unit):
            t = _turn(s, a)
            return s.with_turn(replace(t, bumped=(*t.bumped, unit)))
        case ev.PendingMoveResolved(pending=pid):
            return _drop_pending(s, pid)
        case ev.CriticalFailureResolved(pending=pid, choice=choice):
            return _critical(_drop_pending(s, pid), s.pending_by_id(pid), choice)
        case ev.FleeRolled(participant=pid, escaped=escaped, pending=pending):
            t = _turn(s, pid)
            s = _add_pending(s.with_turn(replace(t, actions_used=t.actions_used + 1)), pending)
            return _set_status(s, pid, ESCAPED) if escaped else s
        case ev.TakenOutOfAction(participant=pid):
            return _set_status(s, pid, OUT_OF_ACTION)
        case ev.Moved(participant=pid, position=pos):
            return replace(
                s,
                participants=tuple(
                    replace(p, position=pos) if pid in (p.id, p.leader) else p
                    for p in s.participants
                ),
            )
        case ev.TurnEnded(participant=pid):
            return replace(s, turns=tuple(t for t in s.turns if t.participant != pid))
        case ev.ChaseEnded(reason=reason, side=side):
            return replace(s, ended=ChaseEnd(reason, side, s.round), turns=())
    raise TypeError(f"unknown chase event {e!r}")


def _turn(s: ChaseState, pid: str) -> TurnState:
    t = s.turn(pid)
    if t is None:
        raise ValueError(f"event for {pid!r} without an open turn")
    return t


def _add_pending(s: ChaseState, pending: Pending | None) -> ChaseState:
    return s if pending is None else replace(s, pending=(*s.pending, pending))


def _drop_pending(s: ChaseState, pending_id: str) -> ChaseState:
    return replace(s, pending=tuple(x for x in s.pending if x.id != pending_id))


def _critical(s: ChaseState, pending: Pending | None, choice: str) -> ChaseState:
    if pending is None:
        raise ValueError("critical failure resolved without a pending choice")
    pid = pending.target
    if choice == "lose_turn":
        t = s.turn(pid)
        return s.with_turn(replace(t, lost=True)) if t else s
    if choice == "fatigue":
        p = s.participant(pid)
        s = s.with_participant(replace(p, fatigue=p.fatigue + 1))
        return _set_status(s, pid, OUT_OF_ACTION) if p.fatigue + 1 >= FATIGUE_OUT else s
    return s  # "out_of_control", "narrated": the GM narrates; nothing to track here


def _set_status(s: ChaseState, pid: str, status: str) -> ChaseState:
    """Escaping takes the whole group along; a leader taken out of action leaves its
    members behind as independent participants."""
    out = []
    for p in s.participants:
        if p.id == pid:
            p = replace(p, status=status)
        elif p.leader == pid and p.status == ACTIVE:
            p = replace(p, status=ESCAPED) if status == ESCAPED else replace(p, leader=None)
        out.append(p)
    gone = {p.id for p in out if p.status != ACTIVE}
    return replace(
        s,
        participants=tuple(out),
        turns=tuple(t for t in s.turns if t.participant not in gone),
        pending=tuple(x for x in s.pending if x.target not in gone),
    )
