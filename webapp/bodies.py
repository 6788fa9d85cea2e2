"""Request bodies: a JSON object of at most 16 KiB (`read_json`) read as a pydantic model:
strict types (an int refuses ``"3"``, ``3.0`` and ``true``; a string refuses a number),
bounded lengths and ranges. A refusal is 400 ``bad_request`` with ``details.field``: the
first offending field, in the model's order."""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from typing import Any, TypeVar

from aiohttp import web
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, ValidationError

from webapp.errors import ApiError

MAX_BODY = 16 * 1024  # bytes of a request body (413 ``payload_too_large`` past it)


async def read_json(request: web.Request) -> dict[str, Any]:
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise ApiError("payload_too_large")
    body = await request.content.read(MAX_BODY + 1)
    if len(body) > MAX_BODY:
        raise ApiError("payload_too_large")
    try:
        data = json.loads(body or b"null")
    except ValueError:
        raise ApiError("bad_request") from None
    if not isinstance(data, dict):
        raise ApiError("bad_request")
    return data


class Body(BaseModel):
    """A JSON body: strict, read-only; keys it does not name are ignored (``command``,
    ``seq``, … are read elsewhere)."""

    model_config = ConfigDict(strict=True, frozen=True, extra="ignore")


B = TypeVar("B", bound=Body)


def parse_body(model: type[B], data: Mapping[str, Any]) -> B:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        loc = exc.errors()[0]["loc"]
        field = loc[0] if loc and isinstance(loc[0], str) else None
        raise ApiError("bad_request", **({"field": field} if field else {})) from None


def stripped(value: str) -> str:
    """A non-blank string, stripped (its length is checked as sent)."""
    value = value.strip()
    if not value:
        raise ValueError("blank")
    return value


def blank_is_none(value: object) -> object:
    return None if value == "" else value


def one_of(allowed: Collection[str]) -> AfterValidator:
    """Exactly one of the engine's accepted values (as the engine spells them)."""

    def check(value: str) -> str:
        if value not in allowed:
            raise ValueError(f"not one of {sorted(allowed)}")
        return value

    return AfterValidator(check)


def _tuples(value: object) -> object:
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


# JSON has no tuples: a strict tuple field takes its (nested) arrays through this.
FROM_ARRAYS = BeforeValidator(_tuples)
# An optional string: absent, null or "" is None.
BLANK_IS_NONE = BeforeValidator(blank_is_none)
