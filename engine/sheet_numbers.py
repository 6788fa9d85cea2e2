"""The one bound of every number on a character sheet, whatever its rule system: a text
block's or a JSON's number beyond it is refused with the same sentence everywhere (each
system's engine registers `TEMPLATE` under `CODE` in its own table of refusals).

The bound is the dice notation's (`engine.dice.limits.MAX_NUMBER`): no number a person writes,
in a roll or on a sheet, goes beyond it. A system's own rules bound its numbers more tightly
where they say so (dice d4–d12, ratings 0–10); this is the bound past which nothing is read.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping
from typing import Any

from engine.dice.limits import MAX_NUMBER

SHEET_NUMBER_MAX = MAX_NUMBER
CODE = "sheet_number_too_large"
# params: value = the number as written (text: JSON-safe however long), max = the bound
TEMPLATE = (
    "Too large a number: {value}. A number on a character sheet is at most {max} in absolute value."
)
_SHOWN = 24  # digits of a refused number kept in the refusal


def too_large(value: int) -> bool:
    return abs(value) > SHEET_NUMBER_MAX


def read(digits: str) -> int | None:
    """A number written in a sheet («+12», «300»), None when it is beyond the bound (read
    without turning thousands of digits into an int)."""
    text = digits.strip().lstrip("+-").lstrip("0")
    if len(text) > len(str(SHEET_NUMBER_MAX)):
        return None
    value = int(digits)
    return None if too_large(value) else value


def params(value: int | str) -> dict[str, Any]:
    """The refusal's params for the number (as written, or as read)."""
    text = str(value).strip()
    if len(text) > _SHOWN:
        text = text[:_SHOWN] + "…"
    return {"value": text, "max": SHEET_NUMBER_MAX}


def first_too_large(value: object, skip: Collection[str] = ()) -> tuple[str, int] | None:
    """The first number beyond the bound in a sheet (its dataclasses, mappings and
    sequences, walked in order) as (its path, the number); ``skip`` names the fields that
    are no numbers of the sheet (a Telegram user id, the state of a fight)."""
    stack: list[tuple[str, object]] = [("", value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, bool):
            continue
        if isinstance(item, int):
            if too_large(item):
                return path, item
            continue
        children: list[tuple[str, object]]
        if dataclasses.is_dataclass(item) and not isinstance(item, type):
            children = [
                (f.name, getattr(item, f.name))
                for f in dataclasses.fields(item)
                if f.name not in skip
            ]
        elif isinstance(item, Mapping):
            children = [(str(k), v) for k, v in item.items()]
        elif isinstance(item, tuple | list):
            children = [(str(i), v) for i, v in enumerate(item)]
        else:
            continue
        prefix = f"{path}." if path else ""
        stack.extend((prefix + name, child) for name, child in reversed(children))
    return None
