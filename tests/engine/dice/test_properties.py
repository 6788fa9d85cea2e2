"""Property tests: hostile text never escapes as another exception or hangs; valid
expressions always parse and their totals agree with the faces; results round-trip."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.dice import ERROR_CODES, DiceError, odds, result_from_dict, roll
from engine.dice.limits import MAX_EXTRA_DICE
from engine.duel.roll import duel
from engine.savage.dice import damage, trait
from engine.storyteller.dice import pool

from .helpers import group_value, recompute_total

NOTATION_CHARS = "0123456789dDдДкКkhlrofxх!#%+-−*/×÷()<>=≥≤ ,.:;цнсплвспецатистбронягаз"
hostile_text = st.one_of(
    st.text(max_size=300),
    st.text(alphabet=NOTATION_CHARS, max_size=300),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=50),
)
FAST = settings(max_examples=300, deadline=200, suppress_health_check=[HealthCheck.too_slow])


def _accept(func, text: str, *args) -> None:
    try:
        result = func(text, *args)
    except DiceError as err:
        assert err.code in ERROR_CODES
        assert err.position is None or 0 <= err.position <= len(text)
        assert len(err.fragment) <= 20
    else:
        assert result.kind in ("roll", "trait", "damage", "pool", "duel", "odds")
        json.dumps(result.to_dict())


@FAST
@given(hostile_text, st.integers(0, 2**32))
def test_any_text_gives_a_result_or_a_dice_error(text, seed):
    rng = random.Random(seed)
    for func in (roll, trait, damage, pool, duel):
        _accept(func, text, rng)
    _accept(odds, text)
    _accept(odds, "p " + text)


# --- valid expressions from a grammar ---------------------------------------------------


@st.composite
def dice_term(draw) -> str:
    count = draw(st.integers(1, 5))
    sides = draw(st.sampled_from([2, 3, 4, 6, 8, 10, 12, 20, 100]))
    letter = draw(st.sampled_from(["d", "D", "д", "к", "К"]))
    text = ("" if count == 1 and draw(st.booleans()) else str(count)) + letter + str(sides)
    if draw(st.booleans()):
        text += draw(st.sampled_from(["r1", "ro1", "r<2", "ro<=1"]))
    if draw(st.booleans()):
        text += draw(st.sampled_from(["!", "x"]))
    keep = draw(st.sampled_from(["", "kh", "kl", "k", "dh", "dl"]))
    if keep and (keep[0] == "k" or count > 1):
        hi = count if keep[0] == "k" else count - 1
        text += keep + str(draw(st.integers(1, hi)))
    if draw(st.integers(0, 3)) == 0:
        text += draw(st.sampled_from([">=", ">", "<=", "<", "="])) + str(
            draw(st.integers(1, sides))
        )
        if draw(st.booleans()):
            text += "f1"
    return text


@st.composite
def expression(draw, depth: int = 0) -> str:
    leaf = st.one_of(st.integers(0, 50).map(str), dice_term())
    if depth >= 4 or draw(st.integers(0, 2)) == 0:
        return draw(leaf)
    kind = draw(st.sampled_from(["bin", "bin", "mul", "paren", "neg"]))
    if kind == "bin":
        op = draw(st.sampled_from(["+", "-", " + ", " - "]))
        return draw(expression(depth + 1)) + op + draw(expression(depth + 1))
    if kind == "mul":
        op = draw(st.sampled_from(["*", "/", "×", "÷"]))
        return draw(expression(depth + 1)) + op + str(draw(st.integers(1, 9)))
    if kind == "paren":
        return "(" + draw(expression(depth + 1)) + ")"
    return "-" + draw(expression(depth + 1))


@settings(max_examples=300, deadline=200)
@given(expression(), st.integers(1, 3), st.integers(0, 2**32), st.sampled_from(["", " удар"]))
def test_valid_expressions_always_evaluate_and_agree_with_faces(expr, repeat, seed, comment):
    text = (f"{repeat}#" if repeat > 1 else "") + expr + comment
    result = roll(text, random.Random(seed))
    assert result.comment == comment.strip()
    assert len(result.results) == repeat
    for r in result.results:
        assert r.total == recompute_total(r)
        for group in r.groups:
            assert group.value == group_value(group)
            assert all(1 <= d.value <= group.sides for d in group.dice)
            assert len(group.dice) <= 5 + MAX_EXTRA_DICE
    # the normalised expression means the same thing
    again = roll(result.expression, random.Random(seed))
    assert [x.total for x in again.results] == [x.total for x in result.results]


# --- serialisation round trip -----------------------------------------------------------

command = st.sampled_from(
    [
        (roll, "2к6+1 удар"),
        (roll, "3#4d6kh3"),
        (roll, "7d10>=6f1"),
        (roll, "d6r1!+(2d8dl1-3)*2"),
        (trait, "d8+1 цн 6"),
        (trait, "d12+2 -2 джокер"),
        (trait, "d6 статист"),
        (trait, "нет навыка"),
        (damage, "2d6+1 vs 8(2) ap 2 подъём шок"),
        (damage, "d8+d6"),
        (pool, "7 сл 6 спец вс"),
        (pool, "3 урон"),
        (duel, "+2 трюк"),
        (duel, "-1 атака"),
    ]
)


@settings(max_examples=200, deadline=None)
@given(command, st.integers(0, 2**32))
def test_results_round_trip_through_json(cmd, seed):
    func, text = cmd
    result = func(text, random.Random(seed))
    data = json.loads(json.dumps(result.to_dict()))
    assert result_from_dict(data) == result


def test_odds_round_trip():
    for text in ("d8+1", "d6 статист цн 6", "p 7 6 спец", "p 3 урон"):
        result = odds(text)
        data = json.loads(json.dumps(result.to_dict()))
        assert result_from_dict(data) == result
