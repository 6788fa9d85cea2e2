"""Result dataclasses: every face is kept so the bot can render and audit a roll.

All classes are frozen. Each has a ``kind`` and ``to_dict()`` giving JSON-safe data through
``engine.codec`` (dataclass -> dict of its fields, ``kind`` included; tuple -> list;
Fraction -> "n/d"); ``result_from_dict`` (``RESULTS.from_data``) rebuilds the exact object.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Annotated, Any, ClassVar, TypeVar

from engine import codec


def kind_of(cls: type) -> str:
    """The fixed ``kind`` of a result class (its ``init=False`` field's default)."""
    for f in dataclasses.fields(cls):
        if f.name == "kind" and not f.init and isinstance(f.default, str):
            return f.default
    raise TypeError(f"{cls.__name__} has no fixed kind")


class Serializable:
    __slots__ = ()
    # Decoded as __init__ builds them: ``kind`` stays the class default (see below).
    __get_pydantic_core_schema__: ClassVar[Any] = classmethod(codec.init_defaults)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = codec.to_data(self)
        return data


# Stored as "n/d", the denominator always written ("1/1").
Probability = Annotated[
    Fraction,
    codec.Scalar(Fraction, lambda f: f"{f.numerator}/{f.denominator}", Fraction),
]


# The hot classes (Die, Literal, DiceGroup, ExpressionResult, RollResult) keep a __dict__ so
# the roller can build them by filling that dict (see make_* and the makers below): a frozen
# dataclass __init__ sets each field through object.__setattr__, which costs several times
# more. The objects are identical to ones built by __init__, __dict__ included: ``kind`` stays
# out of it, as __init__ leaves an init=False field to its class default
# (tests/engine/dice/test_results.py).
_new = object.__new__
_set = object.__setattr__


# --- generic notation -------------------------------------------------------------------


@dataclass(frozen=True)
class Die(Serializable):
    """One face. ``rerolled`` faces were replaced and are not counted; ``exploded`` faces
    triggered the next die (an ace)."""

    kind: str = field(default="die", init=False)
    sides: int
    value: int
    exploded: bool = False
    dropped: bool = False
    rerolled: bool = False
    success: bool | None = None  # None unless successes are counted (and the die is counted)
    cancels: bool = False  # a face (usually 1) that cancels a success
    wild: bool = False  # a system's die rolled beside the others and shown apart

    @property
    def counted(self) -> bool:
        return not (self.dropped or self.rerolled)


@dataclass(frozen=True)
class Literal(Serializable):
    """A number, operator or parenthesis, normalised (``+ - * / ( )``)."""

    kind: str = field(default="literal", init=False)
    text: str


@dataclass(frozen=True)
class DiceGroup(Serializable):
    """One dice term such as ``4d6kh3``; ``value`` is its contribution to the total
    (net successes when successes are counted)."""

    kind: str = field(default="dice", init=False)
    notation: str
    sides: int
    dice: tuple[Die, ...]
    value: int
    capped: bool = False  # explosions/rerolls stopped at limits.MAX_EXTRA_DICE
    counts_successes: bool = False
    has_failures: bool = False  # an ``f`` condition was given

    @property
    def successes(self) -> int:
        return sum(1 for d in self.dice if d.success and d.counted)

    @property
    def cancels(self) -> int:
        return sum(1 for d in self.dice if d.cancels and d.counted)


# A display token: told apart by its "kind" in the stored data.
Token = Annotated[Literal | DiceGroup, codec.Tagged("kind", kind_of)]


@dataclass(frozen=True)
class ExpressionResult(Serializable):
    """One evaluation of an expression; ``tokens`` is the display sequence in source order."""

    kind: str = field(default="expression", init=False)
    total: int
    tokens: tuple[Token, ...]
    counts_successes: bool = False
    botch: bool = False  # successes counted with ``f``: no successes and at least one cancel

    @property
    def groups(self) -> tuple[DiceGroup, ...]:
        return tuple(t for t in self.tokens if isinstance(t, DiceGroup))

    @property
    def capped(self) -> bool:
        return any(g.capped for g in self.groups)


@dataclass(frozen=True)
class RollResult(Serializable):
    kind: str = field(default="roll", init=False)
    expression: str  # normalised, e.g. "6#4d6kh3"
    comment: str
    results: tuple[ExpressionResult, ...]  # one per repeat


@dataclass(frozen=True, slots=True)
class Modifier(Serializable):
    """A labelled modifier. Labels are codes the surfaces translate: ``modifier`` (typed by
    the user) and the labels of a system's own rolls."""

    kind: str = field(default="modifier", init=False)
    label: str
    value: int


# --- Odds -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OutcomeOdds(Serializable):
    kind: str = field(default="outcome_odds", init=False)
    name: str
    probability: Probability

    @property
    def percent(self) -> float:
        return float(self.probability) * 100


@dataclass(frozen=True, slots=True)
class ThresholdOdds(Serializable):
    """P(result >= at_least): of raises, of net successes… (the system says which)."""

    kind: str = field(default="threshold_odds", init=False)
    at_least: int
    probability: Probability

    @property
    def percent(self) -> float:
        return float(self.probability) * 100


@dataclass(frozen=True, slots=True)
class OddsResult(Serializable):
    kind: str = field(default="odds", init=False)
    system: str  # whose odds: the surfaces name its outcomes and thresholds
    expression: str
    outcomes: tuple[OutcomeOdds, ...]  # exclusive, they sum to 1
    thresholds: tuple[ThresholdOdds, ...]

    def probability(self, name: str) -> Fraction:
        for o in self.outcomes:
            if o.name == name:
                return o.probability
        raise KeyError(name)

    def as_floats(self) -> dict[str, float]:
        return {o.name: float(o.probability) for o in self.outcomes}


def make_die(
    sides: int,
    value: int,
    exploded: bool = False,
    dropped: bool = False,
    rerolled: bool = False,
    success: bool | None = None,
    cancels: bool = False,
) -> Die:
    d = _new(Die)
    _set(d, "__dict__", {
        "sides": sides, "value": value, "exploded": exploded, "dropped": dropped,
        "rerolled": rerolled, "success": success, "cancels": cancels, "wild": False,
    })  # fmt: skip
    return d


def make_group(
    notation: str,
    sides: int,
    dice: tuple[Die, ...],
    value: int,
    capped: bool = False,
    counts_successes: bool = False,
    has_failures: bool = False,
) -> DiceGroup:
    g = _new(DiceGroup)
    _set(g, "__dict__", {
        "notation": notation, "sides": sides, "dice": dice, "value": value,
        "capped": capped, "counts_successes": counts_successes, "has_failures": has_failures,
    })  # fmt: skip
    return g


def make_expression(
    total: int, tokens: tuple[Token, ...], counts_successes: bool, botch: bool
) -> ExpressionResult:
    e = _new(ExpressionResult)
    _set(e, "__dict__", {
        "total": total, "tokens": tokens, "counts_successes": counts_successes, "botch": botch,
    })  # fmt: skip
    return e


def make_roll(expression: str, comment: str, results: tuple[ExpressionResult, ...]) -> RollResult:
    r = _new(RollResult)
    _set(r, "__dict__", {"expression": expression, "comment": comment, "results": results})
    return r


# Makers: constructors taking only the fields that vary per roll, the others fixed when a
# program is compiled. ``obj.__dict__ |= fixed`` on a fresh instance, then the varying keys,
# is the cheapest construction measured on CPython 3.11: about 40% less than setting a dict
# literal as __dict__, and no Python-level setattr. The hottest builders (terms.py,
# evaluate.py) spell the same four lines out to save the call.


def group_fields(notation: str, sides: int) -> dict[str, Any]:
    """The ``__dict__`` of ``DiceGroup(notation, sides, (), 0)``: fields in order."""
    return {"notation": notation, "sides": sides, "dice": (), "value": 0, "capped": False,
            "counts_successes": False, "has_failures": False}  # fmt: skip


def group_maker(notation: str, sides: int) -> Callable[[tuple[Die, ...], int], DiceGroup]:
    """``make(dice, value)`` = ``DiceGroup(notation, sides, dice, value)``."""
    fixed = group_fields(notation, sides)

    def make(dice: tuple[Die, ...], value: int) -> DiceGroup:
        g = _new(DiceGroup)
        fields = g.__dict__  # reading is allowed; the frozen class only forbids setattr
        fields |= fixed
        fields["dice"] = dice
        fields["value"] = value
        return g

    return make


def expression_fields(counts_successes: bool) -> dict[str, Any]:
    """The ``__dict__`` of ``ExpressionResult(0, (), counts_successes)``: fields in order."""
    return {"total": 0, "tokens": (), "counts_successes": counts_successes, "botch": False}


def expression_maker(
    counts_successes: bool,
) -> Callable[[int, tuple[Token, ...]], ExpressionResult]:
    """``make(total, tokens)`` = ``ExpressionResult(total, tokens, counts_successes)``."""
    fixed = expression_fields(counts_successes)

    def make(total: int, tokens: tuple[Token, ...]) -> ExpressionResult:
        e = _new(ExpressionResult)
        fields = e.__dict__
        fields |= fixed
        fields["total"] = total
        fields["tokens"] = tokens
        return e

    return make


def roll_fields(expression: str, comment: str) -> dict[str, Any]:
    """The ``__dict__`` of ``RollResult(expression, comment, ())``: fields in order."""
    return {"expression": expression, "comment": comment, "results": ()}


RESULT_CLASSES: list[type[Serializable]] = [
    Die,
    Literal,
    DiceGroup,
    ExpressionResult,
    RollResult,
    Modifier,
    OutcomeOdds,
    ThresholdOdds,
    OddsResult,
]

RESULTS: codec.Family[Serializable] = codec.Family(
    "kind", {kind_of(cls): cls for cls in RESULT_CLASSES}, tag_in_fields=True
)

R = TypeVar("R", bound=type[Serializable])


def register_result(cls: R) -> R:
    """A class decorator: a system's result type, decoded by its ``kind`` like the others
    (``result_from_dict``). Its module registers it on import; each kind once."""
    kind = kind_of(cls)
    if kind not in RESULTS.classes:
        RESULT_CLASSES.append(cls)
    RESULTS.add(kind, cls)
    return cls
