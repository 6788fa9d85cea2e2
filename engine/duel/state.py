"""The duel's state between turns: both fighters with what carries over to the next turn.

«Два игрока на ветку, ходят в произвольном порядке, затем резолв и так до победного.»
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from engine.codec import Coded

from .combatant import FighterState
from .errors import DuelError
from .fighter import Fighter
from .options import DEFAULT_OPTIONS, Deadline, DuelOptions
from .proposal import Published, Sealed, Step


@dataclass(frozen=True, slots=True)
class DuelState(Coded):
    fighters: tuple[FighterState, FighterState]
    turn: int = 1
    options: DuelOptions = DEFAULT_OPTIONS
    pending: tuple[Sealed, ...] = ()  # this turn's submissions, the latest of each fighter
    history: tuple[Published, ...] = ()  # the published turns, oldest first
    # this turn's submissions a fighter changed since (revealed with the turn)
    replaced: tuple[Sealed, ...] = ()
    # the GM's changes to this turn's proposal so far, each with its reason (adjust.py)
    adjustments: tuple[Step, ...] = ()
    step: int = 0  # the last event's step
    # the duel's deadline (None: none); ``due``: when this turn's time runs out (seconds since
    # the epoch, the clock a command brought); ``overdue``: that moment has been acted on
    deadline: Deadline | None = None
    due: float | None = None
    overdue: bool = False
    # the secret this turn's dice come from (dice.py), its SHA-256 posted when the turn
    # opened; revealed with the turn (``Published.seed``). Empty: dice from the rng, kept
    # through a fighter's changes (a duel started before the seeds)
    dice_seed: str = ""
    stopped: bool = False  # the GM stopped the duel (``Stop``): it is over as it stands

    def sealed(self, fighter_id: str) -> Sealed | None:
        return next((s for s in self.pending if s.submission.fighter == fighter_id), None)

    def seals(self, fighter_id: str) -> int:
        """How many times the fighter has sealed this turn (a change counts again)."""
        return sum(s.submission.fighter == fighter_id for s in (*self.replaced, *self.pending))

    def fighter(self, fighter_id: str) -> FighterState:
        for f in self.fighters:
            if f.id == fighter_id:
                return f
        raise DuelError("unknown_fighter", {"fighter": fighter_id})

    def opponent(self, fighter_id: str) -> FighterState:
        me = self.fighter(fighter_id)
        return self.fighters[1] if self.fighters[0] is me else self.fighters[0]

    def missing(self) -> tuple[str, ...]:
        """The fighters still to submit this turn (the dead submit nothing)."""
        if self.over:
            return ()
        return tuple(f.id for f in self.fighters if self.sealed(f.id) is None)

    @property
    def over(self) -> bool:
        return self.stopped or any(f.dead for f in self.fighters)

    def __iter__(self) -> Iterator[FighterState]:
        return iter(self.fighters)


def new_duel(
    a: Fighter,
    b: Fighter,
    options: DuelOptions | None = None,
    ids: tuple[str, str] = ("a", "b"),
    owners: tuple[int | None, int | None] = (None, None),
) -> DuelState:
    if ids[0] == ids[1]:
        raise ValueError("the fighters need two ids")
    return DuelState(
        (
            FighterState(ids[0], a, a.stats.hp, owner=owners[0]),
            FighterState(ids[1], b, b.stats.hp, owner=owners[1]),
        ),
        options=options or DEFAULT_OPTIONS,
    )
