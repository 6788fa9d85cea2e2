"""A compiled JSON codec for the encounter state and events: the same format as
`engine.savage.serial` (`Encounter.to_dict`/`from_dict`, `Event.to_dict`/`event_from_dict`),
about 4-5x faster.

`serial` walks the type hints on every call; here each dataclass gets its field encoders
and decoders built once, cards and dice are memoised, and primitive fields are copied as
they are. It reads what `Encounter.to_dict` writes and vice versa (tests check both ways),
so the aggregate's snapshot format is unchanged. Unlike `serial.from_data` it does not
type-check primitive values: snapshots are our own output, and an unreadable one is
ignored by the store anyway.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from functools import cache, lru_cache
from typing import Any

from engine.dice.results import RESULT_CLASSES
from engine.dice.serialize import result_from_dict
from engine.savage import EVENT_TYPES, Card, Die, Encounter, Event, parse_die

Codec = Callable[[Any], Any]
_PRIMITIVES = (int, str, bool, float, type(None), Any)


@lru_cache(maxsize=256)
def _card(code: str) -> Card:
    return Card.parse(code)


@lru_cache(maxsize=256)
def _die(code: str) -> Die:
    return parse_die(code)


@lru_cache(maxsize=256)
def _code(value: Card | Die) -> str:
    return value.code


def _optional(codec: Codec) -> Codec:
    return lambda v: None if v is None else codec(v)


def _fixed_tuple(parts: list[Codec | None], make: Callable[[Any], Any]) -> Codec:
    """A fixed-length tuple such as (name, Die): most are pairs with one coded part."""
    if len(parts) == 2 and parts[0] is None and parts[1] is not None:
        second = parts[1]
        return lambda v: make((v[0], second(v[1])))
    if all(p is None for p in parts):
        return make
    coded = [p or (lambda x: x) for p in parts]
    return lambda v: make([p(x) for p, x in zip(coded, v, strict=True)])


@cache
def encoder(tp: Any) -> Codec | None:
    """None: the value is JSON-safe as it is."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        (inner,) = [a for a in typing.get_args(tp) if a is not type(None)]
        enc = encoder(inner)
        return _optional(enc) if enc else None
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            item = encoder(args[0])
            return (lambda v: [item(x) for x in v]) if item else list
        return _fixed_tuple([encoder(a) for a in args], list)
    if tp in (Card, Die):
        return _code
    if tp in RESULT_CLASSES:
        return lambda v: v.to_dict()
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass_encoder(tp)
    if tp in _PRIMITIVES:
        return None
    raise TypeError(f"no encoder for {tp!r}")


def _dataclass_encoder(cls: type) -> Codec:
    hints = typing.get_type_hints(cls)
    plan = [(f.name, encoder(hints[f.name])) for f in dataclasses.fields(cls)]

    def encode(obj: Any) -> dict[str, Any]:
        out = {}
        for name, enc in plan:
            value = getattr(obj, name)
            out[name] = enc(value) if enc else value
        return out

    return encode


@cache
def decoder(tp: Any) -> Codec | None:
    """None: the JSON value is the Python value."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        (inner,) = [a for a in typing.get_args(tp) if a is not type(None)]
        dec = decoder(inner)
        return _optional(dec) if dec else None
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            item = decoder(args[0])
            return (lambda v: tuple([item(x) for x in v])) if item else tuple
        return _fixed_tuple([decoder(a) for a in args], tuple)
    if tp is Card:
        return _card
    if tp is Die:
        return _die
    if tp in RESULT_CLASSES:
        return result_from_dict
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass_decoder(tp)
    if tp in _PRIMITIVES:
        return None
    raise TypeError(f"no decoder for {tp!r}")


def _dataclass_decoder(cls: type) -> Codec:
    hints = typing.get_type_hints(cls)
    plan = [(f.name, decoder(hints[f.name])) for f in dataclasses.fields(cls) if f.init]

    def decode(data: dict[str, Any]) -> Any:
        kwargs = {}
        for name, dec in plan:
            if name in data:  # a missing field takes its default, as in serial.from_data
                value = data[name]
                kwargs[name] = dec(value) if dec else value
        return cls(**kwargs)

    return decode


def encounter_to_dict(state: Encounter) -> dict[str, Any]:
    return _dataclass_encoder_of(Encounter)(state)


def encounter_from_dict(data: dict[str, Any]) -> Encounter:
    state: Encounter = _dataclass_decoder_of(Encounter)(data)
    return state


def event_to_dict(event: Event) -> dict[str, Any]:
    """As `Event.to_dict`: {"type": <class name>, ...fields}."""
    cls = type(event)
    # A class object is hashable; mypy takes a frozen dataclass's type for its instances'.
    return {"type": cls.__name__, **_dataclass_encoder_of(cls)(event)}  # type: ignore[arg-type]


def event_from_dict(data: dict[str, Any]) -> Event:
    """As `engine.savage.event_from_dict`."""
    cls = EVENT_TYPES[data["type"]]
    event: Event = _dataclass_decoder_of(cls)(data)  # type: ignore[arg-type]  # (as above)
    return event


@cache
def _dataclass_encoder_of(cls: type) -> Codec:
    return _dataclass_encoder(cls)


@cache
def _dataclass_decoder_of(cls: type) -> Codec:
    return _dataclass_decoder(cls)
