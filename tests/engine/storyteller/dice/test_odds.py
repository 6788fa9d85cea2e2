"""Exact odds: closed forms, brute force for small pools, and seeded Monte-Carlo runs of the
real rollers (tolerance 4 sigma)."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction as F

import pytest

import engine.services.installed  # noqa: F401  (the installed systems register their rolls)
from engine.dice import odds
from engine.storyteller.dice import pool


def _pool_brute(n: int, diff: int, wp: bool, can_botch: bool):
    dist: dict[str, F] = {"botch": F(0), "failure": F(0), "success": F(0)}
    at_least = [F(0)] * (n + int(wp) + 1)
    for faces in itertools.product(range(1, 11), repeat=n):
        s = sum(v >= diff for v in faces)
        ones = faces.count(1)
        net = max(0, s - ones) + int(wp)
        botch = can_botch and not wp and s == 0 and ones > 0
        p = F(1, 10**n)
        dist["botch" if botch else "success" if net else "failure"] += p
        for k in range(1, net + 1):
            at_least[k] += p
    return dist, at_least[1:]


@pytest.mark.parametrize(
    "text",
    ["p 1 6", "p 3 6", "p 4 8", "p 4 2", "p 4 10", "p 3 6 вс", "p 3 урон", "pool 2 7 soak"],
)
def test_pool_odds_match_brute_force(text):
    o = odds(text)
    parts = text.split()
    n, diff = int(parts[1]), int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else 6
    wp = "вс" in parts
    can_botch = not ({"урон", "soak"} & set(parts)) and not wp
    dist, at_least = _pool_brute(n, diff, wp, can_botch)
    assert {x.name: x.probability for x in o.outcomes} == dist
    assert [x.probability for x in o.thresholds] == at_least


def test_specialty_single_die_exact():
    # One die at difficulty 6 with a specialty: success 1/2; two successes need a 10 and a
    # successful bonus die (1/10 * 1/2); three need 10, 10, success (1/200); botch = a 1.
    o = odds("p 1 6 спец")
    assert [x.probability for x in o.thresholds] == [F(1, 2), F(1, 20)]
    assert o.probability("botch") == F(1, 10)
    assert sum(x.probability for x in o.outcomes) == 1


def _sigma_check(hits: int, trials: int, p: F) -> None:
    pf = float(p)
    sigma = math.sqrt(max(pf * (1 - pf), 1e-12) / trials)
    assert abs(hits / trials - pf) <= 4 * sigma + 1e-9, (hits / trials, pf)


@pytest.mark.parametrize("text", ["7 6 спец", "5 8", "6 7 вс", "4 6 урон", "3 10 спец"])
def test_pool_odds_agree_with_monte_carlo(text):
    trials = 20_000
    rng = random.Random(77)
    counts = {"botch": 0, "failure": 0, "success": 0}
    net_at_least_3 = 0
    for _ in range(trials):
        r = pool(text, rng)
        counts[r.outcome] += 1
        net_at_least_3 += r.net >= 3
    o = odds("p " + text)
    for name, hits in counts.items():
        _sigma_check(hits, trials, o.probability(name))
    assert o.thresholds[2].at_least == 3
    _sigma_check(net_at_least_3, trials, o.thresholds[2].probability)


def _reference_tail(n: int, diff: int, specialty: bool, top: int) -> list[F]:
    """P(successes − ones >= t), t = 1..top, by convolving one die's exact distribution
    (Fractions); a die's values at or above top + n cannot change P(S < t), so the chain
    of a specialty 10 is cut there."""
    cut = top + n
    die: dict[int, F] = {-1: F(1, 10), 0: F(diff - 2, 10)}
    if specialty:
        a, b, c = F(1, 10), F(10 - diff, 10), F(diff - 1, 10)
        die[1] = F(10 - diff, 10) + F(1, 10) * c
        for k in range(1, cut):  # a 10 whose chain adds k successes
            die[1 + k] = F(1, 10) * a ** (k - 1) * (b + a * c)
    else:
        die[1] = F(11 - diff, 10)
    dist = {0: F(1)}
    for _ in range(n):
        new: dict[int, F] = {}
        for s, p in dist.items():
            for v, q in die.items():
                if s + v < cut:
                    new[s + v] = new.get(s + v, F(0)) + p * q
        dist = new
    return [1 - sum((p for s, p in dist.items() if s < t), F(0)) for t in range(1, top + 1)]


@pytest.mark.parametrize("diff", range(2, 11))
@pytest.mark.parametrize(("n", "specialty"), [(1, True), (4, True), (9, True), (12, False)])
def test_pool_odds_match_a_per_die_convolution(n: int, diff: int, specialty: bool) -> None:
    o = odds(f"p {n} {diff}{' спец' if specialty else ''}")
    top = 2 * n if specialty else n
    assert [x.probability for x in o.thresholds] == _reference_tail(n, diff, specialty, top)
    botch = F((diff - 1) ** n - (diff - 2) ** n, 10**n)
    assert o.probability("botch") == botch
    assert o.probability("failure") == 1 - o.thresholds[0].probability - botch


def test_thirty_dice_with_a_specialty_stay_exact() -> None:
    o = odds("p 30 6 спец")
    assert sum(x.probability for x in o.outcomes) == 1
    probs = [x.probability for x in o.thresholds]
    assert all(p > q for p, q in itertools.pairwise(probs)) and probs[-1] > 0
