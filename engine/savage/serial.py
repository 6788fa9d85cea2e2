"""JSON-safe encoding of the savage state, events and characters, and its exact inverse.

Driven by the dataclass type hints: dataclass -> dict of fields, tuple -> list, Card and Die
-> their short codes ("AS", "d12+1"), dice results -> ``engine.dice`` dicts.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from functools import cache
from typing import Any

from engine.dice.results import RESULT_CLASSES
from engine.dice.serialize import result_from_dict

from .cards import Card
from .traits import Die, parse_die


def to_data(obj: Any) -> Any:
    if isinstance(obj, Card | Die):
        return obj.code
    if isinstance(obj, RESULT_CLASSES):
        return obj.to_dict()
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_data(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, tuple | list):
        return [to_data(x) for x in obj]
    return obj


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_data(tp: Any, value: Any) -> Any:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        options = [o for o in typing.get_args(tp) if o is not type(None)]
        if value is None:
            return None
        if len(options) != 1:
            raise TypeError(f"ambiguous union {tp}")
        return from_data(options[0], value)
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_data(args[0], v) for v in value)
        return tuple(from_data(a, v) for a, v in zip(args, value, strict=True))
    if tp is Card:
        return Card.parse(value)
    if tp is Die:
        return parse_die(value)
    if tp in RESULT_CLASSES:
        return result_from_dict(value)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        kwargs = {
            f.name: from_data(hints[f.name], value[f.name])
            for f in dataclasses.fields(tp)
            if f.init and f.name in value
        }
        return tp(**kwargs)
    if tp in (int, str, bool) and not isinstance(value, tp):
        raise ValueError(f"expected {tp.__name__}, got {value!r}")
    return value
