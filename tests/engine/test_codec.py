"""engine.codec on small types of its own: scalars, tagged unions, families, defaults."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Annotated

import pytest

from engine import codec


class Colour:
    """A value stored as a code, like a card."""

    def __init__(self, code: str) -> None:
        if code not in ("red", "blue"):
            raise LookupError(f"no colour {code!r}")  # not a ValueError: must pass through
        self.code = code

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Colour) and other.code == self.code

    def __hash__(self) -> int:
        return hash(self.code)


decoded: list[str] = []


def _colour(code: str) -> Colour:
    decoded.append(code)
    return Colour(code)


codec.scalar(Colour, encode=lambda c: c.code.upper(), decode=lambda s: _colour(s.lower()))

AS_TEXT = codec.Scalar(Fraction, lambda f: f"{f.numerator}/{f.denominator}", Fraction)
Half = Annotated[Fraction, AS_TEXT]


@dataclass(frozen=True)
class Dot:
    kind: str = field(default="dot", init=False)
    colour: Colour


@dataclass(frozen=True, slots=True)
class Line:
    kind: str = field(default="line", init=False)
    length: int
    colours: tuple[Colour, ...] = ()


def kind_of(cls: type) -> str:
    return {Dot: "dot", Line: "line"}[cls]


Mark = Annotated[Dot | Line, codec.Tagged("kind", kind_of)]


@dataclass(frozen=True, slots=True)
class Page(codec.Coded):
    marks: tuple[Mark, ...]
    share: Half = Fraction(1)
    title: str | None = None
    added_later: int = 7


@dataclass(frozen=True, slots=True)
class Opened:
    step: int
    page: Page


@dataclass(frozen=True, slots=True)
class Closed:
    step: int
    why: str = "done"


EVENTS = codec.Family("type", {"opened": Opened, "closed": Closed})

PAGE = Page((Dot(Colour("red")), Line(3, (Colour("blue"), Colour("red")))), Fraction(2, 4), "x")


def test_a_dataclass_is_a_dict_of_its_fields_in_order() -> None:
    data = PAGE.to_dict()
    assert json.dumps(data) == json.dumps(
        {
            "marks": [
                {"kind": "dot", "colour": "RED"},
                {"kind": "line", "length": 3, "colours": ["BLUE", "RED"]},
            ],
            "share": "1/2",
            "title": "x",
            "added_later": 7,
        }
    )
    assert Page.from_dict(json.loads(json.dumps(data))) == PAGE
    assert codec.codec(Half).to_data(Fraction(3)) == "3/1"


def test_the_union_member_is_chosen_by_the_tag() -> None:
    data = {"marks": [{"kind": "line", "length": 2}, {"kind": "dot", "colour": "BLUE"}]}
    page = Page.from_dict(data)
    assert page.marks == (Line(2), Dot(Colour("blue")))
    with pytest.raises(ValueError):
        Page.from_dict({"marks": [{"kind": "circle", "length": 2}]})


def test_missing_fields_take_their_defaults_and_unknown_keys_are_ignored() -> None:
    page = Page.from_dict({"marks": [], "removed_since": True})
    assert page == Page(())
    with pytest.raises(ValueError):
        Page.from_dict({"share": "1/2"})  # marks has no default


def test_a_scalar_decoder_runs_once_per_code_and_its_error_passes_through() -> None:
    decoded.clear()
    Page.from_dict({"marks": [{"kind": "dot", "colour": "RED"}] * 5})
    assert decoded.count("red") <= 1  # memoised (0 if an earlier test decoded it)
    with pytest.raises(LookupError, match="green"):
        Page.from_dict({"marks": [{"kind": "dot", "colour": "GREEN"}]})


def test_init_false_fields_are_read_back_as_init_builds_them() -> None:
    """Without slots, __init__ leaves an init=False field to the class default (not in the
    instance __dict__); `init_defaults` keeps decoded objects the same."""

    @dataclass(frozen=True)
    class Plain:
        __get_pydantic_core_schema__ = classmethod(codec.init_defaults)
        kind: str = field(default="plain", init=False)
        n: int

    back = codec.from_data(Plain, {"kind": "plain", "n": 2})
    assert back == Plain(2) and vars(back) == vars(Plain(2)) == {"n": 2}
    assert codec.to_data(back) == {"kind": "plain", "n": 2}


def test_a_family_writes_its_tag_first_and_reads_by_it() -> None:
    event = Opened(3, PAGE)
    data = EVENTS.to_data(event)
    assert list(data)[:2] == ["type", "step"] and data["type"] == "opened"
    assert EVENTS.from_data(json.loads(json.dumps(data))) == event
    assert EVENTS.from_data({"type": "closed", "step": 4}) == Closed(4)
    for bad in ({"type": "torn", "step": 1}, {"step": 1}, ["opened"]):
        with pytest.raises(ValueError):
            EVENTS.from_data(bad)  # type: ignore[arg-type]


def test_one_adapter_per_type() -> None:
    assert codec.codec(Page) is codec.codec(Page)
