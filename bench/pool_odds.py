"""Benchmark: exact Storyteller pool odds (/odds p …), the polynomial-power algorithm of
engine/storyteller/dice/odds.py against the one it replaced (kept below as the baseline:
Fraction convolutions per count of ones). Both give the same Fractions; the script checks that on
every case it times. Target: under 1 ms for 30 dice with a specialty.

Run: ``uv run python bench/pool_odds.py``. Times are the median of repeated calls (the odds'
lru_cache is bypassed: ``pool_odds`` is called on a parsed spec).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from fractions import Fraction
from math import comb
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.dice.results import OddsResult, OutcomeOdds, ThresholdOdds
from engine.storyteller.dice.odds import pool_odds
from engine.storyteller.dice.rolls import PoolSpec, parse_pool

ONE = Fraction(1)

CASES = ("7 6", "7 6 спец", "15 6 спец", "30 6", "30 6 спец", "30 8 спец вс", "30 2 спец")


# --- the baseline: engine/storyteller/dice/odds.py before the change --------------------


def _non_one_dists(n: int, diff: int, specialty: bool, cap: int) -> list[list[Fraction]]:
    """dists[m][r]: P(m dice all show 2..10 and give r raw successes), r lumped at ``cap``.

    One such die gives 0 (faces 2..diff-1), 1 (a plain success, or a 10 whose bonus chain
    adds nothing) or j >= 2 (a 10 whose chain adds j - 1); the j >= 2 weights are geometric,
    g * a**(j-2), so each convolution step is a linear recurrence, O(cap).
    """
    tenth = Fraction(1, 10)
    q0 = Fraction(diff - 2, 10)
    if specialty:
        a, b, c = tenth, Fraction(10 - diff, 10), Fraction(diff - 1, 10)
        q1, g = b + tenth * c, tenth * (b + a * c)
    else:
        a, q1, g = tenth, Fraction(11 - diff, 10), Fraction(0)
    zero = Fraction(0)
    dists = [[ONE] + [zero] * cap]
    mass = ONE
    for _ in range(n):
        prev = dists[-1]
        new = [zero] * (cap + 1)
        chain = zero  # sum over j >= 2 of prev[k - j] * a**(j - 2)
        for k in range(cap):
            if k >= 2:
                chain = prev[k - 2] + a * chain
            v = q0 * prev[k]
            if k:
                v += q1 * prev[k - 1]
            if g:
                v += g * chain
            new[k] = v
        mass *= Fraction(9, 10)
        new[cap] = mass - sum(new[:cap])  # everything else is lumped at the cap
        dists.append(new)
    return dists


def baseline_pool_odds(spec: PoolSpec) -> OddsResult:
    n, diff, wp = spec.dice_count, spec.difficulty, int(spec.willpower)
    # thresholds: net successes up to n (2n with a specialty) plus Willpower; a threshold k
    # needs raw >= k + ones <= 3n, so lumping raw at 3n + 1 keeps every number exact
    top = (2 * n if spec.specialty else n) + wp
    cap = 3 * n + 1
    dists = _non_one_dists(n, diff, spec.specialty, cap)

    at_least = [Fraction(0)] * (top + 1)  # P(net >= k)
    botch = failure = Fraction(0)
    for o in range(n + 1):
        w = comb(n, o) * Fraction(1, 10) ** o  # times dists[n - o], which carries the rest
        dist = dists[n - o]
        tail = [Fraction(0)] * (cap + 2)
        for r in range(cap, -1, -1):
            tail[r] = tail[r + 1] + dist[r]
        for k in range(1, top + 1):
            need = k - wp  # net = max(0, raw - o) + wp
            at_least[k] += w * (tail[0] if need <= 0 else tail[min(need + o, cap)])
        if wp == 0:
            zero_net = w * (tail[0] - tail[o + 1])  # raw <= o
            if spec.can_botch and o > 0:
                botch += w * dist[0]
                zero_net -= w * dist[0]
            failure += zero_net
    success = at_least[1] if top >= 1 else Fraction(0)
    outcomes = (
        OutcomeOdds("botch", botch),
        OutcomeOdds("failure", failure),
        OutcomeOdds("success", success),
    )
    thresholds = tuple(ThresholdOdds(k, at_least[k]) for k in range(1, top + 1))
    return OddsResult("storyteller", spec.normalised(), outcomes, thresholds)


# --- timing ---------------------------------------------------------------------------


def _median_ms(fn, spec: PoolSpec, budget: float = 0.3) -> float:
    times = []
    deadline = time.perf_counter() + budget
    while time.perf_counter() < deadline or len(times) < 3:
        start = time.perf_counter()
        fn(spec)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    print(f"load average: {os.getloadavg()[0]:.2f}")
    print(f"{'pool':<16}{'baseline ms':>14}{'now ms':>10}{'speed-up':>10}")
    for text in CASES:
        spec = parse_pool(text)
        assert pool_odds(spec) == baseline_pool_odds(spec), text
        before = _median_ms(baseline_pool_odds, spec)
        after = _median_ms(pool_odds, spec)
        print(f"{text:<16}{before:>14.3f}{after:>10.3f}{before / after:>9.0f}×")


if __name__ == "__main__":
    main()
