"""Request bodies as models: strict types for every field of every command, the refusal's
shape (400 ``bad_request`` with the field)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from webapp.api.rolls import RollBody
from webapp.bodies import parse_body
from webapp.errors import ApiError
from webapp.systems.savage.characters import CharacterBody
from webapp.systems.savage.chase_commands import CHASE_COMMANDS
from webapp.systems.savage.commands import ENCOUNTER_COMMANDS

MODELS: list[type[BaseModel]] = sorted(
    {spec.model for spec in (*ENCOUNTER_COMMANDS.values(), *CHASE_COMMANDS.values())}
    | {RollBody, CharacterBody},
    key=lambda model: f"{model.__module__}.{model.__name__}",
)


def refuses(model: type[BaseModel], field: str, value: Any) -> bool:
    try:
        model.model_validate({field: value})
    except ValidationError as exc:
        return any(error["loc"][:1] == (field,) for error in exc.errors())
    return False


def accepts_int(model: type[BaseModel], field: str) -> int | None:
    return next((n for n in (1, 4) if not refuses(model, field, n)), None)


DIGITS_TOO = {(CharacterBody, "id")}  # an entry's id, as in the URL, may come as its digits


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
def test_no_field_takes_a_float_and_an_int_field_no_bool_or_string(model: type[BaseModel]):
    for field, info in model.model_fields.items():
        name = field if info.validation_alias is None else "command"
        assert refuses(model, name, 1.0), (model.__name__, name)
        number = accepts_int(model, name)
        if number is not None:
            bad = [float(number), True] + [str(number)] * ((model, name) not in DIGITS_TOO)
            for value in bad:
                assert refuses(model, name, value), (model.__name__, name, value)


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
