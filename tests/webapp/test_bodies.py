"""Request bodies as models: strict types for every field of the roll and of every board
command of every registered rule system, the refusal's shape (400 ``bad_request`` with the
field)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from webapp.api.rolls import RollBody
from webapp.systems.registry import adapters

MODELS: list[type[BaseModel]] = sorted(
    {
        spec.model
        for system in adapters()
        for scene in system.scenes
        for spec in scene.commands.values()
    }
    | {RollBody},
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


def strict(model: type[BaseModel], digits_too: Collection[str] = ()) -> None:
    """No field takes a float; an integer field takes no bool and (unless in `digits_too`)
    no string of digits."""
    for field, info in model.model_fields.items():
        name = field if info.validation_alias is None else "command"
        assert refuses(model, name, 1.0), (model.__name__, name)
        number = accepts_int(model, name)
        if number is not None:
            bad = [float(number), True] + [str(number)] * (name not in digits_too)
            for value in bad:
                assert refuses(model, name, value), (model.__name__, name, value)


def test_the_registered_systems_commands_are_among_them():
    assert len(MODELS) > 1


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
def test_no_field_takes_a_float_and_an_int_field_no_bool_or_string(model: type[BaseModel]):
    strict(model)
