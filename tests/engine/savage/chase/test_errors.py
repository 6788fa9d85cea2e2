"""Error codes: stable codes with params, no user text in the engine."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from engine.dice.rng import ScriptedRng
from engine.savage.chase import (
    ERROR_CODES,
    ChangePosition,
    ChaseError,
    Flee,
    SetModifier,
    StartTurn,
    decide,
)

from .helpers import SPADES_ACTION, Game, duel


def test_error_carries_code_and_params() -> None:
    err = ChaseError("flee_too_close", {"required": 4}, distance=3)
    assert err.code == "flee_too_close" and err.params == {"required": 4, "distance": 3}
    assert "flee_too_close" in str(err)
    with pytest.raises(KeyError):
        ChaseError("no_such_code")
    assert all(code.isidentifier() and code.islower() for code in ERROR_CODES)


@pytest.mark.parametrize(
    ("command", "code"),
    [
        (StartTurn("ghost", SPADES_ACTION), "unknown_participant"),
        (ChangePosition("runner", 1, modifier=21), "bad_modifier"),
        (SetModifier("runner", -25), "bad_modifier"),
    ],
)
def test_refused_commands(command: object, code: str) -> None:
    g = duel()
    g.turn("runner")
    with pytest.raises(ChaseError) as err:
        g.do(command)  # type: ignore[arg-type]
    assert err.value.code == code


def test_turns_need_a_round_and_do_not_overlap() -> None:
    g = Game()
    g.add("runner", "quarry", 4)
    g.add("hunter", "pursuers", 0)
    with pytest.raises(ChaseError) as err:
        g.turn("runner")
    assert err.value.code == "no_round"
    g.round()
    g.turn("runner")
    with pytest.raises(ChaseError) as err:
        g.turn("runner")
    assert err.value.code == "turn_in_progress"
    g.turn("hunter")  # an interruption (Hold, Joker): two open turns
    assert {t.participant for t in g.state.turns} == {"runner", "hunter"}


def test_flee_without_any_opponent_left() -> None:
    # Not reachable through commands (the chase ends first); a hand-made state checks it.
    g = duel()
    g.turn("runner")
    hunter = replace(g.state.participant("hunter"), status="escaped")
    state = g.state.with_participant(hunter)
    with pytest.raises(ChaseError) as err:
        decide(state, Flee("runner"), ScriptedRng([]))
    assert err.value.code == "no_opponents"


def test_every_error_code_is_listed_in_the_rules_reference() -> None:
    doc = (Path(__file__).parents[4] / "docs" / "rules" / "chase.md").read_text(encoding="utf-8")
    missing = [code for code in ERROR_CODES if f"`{code}`" not in doc]
    assert missing == []
