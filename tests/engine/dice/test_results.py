"""The fast constructors build exactly the objects the dataclass __init__ builds."""

from __future__ import annotations

import dataclasses
import json

import pytest

from engine.dice import (
    DiceGroup,
    Die,
    ExpressionResult,
    Literal,
    RollResult,
    ScriptedRng,
    result_from_dict,
    roll,
)
from engine.dice.results import (
    expression_maker,
    group_maker,
    make_die,
    make_expression,
    make_group,
    make_roll,
)
from engine.dice.terms import dropped_faces, exploding_faces, plain_faces

from .helpers import same

DIE = Die(6, 4)


@pytest.mark.parametrize(
    ("fast", "slow"),
    [
        (group_maker("2d6", 6)((DIE, DIE), 8), DiceGroup("2d6", 6, (DIE, DIE), 8)),
        (expression_maker(False)(7, (Literal("7"),)), ExpressionResult(7, (Literal("7"),))),
        (expression_maker(True)(2, ()), ExpressionResult(2, (), counts_successes=True)),
        (make_die(6, 4, exploded=True), Die(6, 4, exploded=True)),
        (
            make_group("d6", 6, (DIE,), 4, True, True, True),
            DiceGroup("d6", 6, (DIE,), 4, True, True, True),
        ),
        (make_expression(1, (), True, True), ExpressionResult(1, (), True, True)),
        (make_roll("d6", "x", ()), RollResult("d6", "x", ())),
    ],
)
def test_fast_constructors_match_init(fast, slow):
    same(fast, slow)


def test_interned_dice_tables():
    assert plain_faces(6)[1:] == tuple(Die(6, v) for v in range(1, 7))
    assert dropped_faces(6)[1:] == tuple(Die(6, v, dropped=True) for v in range(1, 7))
    assert exploding_faces(6)[1:] == (*(Die(6, v) for v in range(1, 6)), Die(6, 6, exploded=True))


@pytest.mark.parametrize(
    ("text", "faces"),
    [
        ("d20+5", [13]),
        ("2d6+d8+3", [1, 6, 8]),
        ("4d6kh3", [2, 6, 1, 5]),
        ("d8!+d6!", [8, 3, 6, 6, 1]),
    ],
)
def test_fast_results_are_frozen_and_round_trip(text, faces):
    result = roll(text, ScriptedRng(faces))
    expr = result.results[0]
    for obj in (result, expr, *expr.groups):
        with pytest.raises(dataclasses.FrozenInstanceError):
            obj.kind = "x"  # type: ignore[misc]
    data = json.loads(json.dumps(result.to_dict()))
    back = result_from_dict(data)
    assert back == result and back.to_dict() == data
    same(back.results[0].groups[0], expr.groups[0])
