"""Savage Worlds request bodies: the character editor's strict types, the first bad field of
a command, the chase's directions and positions (every command's strict types:
tests/webapp/test_bodies.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.webapp.test_bodies import strict
from webapp.bodies import parse_body
from webapp.errors import ApiError
from webapp.systems.savage.characters import CharacterBody
from webapp.systems.savage.chase_commands import CHASE_COMMANDS
from webapp.systems.savage.commands import ENCOUNTER_COMMANDS


def test_the_character_body_is_strict_but_takes_an_id_as_digits():
    strict(CharacterBody, digits_too={"id"})  # an entry's id, as in the URL


def test_the_first_bad_field_is_reported():
    model = ENCOUNTER_COMMANDS["attack"].model
    with pytest.raises(ApiError) as exc:
        parse_body(model, {"actor": "ichigo", "target": 5, "ap": "2"})
    assert (exc.value.code, exc.value.status, exc.value.details) == (
        "bad_request",
        400,
        {"field": "target"},
    )


@pytest.mark.parametrize(("value", "expected"), [("forward", 1), (1, 1), ("back", -1), (-1, -1)])
def test_a_direction_is_a_word_or_plus_minus_one(value: Any, expected: int):
    model = CHASE_COMMANDS["move"].model
    assert parse_body(model, {"participant": "ichigo", "direction": value}).direction == expected


@pytest.mark.parametrize("value", [True, 1.0, 2, "up", None])
def test_a_bad_direction_is_refused(value: Any):
    with pytest.raises(ApiError) as exc:
        parse_body(CHASE_COMMANDS["move"].model, {"participant": "ichigo", "direction": value})
    assert exc.value.details == {"field": "direction"}


def test_a_chase_participant_needs_a_position_or_a_leader():
    model = CHASE_COMMANDS["add"].model
    body = {"participant": "ichigo", "side": "a"}
    with pytest.raises(ApiError) as exc:
        parse_body(model, body)
    assert exc.value.details == {"field": "position"}
    assert parse_body(model, {**body, "leader": "rukiya"}).position is None
    assert parse_body(model, {**body, "position": 0}).position == 0
