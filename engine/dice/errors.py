"""Errors raised by the dice engine.

Stable error codes (each one's sentence is its template below, translated by the surfaces):

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
    out_of_range      a rule parameter outside its range (difficulty 11, 0 dice)
    bad_die           a die a system's roll does not take

A system's roll says a code in its own words through a subclass of `DiceError` with a
family and a table of its own (the codes it says otherwise; the code stays the same).
"""

from __future__ import annotations

from typing import Any

from engine import describe
from engine.describe import Template
from engine.errors import CodedError

ERROR_CODES: dict[str, Template] = {
    "empty": "Nothing to roll",
    "too_long": "The text is too long: at most {limit} characters",
    "unexpected": "I don't understand this character or word",
    "incomplete": "The roll ends too early",
    "unclosed_paren": "A parenthesis is not closed",
    "number_too_large": "The number is too large: at most {limit}",
    "too_deep": "Too many nested parentheses or signs: at most {limit}",
    "too_many_dice": "Too many dice: at most {limit}",
    "too_many_sides": "Too many sides on a die: at most {limit}",
    "too_many_repeats": "Too many repeats: at most {limit}",
    "bad_count": "There must be at least one die and at least one repeat",
    "bad_sides": "A die needs at least one side",
    "bad_modifier": "This modifier cannot be used here",
    "endless_dice": "These dice would explode or reroll forever",
    "division_by_zero": "Division by zero",
    "result_too_large": "The value is too large: at most {limit}",
    "out_of_range": "{what} must be from {min} to {max}",
    "bad_die": "This roll does not take that die",
}

# what an ``out_of_range`` error is about (its ``what`` param); "other" for the rest
SUBJECTS: dict[str, Template] = {
    "difficulty": "Difficulty",
    "dice": "The number of dice",
    "tn": "The target number",
    "target": "The target number",
    "toughness": "Toughness",
    "modifier": "A modifier",
    "armor": "Armor",
    "fatigue": "Fatigue",
    "other": "The value",
}

describe.register("dice", ERROR_CODES)
describe.register("dice_subject", SUBJECTS)
describe.kinds("dice", what=describe.label("dice_subject"))

FRAGMENT_LIMIT = 20


class DiceError(CodedError, ValueError):
    """A user-facing dice error: ``code`` is a key of ``ERROR_CODES``; ``position`` and
    ``fragment`` point at the offending part of the text (the sentence says the rest)."""

    family = "dice"
    codes = ERROR_CODES

    def __init__(
        self,
        code: str,
        *,
        position: int | None = None,
        fragment: str = "",
        params: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(code, params)
        self.position = position
        self.fragment = fragment[:FRAGMENT_LIMIT]
        self.args = (f"{code} at {position}: {self.fragment!r} {self.params}",)
