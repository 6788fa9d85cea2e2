"""Exact odds: closed forms, brute force for small pools, and seeded Monte-Carlo runs of the
real rollers (tolerance 4 sigma)."""

from __future__ import annotations

import math
import random
import time
from fractions import Fraction as F

import pytest

import engine.services.installed  # noqa: F401  (the installed systems register their rolls)
from engine.dice import odds
from engine.savage.dice import trait
from engine.savage.dice.odds import ace_at_least


def test_acing_die_closed_form():
    # An acing d6 reaches 6 only by acing (1/6), 7 by acing then anything (1/6),
    # 8 by acing then 2+ (1/6 * 5/6); a total that is a multiple of s needs another ace.
    assert ace_at_least(6, 1) == 1
    assert ace_at_least(6, 6) == F(1, 6)
    assert ace_at_least(6, 7) == F(1, 6)
    assert ace_at_least(6, 8) == F(5, 36)
    assert ace_at_least(4, 9) == F(1, 16)
    assert ace_at_least(4, 10) == F(3, 64)


def _brute_ace_pmf(sides: int, limit: int) -> dict[int, F]:
    """P(acing die = v) for v <= limit by enumerating chains (independent of the formula)."""
    pmf: dict[int, F] = {}
    for k in range(limit // sides + 1):  # k aces, then a non-max face
        for r in range(1, sides):
            v = k * sides + r
            if v <= limit:
                pmf[v] = pmf.get(v, F(0)) + F(1, sides ** (k + 1))
    return pmf


@pytest.mark.parametrize("sides", [4, 6, 8, 10, 12])
def test_closed_form_matches_enumeration(sides):
    pmf = _brute_ace_pmf(sides, 60)
    for t in range(1, 60):
        assert ace_at_least(sides, t) == 1 - sum(p for v, p in pmf.items() if v < t)


def test_d4_wild_card_vs_4():
    o = odds("d4")
    # P(T < 4) = 3/4, P(W < 4) = 1/2: success or better 1 - 3/8; double 1 is 1/24.
    assert o.probability("critical_failure") == F(1, 24)
    assert o.probability("success") + o.probability("raise") == F(5, 8)
    assert sum(x.probability for x in o.outcomes) == 1


def test_extra_d6():
    o = odds("d6 статист")
    assert o.probability("critical_failure") == 0
    assert o.probability("raise") == F(5, 36)  # 8+: ace then 2+
    assert o.probability("failure") == F(1, 2)
    assert o.thresholds[0].at_least == 1 and o.thresholds[0].probability == F(5, 36)


def test_critical_failure_is_taken_from_the_right_outcome():
    # With +10 the double 1 (total 11) would be a raise: the raise odds lose 1/48.
    o = odds("d8 +10")
    assert o.probability("critical_failure") == F(1, 48)
    assert o.probability("failure") == 0
    assert o.probability("raise") == 1 - F(1, 48) - o.probability("success")


def test_trait_odds_are_fast():
    odds.cache_clear()
    start = time.perf_counter()
    for text in ("d8+1", "d12+2 цн 8", "d6 статист цн 6", "нет навыка"):
        odds(text)
    assert (time.perf_counter() - start) / 4 < 0.005


def _sigma_check(hits: int, trials: int, p: F) -> None:
    pf = float(p)
    sigma = math.sqrt(max(pf * (1 - pf), 1e-12) / trials)
    assert abs(hits / trials - pf) <= 4 * sigma + 1e-9, (hits / trials, pf)


@pytest.mark.parametrize("text", ["d8+1", "d4 цн 6", "d12+2 -2 цн 8", "d6 статист", "нет навыка"])
def test_trait_odds_agree_with_monte_carlo(text):
    trials = 20_000
    rng = random.Random(20240601)
    counts = {"critical_failure": 0, "failure": 0, "success": 0, "raise": 0}
    two_raises = 0
    for _ in range(trials):
        r = trait(text, rng)
        counts[r.outcome] += 1
        two_raises += r.raises >= 2
    o = odds(text)
    for name, hits in counts.items():
        _sigma_check(hits, trials, o.probability(name))
    _sigma_check(two_raises, trials, o.thresholds[1].probability)
