"""Hypothesis strategies for the engines' frozen dataclasses (every init field drawn, not
only the required ones) and `reference`, the stored JSON format written out by hand: the
codec's output must be exactly this, key order included (the stored format is unchanged
since the hand-written codecs)."""

from __future__ import annotations

import dataclasses
import typing
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

from engine.savage.cards import Card, full_deck
from engine.savage.chase.roll import ManeuverRoll
from engine.savage.traits import Die, parse_die

_done: set[type] = set()

st.register_type_strategy(Card, st.sampled_from(full_deck()))
st.register_type_strategy(
    Die, st.sampled_from([parse_die(c) for c in ("d4", "d6", "d8", "d10", "d12", "d12+2")])
)
st.register_type_strategy(Fraction, st.fractions())
_done |= {Card, Die}

_JSON_LEAF = st.none() | st.booleans() | st.integers() | st.text(max_size=6)


def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)  # Annotated metadata stripped


def _walk(tp: Any) -> None:
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        register(tp)
    for arg in typing.get_args(tp):
        _walk(arg)


def register(cls: type) -> None:
    """Make `st.from_type(cls)` draw every init field of `cls` (and of the dataclasses in
    it), defaults included."""
    if cls in _done:
        return
    _done.add(cls)
    hints = _hints(cls)
    fields = [f for f in dataclasses.fields(cls) if f.init]
    for f in fields:
        _walk(hints[f.name])
    kwargs: dict[str, st.SearchStrategy[Any]] = {
        f.name: st.deferred(lambda tp=hints[f.name]: st.from_type(tp)) for f in fields
    }
    if cls is ManeuverRoll:  # the dice engine's dict, kept as it is
        kwargs["result"] = st.dictionaries(st.text(max_size=6), _JSON_LEAF, max_size=3)
    st.register_type_strategy(cls, st.builds(cls, **kwargs))


def _left_out(cls: type, f: dataclasses.Field[Any], value: Any) -> bool:
    """A field added after rows were written (engine/savage/stored.py) is left out while it
    holds its default."""
    hint = typing.get_type_hints(cls, include_extras=True).get(f.name)
    marked = any(getattr(m, "exclude_if", None) for m in getattr(hint, "__metadata__", ()))
    return marked and value == f.default


def reference(value: Any) -> Any:
    """The stored format: a dataclass is a dict of its fields in order, a tuple a list, a
    card or a trait die its code, a probability "n/d"."""
    if isinstance(value, Card | Die):
        return value.code
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: reference(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if not _left_out(type(value), f, getattr(value, f.name))
        }
    if isinstance(value, tuple | list):
        return [reference(v) for v in value]
    if isinstance(value, dict):
        return {k: reference(v) for k, v in value.items()}
    return value
