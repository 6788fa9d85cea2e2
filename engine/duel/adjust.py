"""The GM's changes to a proposal before it is published, each with its reason («GM is in
control»): a roll's outcome (the turn is resolved again with the changed die) or a value of
a fighter after the turn. The sealed submissions stay as they were sent (their receipts must
check out); the changes are listed in ``Proposal.adjustments`` and shown in the post."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.dice.results import Die
from engine.duel.roll import DuelCheckResult

from .combatant import FighterState
from .errors import DuelError
from .proposal import Proposal, Step
from .resolve import resolve_turn
from .state import DuelState
from .submission import Submission

# what the GM may set on a fighter after the turn
FIELDS: dict[str, type] = {
    "hp": int,
    "sp": int,
    "exhausted_turns": int,
    "bleeding_turns": int,
    "standing_up": bool,
    "lost_actions": int,
    "extra_actions": int,
    "attack_bonus": int,
    "defense_bonus": int,
}


def _with_face(check: DuelCheckResult, face: int) -> DuelCheckResult:
    total = face + sum(m.value for m in check.modifiers)
    critical = "success" if face == 10 else "failure" if face == 1 else None
    success = None
    if check.target is not None:
        success = critical == "success" or (critical is None and total >= check.target)
    return replace(check, die=Die(10, face), total=total, critical=critical, success=success)


def _changed(sub: Submission, action: int, check: int, face: int) -> tuple[Submission, int]:
    try:
        roll = sub.rolls[action]
        was = roll.checks[check].die.value
    except IndexError:
        raise DuelError("bad_dice") from None
    checks = list(roll.checks)
    checks[check] = _with_face(checks[check], face)
    rolls = list(sub.rolls)
    rolls[action] = replace(roll, checks=tuple(checks))
    return replace(sub, rolls=tuple(rolls)), was


def set_roll(
    state: DuelState,
    proposal: Proposal,
    fighter: str,
    action: int,
    face: int,
    reason: str,
    check: int = 0,
) -> Proposal:
    """The d10 of ``fighter``'s action ``action`` (counted from 0; ``check`` 1: the second
    roll of full defense) shows ``face``: the turn is resolved again; the GM's earlier value
    changes are kept."""
    if not 1 <= face <= 10:
        raise DuelError("bad_dice")
    subs = list(proposal.submissions)
    index = next((i for i, s in enumerate(subs) if s.fighter == fighter), None)
    if index is None:
        raise DuelError("unknown_fighter", {"fighter": fighter})
    # resolve from the rolls as already adjusted
    current = [_adjusted(s, proposal.adjustments) for s in subs]
    current[index], was = _changed(current[index], action, check, face)
    again = resolve_turn(state, current[0], current[1])
    note = Step(
        "adjusted_roll",
        "gm",
        fighter,
        {"action": action + 1, "check": check, "face": face, "was": was, "reason": reason[:200]},
    )
    out = replace(
        again, submissions=proposal.submissions, adjustments=(*proposal.adjustments, note)
    )
    for a in proposal.adjustments:  # the values the GM set stay set
        if a.code == "adjusted_value":
            out = replace(
                out, after=_set(out.after, a.fighter, a.params["field"], a.params["value"])
            )
    return out


def adjusted(sub: Submission, adjustments: tuple[Step, ...]) -> Submission:
    """The submission with the GM's changed dice (what the turn was resolved with): the
    post, the review and its buttons show these faces, the adjustment lines the sealed ones
    («на d10 выпало 10 (было 7): причина»); the receipt is of the sealed submission."""
    return _adjusted(sub, adjustments)


def _adjusted(sub: Submission, adjustments: tuple[Step, ...]) -> Submission:
    for a in adjustments:
        if a.code == "adjusted_roll" and a.fighter == sub.fighter:
            sub, _ = _changed(sub, a.params["action"] - 1, a.params["check"], a.params["face"])
    return sub


def _set(
    after: tuple[FighterState, FighterState], fighter: str, field: str, value: Any
) -> tuple[FighterState, FighterState]:
    # `value: Any`: its type is the named field's, checked against FIELDS by `set_value`
    a, b = (replace(f, **{field: value}) if f.id == fighter else f for f in after)
    return (a, b)


def set_value(
    proposal: Proposal, fighter: str, field: str, value: int | bool, reason: str
) -> Proposal:
    """A fighter's value after the turn (HP, SP, states) as the GM decides."""
    kind = FIELDS.get(field)
    if kind is None or type(value) is not kind:
        raise DuelError("bad_adjustment", {"field": field[:40]})
    if not any(f.id == fighter for f in proposal.after):
        raise DuelError("unknown_fighter", {"fighter": fighter})
    was = getattr(proposal.after_of(fighter), field)
    note = Step(
        "adjusted_value",
        "gm",
        fighter,
        {"field": field, "value": value, "was": was, "reason": reason[:200]},
    )
    return replace(
        proposal,
        after=_set(proposal.after, fighter, field, value),
        adjustments=(*proposal.adjustments, note),
    )
