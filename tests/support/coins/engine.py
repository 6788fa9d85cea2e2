"""The example system's rolls: coins tossed as d2 (2 is heads), the heads counted; the exact
odds of the heads; the roll command (its scene is contest.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb

from engine.dice.commands import RollCommand
from engine.dice.errors import DiceError
from engine.dice.results import Die, OddsResult, OutcomeOdds, Serializable, ThresholdOdds
from engine.dice.rng import Rng

MAX_COINS = 20
_TEXT = re.compile(r"\s*(\d+)?\s*(.*?)\s*$", re.DOTALL)


@dataclass(frozen=True, slots=True)
class CoinResult(Serializable):  # registered with register_result by `installed()`
    kind: str = field(default="coin", init=False)
    expression: str  # "3 coins"
    comment: str
    faces: tuple[Die, ...]  # d2 each: 2 is heads
    heads: int


def parse(text: str) -> tuple[int, str]:
    found = _TEXT.match(text)
    assert found is not None  # the pattern matches any text
    count = int(found.group(1) or 1)
    if not 1 <= count <= MAX_COINS:
        raise DiceError(
            "out_of_range",
            position=0,
            fragment=found.group(1) or "",
            params={"what": "dice", "min": 1, "max": MAX_COINS},
        )
    return count, found.group(2)


def coin(text: str, rng: Rng) -> CoinResult:
    count, comment = parse(text)
    faces = tuple(Die(2, rng.randint(1, 2), success=None) for _ in range(count))
    return CoinResult(f"{count} coins", comment, faces, sum(1 for d in faces if d.value == 2))


def coin_odds(text: str, offset: int) -> OddsResult:
    count, _ = parse(text)
    whole = 2**count
    at_least = [Fraction(sum(comb(count, k) for k in range(h, count + 1)), whole)
                for h in range(count + 1)]  # fmt: skip
    outcomes = (OutcomeOdds("none", 1 - at_least[1]), OutcomeOdds("some", at_least[1]))
    thresholds = tuple(ThresholdOdds(h, at_least[h]) for h in range(1, count + 1))
    return OddsResult("coins", f"{count} coins", outcomes, thresholds)


COIN = RollCommand(
    "coin", "coin", ("coin",), ("coin", "монета"), coin, odds=coin_odds, odds_words=("монета",)
)
