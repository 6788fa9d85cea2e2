"""Exact odds of a d10 pool (fractions.Fraction), never sampling: /odds p 7 6 спец.

The net successes are max(0, S) (+ Willpower), S the sum over the pool dice
of −1 (a 1), 0 (below the difficulty), 1 (a success) or, with a specialty, 1 + E for a 10,
E the successes of its bonus-die chain: P(E = 0) = c, P(E = k) = a**(k-1) * (b + a*c), with
a = 1/10 (another 10), b = (10 - diff)/10, c = (diff - 1)/10. S's distribution is a
polynomial power computed in integers (``_net_tail``), so every number stays exact; a pool
of 30 dice with a specialty takes well under a millisecond (bench/pool_odds.py).
The roller caps a chain at 100 bonus dice; the odds ignore that cap (its probability is
below 10**-100).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import accumulate

from engine.dice.errors import DiceError
from engine.dice.results import OddsResult, OutcomeOdds, ThresholdOdds

from .rolls import PoolSpec, parse_pool

MAX_ODDS_POOL_DICE = 30  # exact pool odds stay fast (bench/pool_odds.py)
ONE = Fraction(1)


def _kronecker_power(coeffs: Sequence[int], n: int) -> list[int]:
    """The coefficients of ``(sum coeffs[i] z**i) ** n`` (coefficients >= 0): the polynomial
    packed into one integer, one slot per degree, raised by CPython's C ``pow``."""
    bits = (sum(coeffs) ** n).bit_length() + 1  # no coefficient of the power is larger
    width = (bits + 7) // 8
    packed = 0
    for i, c in enumerate(coeffs):
        packed |= c << (8 * width * i)
    size = (len(coeffs) - 1) * n + 1
    raw = (packed**n).to_bytes(size * width, "little")
    return [int.from_bytes(raw[i * width : (i + 1) * width], "little") for i in range(size)]


def _net_tail(n: int, diff: int, specialty: bool, top: int) -> list[Fraction]:
    """``tail[t] = P(S >= t)`` for t = 0..top, S = raw successes − ones (see the module doc).

    Per die, d = S_die + 1 takes 0 (a 1), 1 (2..diff−1), 2 (a plain success) and, with a
    specialty, d = j + 1 >= 3 for a 10 whose chain adds j − 1. Without a specialty
    P(S + n = d) = [x**d] (1 + (diff−2) x + (11−diff) x**2)**n / 10**n. With one, writing
    Q = 99 − 9 diff, P(S + n = d) = [z**d] h(z)**n / 10**(n+d) where
    h = 1 + 10(diff−2) z + 10Q (z**2 + z**3 + …) = (1 + u z + v z**2) / (1 − z),
    u = 10(diff−2) − 1, v = 10Q − 10(diff−2): a quadratic to the n-th power (one ``pow``)
    then n prefix sums, all in integers; only degrees below n + top are ever needed.
    """
    if specialty:
        q = 99 - 9 * diff
        u, v = 10 * (diff - 2) - 1, 10 * q - 10 * (diff - 2)
        deg = n + top - 1
        coeffs = _kronecker_power((1, abs(u), v), n)
        if u < 0:  # (1 − z + v z**2)**n from (1 + z + v z**2)**n: odd degrees change sign
            coeffs = [-c if i % 2 else c for i, c in enumerate(coeffs)]
        coeffs = (coeffs + [0] * deg)[: deg + 1]
        for _ in range(n):  # times 1 / (1 − z)
            coeffs = list(accumulate(coeffs))
        scale = n + deg
        weighted = [c * 10 ** (deg - d) for d, c in enumerate(coeffs)]  # over 10**scale
    else:
        weighted = _kronecker_power((1, diff - 2, 11 - diff), n)
        scale = n
    below = list(accumulate(weighted))  # below[m] = P(S + n <= m) * 10**scale
    whole = 10**scale
    tail = [ONE]
    for t in range(1, top + 1):
        m = n + t - 1
        tail.append(Fraction(whole - below[m], whole) if m < len(below) else Fraction(0))
    return tail


def pool_odds(spec: PoolSpec) -> OddsResult:
    n, diff, wp = spec.dice_count, spec.difficulty, int(spec.willpower)
    # thresholds: net successes up to n (2n with a specialty) plus Willpower
    top = (2 * n if spec.specialty else n) + wp
    tail = _net_tail(n, diff, spec.specialty, top - wp)
    # net = max(0, S) + wp
    at_least = [ONE if k <= wp else tail[k - wp] for k in range(top + 1)]
    botch = failure = Fraction(0)
    if wp == 0:
        if spec.can_botch:  # no die reached the difficulty, and some die is a 1
            botch = Fraction((diff - 1) ** n - (diff - 2) ** n, 10**n)
        failure = 1 - tail[1] - botch
    success = at_least[1] if top >= 1 else Fraction(0)
    outcomes = (
        OutcomeOdds("botch", botch),
        OutcomeOdds("failure", failure),
        OutcomeOdds("success", success),
    )
    thresholds = tuple(ThresholdOdds(k, at_least[k]) for k in range(1, top + 1))
    return OddsResult("storyteller", spec.normalised(), outcomes, thresholds)


def odds_of_pool(text: str, offset: int = 0) -> OddsResult:
    """/odds p 7 6 спец: ``text`` after the word, at ``offset`` in the whole text."""
    spec = parse_pool(text, offset)
    if spec.dice_count > MAX_ODDS_POOL_DICE:
        raise DiceError(
            "too_many_dice",
            position=offset,
            fragment=text.strip(),
            params={"limit": MAX_ODDS_POOL_DICE},
        )
    return pool_odds(spec)
