"""Exact odds (fractions.Fraction), never sampling.

SWADE: an acing die d s reaches t with probability, writing t = k*s + r (1 <= r <= s),
``P(X >= t) = (s - r + 1) / s**(k + 1)`` — k aces then at least r. With a Wild Die,
``P(max >= v) = 1 - P(T < v) * P(W < v)``; a critical failure (both natural 1s, probability
1/(6s)) is taken out of whichever outcome it would otherwise count as.

Storyteller: ones are binomial; given o ones, the other n - o dice are "non-one" dice whose
raw successes are convolved exactly. A specialty 10 contributes 1 + E successes, E the
successes of its bonus-die chain: P(E = 0) = c, P(E = k) = a**(k-1) * (b + a*c), with
a = 1/10 (another 10), b = (10 - diff)/10, c = (diff - 1)/10. Raw successes are lumped at
3n + 1 (a reported threshold plus the ones never exceeds 3n), which keeps the result exact.
The roller caps a chain at 100 bonus dice; the odds ignore that cap (its probability is
below 10**-100).
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache
from math import comb

from .errors import DiceError
from .limits import MAX_ODDS_POOL_DICE, MAX_RAISE_THRESHOLDS
from .parser import check_length
from .results import OddsResult, OutcomeOdds, ThresholdOdds
from .storyteller import PoolSpec, parse_pool
from .swade import RAISE_STEP, WILD_DIE, TraitSpec, parse_trait

POOL_WORDS = ("p", "п", "пул", "pool")
_POOL_HEAD = re.compile(r"\s*(?:" + "|".join(POOL_WORDS) + r")(?:\s+|$)", re.IGNORECASE)
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


def pool_odds(spec: PoolSpec) -> OddsResult:
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


@lru_cache(maxsize=256)
def odds(text: str) -> OddsResult:
    """/odds: ``d8+1``, ``d6 статист цн 6`` (SWADE trait) or ``p 7 6 спец`` (pool)."""
    check_length(text)
    head = _POOL_HEAD.match(text)
    if head:
        offset = head.end()
        rest = text[offset:]
        spec = parse_pool(rest, offset)
        if spec.dice_count > MAX_ODDS_POOL_DICE:
            raise DiceError(
                "too_many_dice",
                position=offset,
                fragment=rest.strip(),
                params={"limit": MAX_ODDS_POOL_DICE},
            )
        return pool_odds(spec)
    return trait_odds(parse_trait(text))
