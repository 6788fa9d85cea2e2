"""The generic roller /r: every notation feature with scripted faces."""

from __future__ import annotations

import random

import pytest

from engine.dice import DiceGroup, Literal, ScriptedRng, roll
from engine.dice.rng import ScriptExhausted

from .helpers import faces


def one(text: str, scripted: list[int]):
    rng = ScriptedRng(scripted)
    result = roll(text, rng)
    assert rng.remaining == 0, "the roll must use exactly the scripted faces"
    assert len(result.results) == 1
    return result, result.results[0]


def test_basic_ndm_with_modifier_and_comment():
    res, r = one("2к6+1 удар мечом", [3, 5])
    assert res.expression == "2d6+1"
    assert res.comment == "удар мечом"
    assert r.total == 9
    group, plus, one_ = r.tokens
    assert isinstance(group, DiceGroup) and group.notation == "2d6" and group.sides == 6
    assert faces(group) == [3, 5] and group.value == 8
    assert (plus, one_) == (Literal("+"), Literal("1"))


@pytest.mark.parametrize("text", ["d8", "1d8", "D8", "д8", "Д8", "к8", "К8", "1к8"])
def test_dice_letters_and_implicit_count(text):
    res, r = one(text, [7])
    assert res.expression == "d8"
    assert r.total == 7


@pytest.mark.parametrize("text", ["d%", "к%", "1d%"])
def test_percentile(text):
    res, r = one(text, [64])
    assert res.expression == "d100"
    assert r.groups[0].sides == 100 and r.total == 64


def test_spaces_around_operators():
    res, r = one("2d6 + 1d8 - 3", [1, 2, 8])
    assert res.expression == "2d6+d8-3"
    assert r.total == 1 + 2 + 8 - 3


@pytest.mark.parametrize(
    ("text", "total"),
    [
        ("2*3+4", 10),
        ("2+3*4", 14),
        ("(2+3)*4", 20),
        ("7/2", 3),
        ("-7/2", -4),  # floor division
        ("7/-2", -4),
        ("-(2+3)", -5),
        ("--3", 3),
        ("+3", 3),
        ("2×3", 6),
        ("8÷2", 4),
        ("5−2", 3),  # U+2212 minus
        ("10-2-3", 5),  # left-associative
        ("100/10/5", 2),
    ],
)
def test_arithmetic(text, total):
    _res, r = one(text, [])
    assert r.total == total


def test_parentheses_and_several_dice_terms_keep_source_order():
    res, r = one("(d6+2)*2d4", [5, 1, 3])
    assert res.expression == "(d6+2)*2d4"
    texts = [t.text if isinstance(t, Literal) else t.notation for t in r.tokens]
    assert texts == ["(", "d6", "+", "2", ")", "*", "2d4"]
    assert r.total == (5 + 2) * 4


def test_unary_minus_on_dice():
    _res, r = one("-d6+10", [4])
    assert r.total == 6
    assert r.tokens[0] == Literal("-")


def test_keep_highest():
    _res, r = one("4d6kh3", [2, 6, 1, 5])
    g = r.groups[0]
    assert [d.dropped for d in g.dice] == [False, False, True, False]
    assert g.value == r.total == 13


def test_k_means_keep_highest():
    res, r = one("4d6k3", [2, 6, 1, 5])
    assert res.expression == "4d6kh3" and r.total == 13


def test_keep_lowest():
    _res, r = one("2d20kl1", [15, 4])
    assert [d.dropped for d in r.groups[0].dice] == [True, False]
    assert r.total == 4


def test_drop_lowest_and_highest():
    _res, r = one("4d6dl1", [3, 3, 6, 2])
    assert [d.dropped for d in r.groups[0].dice] == [False, False, False, True]
    assert r.total == 12
    _res, r = one("4d6dh1", [3, 3, 6, 2])
    assert [d.dropped for d in r.groups[0].dice] == [False, False, True, False]
    assert r.total == 8


def test_keep_ties_drop_the_earliest_lowest():
    _res, r = one("3d6kh2", [4, 4, 4])
    assert [d.dropped for d in r.groups[0].dice] == [True, False, False]


@pytest.mark.parametrize("text", ["3d6!", "3d6x", "3d6X", "3d6х"])  # Cyrillic х too
def test_exploding(text):
    res, r = one(text, [6, 6, 2, 3, 1])
    g = r.groups[0]
    assert res.expression == "3d6!"
    assert faces(g) == [6, 6, 2, 3, 1]
    assert [d.exploded for d in g.dice] == [True, True, False, False, False]
    assert r.total == 18


def test_swade_style_single_acing_die():
    _res, r = one("d8!", [8, 8, 3])
    assert r.total == 19 and [d.exploded for d in r.groups[0].dice] == [True, True, False]


def test_explosion_cap_marks_capped():
    # Always-max faces: the term stops after MAX_EXTRA_DICE extra dice and says so.
    from engine.dice.limits import MAX_EXTRA_DICE

    rng = ScriptedRng([4] * (MAX_EXTRA_DICE + 1))
    r = roll("d4!", rng).results[0]
    g = r.groups[0]
    assert len(g.dice) == MAX_EXTRA_DICE + 1
    assert g.capped and r.capped
    assert r.total == 4 * (MAX_EXTRA_DICE + 1)


def test_reroll_until_not_one():
    _res, r = one("2d6r1", [1, 1, 4, 5])
    g = r.groups[0]
    assert faces(g) == [1, 1, 4, 5]
    assert [d.rerolled for d in g.dice] == [True, True, False, False]
    assert r.total == 9


def test_reroll_once_keeps_the_second_face():
    _res, r = one("2d6ro1", [1, 1, 5])
    g = r.groups[0]
    assert [(d.value, d.rerolled) for d in g.dice] == [(1, True), (1, False), (5, False)]
    assert r.total == 6


@pytest.mark.parametrize(("text", "total"), [("d6r<3", 4), ("d6r<=2", 4), ("d6r=1", 2)])
def test_reroll_comparisons(text, total):
    script = {"d6r<3": [1, 2, 4], "d6r<=2": [2, 1, 4], "d6r=1": [1, 2]}[text]
    _res, r = one(text, script)
    assert r.total == total


def test_reroll_then_explode():
    _res, r = one("d6r1!", [1, 6, 1, 3])  # 1 rerolled -> 6 aces -> 1 rerolled -> 3
    g = r.groups[0]
    assert [(d.value, d.rerolled, d.exploded) for d in g.dice] == [
        (1, True, False),
        (6, False, True),
        (1, True, False),
        (3, False, False),
    ]
    assert r.total == 9


def test_success_counting_ge_and_gt():
    _res, r = one("7d10>=6", [6, 5, 10, 1, 7, 2, 9])
    assert r.counts_successes and r.total == 4
    assert [d.success for d in r.groups[0].dice] == [True, False, True, False, True, False, True]
    _res, r = one("7d10>5", [6, 5, 10, 1, 7, 2, 9])
    assert r.total == 4


def test_ones_cancel_successes_with_f1():
    _res, r = one("5d10>=6f1", [1, 8, 1, 9, 3])
    g = r.groups[0]
    assert [d.cancels for d in g.dice] == [True, False, True, False, False]
    assert r.total == 0 and not r.botch  # successes were rolled, then cancelled


def test_botch_needs_no_successes_and_a_one():
    _res, r = one("3d10>=6f1", [1, 4, 2])
    assert r.total == 0 and r.botch
    _res, r = one("3d10>=6f1", [3, 4, 2])
    assert r.total == 0 and not r.botch
    _res, r = one("3d10>=6", [1, 1, 2])  # no f: never a botch
    assert not r.botch


def test_successes_never_negative():
    _res, r = one("3d10>=6f1", [1, 1, 7])
    assert r.total == 0


def test_repeat():
    rng = ScriptedRng([6, 5, 4, 1, 2, 2, 2, 3])
    res = roll("2#4d6kh3", rng)
    assert res.expression == "2#4d6kh3"
    assert [x.total for x in res.results] == [15, 7]


def test_comment_rules():
    assert roll("d20 к атаке", random.Random(1)).comment == "к атаке"
    assert roll("2d6 - удар мечом", random.Random(1)).comment == "удар мечом"
    assert roll("2d6+1, удар", random.Random(1)).comment == "удар"
    assert roll("d20 (скрытно)", random.Random(1)).comment == "(скрытно)"
    assert roll("d20", random.Random(1)).comment == ""


def test_rng_values_pass_through_random_random():
    res = roll("10d10", random.Random(42))
    assert res.results[0].total == sum(faces(res.results[0].groups[0]))
    again = roll("10d10", random.Random(42))
    assert again == res  # deterministic for a seed


def test_scripted_rng_is_strict():
    with pytest.raises(ScriptExhausted):
        roll("2d6", ScriptedRng([1]))
    with pytest.raises(ValueError, match="outside"):
        roll("d6", ScriptedRng([7]))


def test_plain_dice_share_immutable_faces_safely():
    a = roll("d6", ScriptedRng([3])).results[0].groups[0].dice[0]
    b = roll("2d6", ScriptedRng([3, 3])).results[0].groups[0].dice
    assert a == b[0] == b[1]
    with pytest.raises(AttributeError):
        a.value = 5  # type: ignore[misc]
