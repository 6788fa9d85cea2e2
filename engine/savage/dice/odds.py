"""Exact odds of a trait roll (fractions.Fraction), never sampling: /odds d8+1.

An acing die d s reaches t with probability, writing t = k*s + r (1 <= r <= s),
``P(X >= t) = (s - r + 1) / s**(k + 1)`` — k aces then at least r. With a Wild Die,
``P(max >= v) = 1 - P(T < v) * P(W < v)``; a critical failure (both natural 1s, probability
1/(6s)) is taken out of whichever outcome it would otherwise count as.
"""

from __future__ import annotations

from fractions import Fraction

from engine.dice.results import OddsResult, OutcomeOdds, ThresholdOdds

from .rolls import RAISE_STEP, WILD_DIE, TraitSpec, parse_trait

MAX_RAISE_THRESHOLDS = 5  # odds report P(raises >= r) for r = 1..5
ONE = Fraction(1)


def ace_at_least(sides: int, t: int) -> Fraction:
    """P(total of one acing d``sides`` >= t), exact."""
    if t <= 1:
        return ONE
    k, r = divmod(t - 1, sides)
    r += 1  # t = k*sides + r with 1 <= r <= sides
    return Fraction(sides - r + 1, sides ** (k + 1))


def trait_odds(spec: TraitSpec) -> OddsResult:
    s, m, tn = spec.sides, spec.modifier_total, spec.tn
    crit = Fraction(1, s * WILD_DIE) if spec.wild_card else Fraction(0)

    def at_least(x: int) -> Fraction:
        """P(not a critical failure and total >= x)."""
        v = x - m  # needed on the better die
        p_trait = ace_at_least(s, v)
        if spec.wild_card:
            p = 1 - (1 - p_trait) * (1 - ace_at_least(WILD_DIE, v))
            if 1 + m >= x:  # the double-1 case would count here: remove it
                p -= crit
            return p
        return p_trait

    success_up = at_least(tn)
    raise_up = at_least(tn + RAISE_STEP)
    outcomes = (
        OutcomeOdds("critical_failure", crit),
        OutcomeOdds("failure", 1 - crit - success_up),
        OutcomeOdds("success", success_up - raise_up),
        OutcomeOdds("raise", raise_up),
    )
    thresholds = tuple(
        ThresholdOdds(r, at_least(tn + RAISE_STEP * r)) for r in range(1, MAX_RAISE_THRESHOLDS + 1)
    )
    return OddsResult("swade", spec.normalised(), outcomes, thresholds)


def odds_of_trait(text: str, offset: int = 0) -> OddsResult:
    """/odds d8+1, /odds d6 статист цн 6."""
    return trait_odds(parse_trait(text))
