"""Per-chase settings: the GM's scene choices and the readings of ambiguous seed sentences.

Each ambiguous reading is documented in docs/rules/chase.md with the seed sentence it comes
from; the defaults are the readings we chose.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.codec import Coded

from .errors import ChaseError

# How "the number of cards between" two participants is counted (seed 001, lines 41, 45).
DISTANCE_STEPS = "steps"  # |i - j|: neighbouring cards are 1 apart (default)
DISTANCE_BETWEEN = "between"  # cards strictly between them: neighbours are 0 apart
DISTANCE_MODES = (DISTANCE_STEPS, DISTANCE_BETWEEN)

# What the Joker row of the Complication table means (seed 001, line 28).
JOKER_FAILURE_SHIFT = "failure_shift"  # failure: opponents shift the participant 0-2 cards
JOKER_SUCCESS_SHIFT = "success_shift"  # success: the participant may shift itself 0-2 cards
JOKER_MODES = (JOKER_FAILURE_SHIFT, JOKER_SUCCESS_SHIFT)

MIN_ROW = 1
MAX_ROW = 54  # one deck of 52 cards and 2 Jokers


@dataclass(frozen=True, slots=True)
class ChaseOptions(Coded):
    linear: bool = True  # a linear chase allows dropping back (seed 001, line 16)
    scale: int = 1  # distance units per card for ranged attacks (seed 001, line 41)
    round_limit: int | None = None  # the GM's round limit (seed 001, line 47)
    distance: str = DISTANCE_STEPS
    joker_complication: str = JOKER_FAILURE_SHIFT
    # Whether the multi-action penalty also applies to free maneuvering rolls in that turn.
    multi_action_on_free_rolls: bool = False

    def validate(self) -> ChaseOptions:
        if self.scale < 1:
            raise ChaseError("bad_option", option="scale", value=self.scale)
        if self.round_limit is not None and self.round_limit < 1:
            raise ChaseError("bad_option", option="round_limit", value=self.round_limit)
        if self.distance not in DISTANCE_MODES:
            raise ChaseError("bad_option", option="distance", value=self.distance)
        if self.joker_complication not in JOKER_MODES:
            raise ChaseError(
                "bad_option", option="joker_complication", value=self.joker_complication
            )
        return self

    def with_round_limit(self, limit: int | None) -> ChaseOptions:
        return replace(self, round_limit=limit).validate()
