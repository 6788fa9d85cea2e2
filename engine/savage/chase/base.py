"""Shared pieces of ``decide``: the event collector and the rule checks."""

from __future__ import annotations

from . import events as ev
from .errors import ChaseError
from .evolve import evolve
from .model import ChaseState, Participant, Pending, TurnState
from .roll import ManeuverRoll
from .rules import JOKER_BONUS, MAX_MODIFIER, critical_choices, multi_action_penalty


class Log:
    """Collects the events of one command and keeps the state they lead to."""

    def __init__(self, state: ChaseState) -> None:
        self.initial = self.state = state
        self.step = state.step + 1
        self.events: list[ev.Event] = []

    def emit(self, cls: type[ev.Event], **fields: object) -> None:
        event = cls(step=self.step, **fields)
        self.events.append(event)
        self.state = evolve(self.state, event)

    def pending_id(self) -> str:
        return f"{self.step}.{len(self.events)}"


def active(s: ChaseState, pid: str) -> Participant:
    p = s.participant(pid)
    if not p.active:
        raise ChaseError("not_active", participant=pid)
    return p


def active_mover(s: ChaseState, pid: str) -> Participant:
    p = active(s, pid)
    if p.leader is not None:  # seed 001, line 8: the driver or leader moves the group
        raise ChaseError("moved_by_leader", participant=pid, leader=p.leader)
    return p


def acting(s: ChaseState, pid: str, *, mover: bool = True) -> tuple[Participant, TurnState]:
    """The participant in its own open turn, able to act."""
    p = active_mover(s, pid) if mover else active(s, pid)
    t = s.turn(pid)
    if t is None:
        raise ChaseError("no_turn", participant=pid)
    if t.lost:
        raise ChaseError("turn_lost", participant=pid)
    if any(x.kind == "critical" and x.target == pid for x in s.pending):
        raise ChaseError("pending_choice", participant=pid)
    return p, t


def spend_action(p: Participant, t: TurnState) -> None:
    """Seed 000 lines 27-29: the turn's actions are declared before the first roll; one more
    than declared (or a fourth) is refused. Fight actions of the same turn count too."""
    if t.actions_taken >= t.declared_actions:
        raise ChaseError("too_many_actions", participant=p.id, declared=t.declared_actions)


def leader_for(s: ChaseState, pid: str, leader_id: str, side: str) -> Participant:
    leader = s.find(leader_id)
    if leader is None or leader_id == pid or leader.leader is not None or not leader.active:
        raise ChaseError("bad_leader", leader=leader_id, participant=pid)
    if leader.side != side:
        raise ChaseError("bad_leader", leader=leader_id, participant=pid)
    return leader


def check_position(s: ChaseState, position: int) -> None:
    if not 0 <= position < len(s.row):
        raise ChaseError("bad_position", position=position, last=len(s.row) - 1)


def check_direction(direction: int) -> None:
    if direction not in (1, -1):
        raise ChaseError("bad_direction")


def check_cards(cards: int, low: int, high: int) -> None:
    if not low <= cards <= high:
        raise ChaseError("bad_cards", min=low, max=high)


def check_modifier(modifier: int) -> int:
    if abs(modifier) > MAX_MODIFIER:
        raise ChaseError("bad_modifier", max=MAX_MODIFIER)
    return modifier


def standing(
    s: ChaseState, p: Participant, *, free: bool, extra_action: bool = False
) -> list[tuple[str, int]]:
    """Modifiers every maneuvering roll of ``p`` carries now."""
    # Seed 000, line 3: Wounds follow standard SWADE — line 73, −1 per Wound to trait rolls,
    # at most −3; line 79: −1 per Fatigue level. A maneuvering roll is a trait roll.
    mods = [("standing", p.modifier), ("wounds", p.wound_penalty), ("fatigue", -p.fatigue)]
    t = s.turn(p.id)
    if t is not None and t.action_card is not None and t.action_card.is_joker:  # seed 000, line 14
        mods.append(("joker", JOKER_BONUS))
    if t is not None and (not free or s.options.multi_action_on_free_rolls):
        actions = max(t.declared_actions, t.actions_used + int(extra_action))
        mods.append(("multi_action", multi_action_penalty(actions)))
    return [(label, value) for label, value in mods if value]


def critical_pending(log: Log, p: Participant, roll: ManeuverRoll) -> Pending | None:
    """A critical failure of any maneuvering roll: the GM picks the consequence (line 30)."""
    if not roll.critical_failure:
        return None
    return Pending(log.pending_id(), "critical", p.id, choices=critical_choices(p.movement))


def move(log: Log, unit: str, position: int, cause: str) -> None:
    """Move a unit; a move past either end of the row stops at the last card."""
    s = log.state
    position = max(0, min(len(s.row) - 1, position))
    if position != s.participant(unit).position:
        log.emit(ev.Moved, participant=unit, position=position, cause=cause)
