"""A proposed resolution: each step with the seed rule it applied (rules.py), and both
fighters as they start the next turn. The GM may edit it (``after``, a step's params) before
it is applied; ``apply`` takes it as it is."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.codec import Coded

from .combatant import FighterState
from .submission import Submission


@dataclass(frozen=True, slots=True)
class Sealed:
    """A submission waiting for the turn's resolution, with its receipt («Броски делаем
    скрытно»): the thread sees ``receipt`` only; ``salt`` is revealed on publication."""

    submission: Submission
    salt: str
    receipt: str
    default: bool = False  # the default defense sealed at the deadline (deadline.py)


@dataclass(frozen=True, slots=True)
class Step:
    """``code``: what happened (a ``duel`` description key); ``rule``: why (a key of
    rules.RULES); ``fighter``: whom it concerns; ``params``: JSON-safe numbers and codes."""

    code: str
    rule: str
    fighter: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Proposal(Coded):
    turn: int
    submissions: tuple[Submission, Submission]
    steps: tuple[Step, ...]
    after: tuple[FighterState, FighterState]
    # the GM's changes, each with its reason (the post shows them)
    adjustments: tuple[Step, ...] = ()

    def after_of(self, fighter_id: str) -> FighterState:
        return next(f for f in self.after if f.id == fighter_id)


@dataclass(frozen=True, slots=True)
class Reveal:
    """A receipt and its salt, revealed with the published turn: anyone can check
    ``make_receipt(submission.to_dict(), salt) == receipt`` (engine/receipt.py)."""

    fighter: str
    receipt: str
    salt: str
    default: bool = False  # the default defense sealed at the deadline (the post says so)


@dataclass(frozen=True, slots=True)
class Published:
    """``replaced``: the submissions a fighter changed before both were in, each with the
    receipt the thread saw and its salt — revealed too, so that every receipt checks out."""

    proposal: Proposal
    reveals: tuple[Reveal, ...]
    replaced: tuple[Sealed, ...] = ()
    seed: str = ""  # the turn's dice seed, revealed (dice.py ``verify_dice``)
