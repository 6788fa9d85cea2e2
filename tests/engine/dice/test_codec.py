"""The stored format of every dice result (the roll log, reveals, events carrying rolls):
drawn at random with every field set, each encodes to exactly the documented format and
decodes back to an equal object."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine.services.installed  # noqa: F401  (the installed systems register their rolls)
from engine.dice import OddsResult, result_from_dict, roll
from engine.dice.results import RESULT_CLASSES, OutcomeOdds, ThresholdOdds
from engine.dice.rng import ScriptedRng
from tests.engine.strategies import reference, register

for cls in RESULT_CLASSES:
    register(cls)


@pytest.mark.parametrize("cls", RESULT_CLASSES, ids=lambda c: c.__name__)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_result_round_trips_in_the_stored_format(cls: type, data: Any) -> None:
    result = data.draw(st.from_type(cls))
    stored = result.to_dict()
    assert json.dumps(stored, ensure_ascii=False) == json.dumps(
        reference(result), ensure_ascii=False
    )
    assert result_from_dict(json.loads(json.dumps(stored))) == result


def test_probabilities_keep_their_denominator() -> None:
    odds = OddsResult(
        "swade", "d6", (OutcomeOdds("success", Fraction(1)),), (ThresholdOdds(1, Fraction(1, 3)),)
    )
    data = odds.to_dict()
    assert data["outcomes"][0]["probability"] == "1/1"
    assert data["thresholds"][0]["probability"] == "1/3"
    assert result_from_dict(data) == odds


def test_a_token_is_read_by_its_kind_and_unknown_kinds_are_refused() -> None:
    data = roll("d6+2", ScriptedRng([4])).to_dict()
    tokens = data["results"][0]["tokens"]
    assert [t["kind"] for t in tokens] == ["dice", "literal", "literal"]
    tokens[1]["kind"] = "emoji"
    with pytest.raises(ValueError):
        result_from_dict(data)
    for bad in ({"kind": "tarot"}, {"sides": 6}, ["roll"]):
        with pytest.raises(ValueError):
            result_from_dict(bad)  # type: ignore[arg-type]
