"""The compiled fast paths give exactly what the general rules give.

The reference draws every term with the general walker (rerolls, explosions, caps) and
evaluates the compiled tree, which checks every intermediate value; the program under test
uses the specialised draws, term builders and sums. Same seed, same faces, same result.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice import DiceError, ScriptedRng
from engine.dice import evaluate as ev
from engine.dice.limits import MAX_EXTRA_DICE
from engine.dice.parser import parse_command
from engine.dice.syntax import dice_nodes
from engine.dice.terms import walk, walk_build

from .helpers import same
from .test_properties import expression


def reference(text: str, rng) -> object:
    node = parse_command(text).expr
    nodes = dice_nodes(node)
    faces = tuple(tuple(r[0] for r in walk(d, rng.randint)[0]) for d in nodes)
    terms = [ev._nth(i, walk_build(d, d.notation())) for i, d in enumerate(nodes)]
    counts = any(d.success is not None for d in nodes)
    return ev._tree_build(node, terms, counts)(faces)


def fast(text: str, rng) -> object:
    return ev.Program(parse_command(text).expr).evaluate(rng)


def outcome(func, text: str, seed: int) -> object:
    try:
        return func(text, random.Random(seed))
    except DiceError as err:
        return err.code, err.position, err.fragment


def check(text: str, seed: int) -> None:
    got, want = outcome(fast, text, seed), outcome(reference, text, seed)
    assert got == want
    if not isinstance(got, tuple):
        for a, b in zip(got.groups, want.groups, strict=True):
            same(a, b)
            for x, y in zip(a.dice, b.dice, strict=True):
                same(x, y)
        same(got, want)


CASES = [
    "d20+5", "-d20", "10-d4", "(d6)", "-(d8+2)+1",  # one die
    "2d6", "2d6+1d8+3", "3d6", "10d10-2", "d4+d6+d8+d10+d12",  # plain sums
    "4d6kh3", "4d6k3", "2d20kl1", "4d6dl1", "4d6dh1", "3d6kh2", "d20kh1", "5d6kl2+d4",  # keep
    "d8!", "3d6!", "d8!+d6!", "2d6!+1", "d6!+2d8", "d4!-d4!",  # exploding
    "7d10>=6", "7d10>=6f1", "3d6>4+2", "d6r1", "2d6ro1!", "d6r1!", "4d6r1kh3",  # the walker
    "(d6+2)*2d4", "d20/2", "2*3+d4", "1/(d6-d6)", "d6*d6*d6",  # the tree
]  # fmt: skip


@pytest.mark.parametrize("text", CASES)
def test_known_shapes_match_the_general_rules(text):
    for seed in range(60):
        check(text, seed)


@settings(max_examples=300, deadline=None)
@given(expression(), st.integers(0, 2**32))
def test_random_expressions_match_the_general_rules(expr, seed):
    check(expr, seed)


@pytest.mark.parametrize("text", ["d4!", "2d4!", "d4!+d6", "3d4!kh1"])
def test_explosion_cap_matches_the_general_rules(text):
    rng = ScriptedRng([4] * (MAX_EXTRA_DICE + 2) + [1] * 5)
    got = ev.program_for(text).evaluate(rng)
    rng = ScriptedRng([4] * (MAX_EXTRA_DICE + 2) + [1] * 5)
    assert got == reference(text, rng)
    assert got.capped


def test_results_without_the_memo_are_the_same(monkeypatch):
    with_memo = [ev.program_for(t).evaluate(random.Random(3)) for t in CASES[:30]]
    monkeypatch.setattr(ev, "MEMO_LIMIT", 0)
    ev.program_for.cache_clear()
    try:
        programs = [ev.program_for(t) for t in CASES[:30]]
        assert all(p.build is p._build and not p.memo for p in programs)
        assert [p.evaluate(random.Random(3)) for p in programs] == with_memo
    finally:
        ev.program_for.cache_clear()


@pytest.mark.parametrize(
    ("text", "linear"),
    [
        ("2d6+1d8+3", (3, [1, 1])),
        ("-(d6-d4)+2", (2, [-1, 1])),
        ("10-+d6", (10, [-1])),
        ("7", (7, [])),
        ("2*d6", None),
        ("d6/2", None),
    ],
)
def test_linear_form(text, linear):
    assert ev._linear(parse_command(text).expr) == linear
