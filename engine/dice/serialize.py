"""The exact inverse of the results' ``to_dict()`` (see ``results.to_data``).

Decoding is driven by the field type hints; a union of dataclasses (the display tokens) is
resolved by the ``kind`` value; ``results.RESULT_CLASSES`` is the registry of kinds.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from fractions import Fraction
from functools import cache
from typing import Any

from .results import RESULT_CLASSES


def result_from_dict(data: dict[str, Any]) -> Any:
    """Rebuild any result (or nested result part) from ``to_dict()`` output."""
    if not isinstance(data, dict) or "kind" not in data:
        raise ValueError("not a dice result")
    for cls in RESULT_CLASSES:
        if _fixed_kind(cls) == data["kind"]:
            return _decode(cls, data)
    raise ValueError(f"unknown result kind {data['kind']!r}")


def _fixed_kind(cls: type) -> str | None:
    for f in dataclasses.fields(cls):
        if f.name == "kind" and not f.init:
            return f.default if isinstance(f.default, str) else None
    return None


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _decode(tp: Any, value: Any) -> Any:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(tp)
        if value is None and type(None) in options:
            return None
        classes = [o for o in options if isinstance(o, type) and dataclasses.is_dataclass(o)]
        if len(classes) > 1:  # tagged union of dataclasses
            for cls in classes:
                if _fixed_kind(cls) == value.get("kind"):
                    return _decode(cls, value)
            raise ValueError(f"unexpected kind {value.get('kind')!r}")
        rest = [o for o in options if o is not type(None)]
        return _decode(rest[0], value)
    if origin is tuple:
        (item, _ellipsis) = typing.get_args(tp)
        return tuple(_decode(item, v) for v in value)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        fixed = _fixed_kind(tp)
        if fixed is not None and value.get("kind") != fixed:
            raise ValueError(f"expected kind {fixed!r}, got {value.get('kind')!r}")
        kwargs = {
            f.name: _decode(hints[f.name], value[f.name]) for f in dataclasses.fields(tp) if f.init
        }
        return tp(**kwargs)
    if tp is Fraction:
        return Fraction(value)
    if tp in (int, str, bool) and not isinstance(value, tp):
        raise ValueError(f"expected {tp.__name__}, got {value!r}")
    return value
