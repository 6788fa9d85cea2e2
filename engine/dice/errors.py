"""Errors raised by the dice engine.

Stable error codes (the bot renders each one as a sentence through gettext):

    empty             nothing to roll
    too_long          the text is longer than the limit
    unexpected        a character or word that does not fit here
    incomplete        the expression ends too early (``2d6+``, ``d``, ``цн`` without a number)
    unclosed_paren    an opening parenthesis is never closed
    number_too_large  a number above the limit
    too_deep          parentheses or unary minuses nested too deeply
    too_many_dice     too many dice in one term or in the whole expression
    too_many_sides    a die with more sides than the limit
    too_many_repeats  ``N#`` with N above the limit
    bad_count         zero dice or zero repeats (``0d6``, ``0#d6``)
    bad_sides         a die with zero sides (``d0``)
    bad_modifier      a modifier that cannot apply (``2d6kh0``, ``4d6kh5``, two keeps, ``f`` alone)
    endless_dice      a die that would reroll or explode forever (``d1!``, ``d6r<=6``)
    division_by_zero  division by zero
    result_too_large  an intermediate value beyond the limit
    out_of_range      a rule parameter outside its range (difficulty 11, pool of 0 dice)
    bad_die           a SWADE trait die that is not d4, d6, d8, d10 or d12
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

ERROR_CODES: dict[str, str] = {
    "empty": "Nothing to roll.",
    "too_long": "The text is longer than the limit ({limit} characters).",
    "unexpected": "Unexpected character or word.",
    "incomplete": "The expression ends too early.",
    "unclosed_paren": "An opening parenthesis is not closed.",
    "number_too_large": "A number is larger than the limit ({limit}).",
    "too_deep": "Parentheses or signs are nested deeper than the limit ({limit}).",
    "too_many_dice": "Too many dice (limit {limit}).",
    "too_many_sides": "A die has more sides than the limit ({limit}).",
    "too_many_repeats": "Too many repeats (limit {limit}).",
    "bad_count": "The number of dice or repeats must be at least 1.",
    "bad_sides": "A die must have at least one side.",
    "bad_modifier": "A modifier cannot be applied here.",
    "endless_dice": "These dice would reroll or explode forever.",
    "division_by_zero": "Division by zero.",
    "result_too_large": "A value is larger than the limit ({limit}).",
    "out_of_range": "{what} must be between {min} and {max}.",
    "bad_die": "A SWADE trait die must be d4, d6, d8, d10 or d12.",
}

FRAGMENT_LIMIT = 20


class DiceError(ValueError):
    """A user-facing dice error: ``code`` is a key of ``ERROR_CODES``."""

    def __init__(
        self,
        code: str,
        *,
        position: int | None = None,
        fragment: str = "",
        params: dict[str, Any] | None = None,
    ) -> None:
        if code not in ERROR_CODES:  # a programming error, not a user one
            raise KeyError(f"unknown dice error code {code!r}")
        self.code = code
        self.position = position
        self.fragment = fragment[:FRAGMENT_LIMIT]
        self.params = dict(params or {})
        super().__init__(f"{code} at {position}: {self.fragment!r} {self.params}")

    def __reduce__(self) -> tuple[Callable[..., DiceError], tuple[object, ...]]:
        # keep pickling (multiprocessing, caches) working with keyword fields
        return (_rebuild, (self.code, self.position, self.fragment, self.params))


def _rebuild(code: str, position: int | None, fragment: str, params: dict[str, Any]) -> DiceError:
    return DiceError(code, position=position, fragment=fragment, params=params)
