"""The fighter's text block (Russian, pasted as it is) and its JSON.

    Бьорн
    Класс: Рейдер
    Атака 2, Блок 1, Уклонение 0, Урон d8, Хп 20, Броня 1

The stats line is the seed's own: «Атака X, Блок X, Уклонение X, Урон dX, Хп X, Броня X».
Items are separated by «,», «;» or new lines, «Атака 2» or «Атака: 2»; the name is the first
line that is not an item (or «Имя: …»); «Класс: …» names a class of the table. A line that
cannot be read is not an error: it is a warning naming it, and the rest is kept.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from rapidfuzz import fuzz, process

from engine import describe, sheet_numbers
from engine.describe import Description

from .classes import BUILTIN, find_class
from .errors import DuelError
from .fighter import PLAIN, Fighter, FighterClass, Stats

WARNINGS = "duel_sheet"
describe.register(
    WARNINGS,
    {
        "unknown_line": "Line {line} was not read: «{text}»",
        "typo": "Line {line}: «{text}» was not read — did you mean «{key}»?",
        "not_given": "{stat} is not given: it counts as 0.",
    },
)

_KEYS = {
    "атака": "attack",
    "attack": "attack",
    "блок": "block",
    "block": "block",
    "уклонение": "dodge",
    "dodge": "dodge",
    "урон": "damage_die",
    "damage": "damage_die",
    "хп": "hp",
    "hp": "hp",
    "броня": "armor",
    "armor": "armor",
    "класс": "class",
    "class": "class",
    "имя": "name",
    "name": "name",
}
_STAT_LABELS = {
    "attack": "Атака",
    "block": "Блок",
    "dodge": "Уклонение",
    "damage_die": "Урон",
    "hp": "ХП",  # as every other text writes it (docs/names.md); the seed's «Хп» is read too
    "armor": "Броня",
}
T = TypeVar("T")
_REQUIRED = ("damage_die", "hp")
_OPTIONAL = ("attack", "block", "dodge", "armor")
_LABELS = ("Атака", "Блок", "Уклонение", "Урон", "ХП", "Броня", "Класс", "Имя")
NEAR = 66  # rapidfuzz ratio from which an unknown word is taken for a misspelt label
_ITEM = re.compile(r"^(?P<key>[^\s:]+)\s*:?\s*(?P<value>.*?)\s*$")
_NUMBER = re.compile(r"^[+-]?\d+$")  # within the bound every sheet shares
_DIE = re.compile(r"^[dдк](\d{1,3})$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class ParsedSheet:
    fighter: Fighter
    warnings: tuple[Description, ...] = ()


def parse_sheet(text: str, classes: Mapping[str, FighterClass] = BUILTIN) -> ParsedSheet:
    if not text or not text.strip():
        raise DuelError("sheet_empty")
    name = ""
    found: dict[str, Any] = {}
    fighter_class = PLAIN
    warnings: list[Description] = []
    for number, line in enumerate(text.splitlines(), start=1):
        items = [part.strip() for part in re.split(r"[,;]", line) if part.strip()]
        unread = []
        for item in items:
            m = _ITEM.match(item)
            key = _KEYS.get(m.group("key").lower()) if m else None
            if m is None or key is None:
                value = m.group("value") if m else ""
                numeric = bool(_NUMBER.match(value) or _DIE.match(value))
                near = _near_key(m.group("key")) if m and numeric else None
                if near is not None:  # «Брня 1»: a stat misspelt, never silently 0
                    params = {"line": number, "text": item[:40], "key": near}
                    warnings.append(Description(f"{WARNINGS}.typo", params))
                    continue
                unread.append(item)
                continue
            value = m.group("value")
            if key == "name":
                name = value
            elif key == "class":
                fighter_class = find_class(value, classes)
            elif key == "damage_die":
                die = _DIE.match(value)
                if die is None or int(die.group(1)) < 2:
                    raise DuelError("sheet_bad_die", {"line": number, "text": item[:40]})
                found[key] = int(die.group(1))
            elif _NUMBER.match(value):
                found[key] = _bounded(value, number, item)
            else:
                raise DuelError("sheet_bad_value", {"line": number, "text": item[:40]})
        if unread and not name and not found and len(items) == len(unread):
            name = line.strip()  # the header: the first line that holds no item
        elif unread:
            text_ = ", ".join(unread)[:60]
            warnings.append(
                Description(f"{WARNINGS}.unknown_line", {"line": number, "text": text_})
            )
    missing = [_STAT_LABELS[k] for k in _REQUIRED if k not in found]
    if not name:
        missing.insert(0, "Имя")
    if missing:
        raise DuelError("sheet_missing", {"stat": ", ".join(missing)})
    for key in _OPTIONAL:  # «Атака X, Блок X, Уклонение X, … Броня X»: none silently 0
        if key not in found:
            params = {"stat": _STAT_LABELS[key]}
            warnings.append(Description(f"{WARNINGS}.not_given", params))
    stats = Stats(
        attack=found.get("attack", 0),
        block=found.get("block", 0),
        dodge=found.get("dodge", 0),
        damage_die=found["damage_die"],
        hp=found["hp"],
        armor=found.get("armor", 0),
    )
    fighter = check_numbers(Fighter(name, stats, fighter_class))
    return ParsedSheet(fighter, tuple(warnings))


def _near_key(word: str) -> str | None:
    """The label an unknown word most likely misspells («Брня» → «Броня»), or None."""
    found = process.extractOne(
        word.lower(), [k.lower() for k in _LABELS], scorer=fuzz.ratio, score_cutoff=NEAR
    )
    return None if found is None else _LABELS[found[2]]


def _bounded(digits: str, line: int, item: str) -> int:
    """A number within the bound every sheet shares (engine/sheet_numbers.py)."""
    value = sheet_numbers.read(digits)
    if value is None:
        params = sheet_numbers.params(digits) | {"line": line, "text": item[:40]}
        raise DuelError(sheet_numbers.CODE, params)
    return value


def check_numbers(sheet: T) -> T:
    """Every number of a fighter (its class's too) or of a class within the bound every
    sheet shares."""
    found = sheet_numbers.first_too_large(sheet)
    if found is not None:
        path, value = found
        raise DuelError(sheet_numbers.CODE, sheet_numbers.params(value) | {"field": path})
    return sheet


def format_sheet(fighter: Fighter) -> str:
    """The text block ``parse_sheet`` reads back to the same fighter."""
    s = fighter.stats
    lines = [fighter.name]
    if fighter.fighter_class.code != PLAIN.code:
        lines.append(f"Класс: {fighter.fighter_class.name}")
    lines.append(
        f"Атака {s.attack}, Блок {s.block}, Уклонение {s.dodge}, Урон d{s.damage_die}, "
        f"ХП {s.hp}, Броня {s.armor}"
    )
    return "\n".join(lines)


def fighter_from_json(data: Any) -> Fighter:
    try:
        fighter = Fighter.from_dict(data)
    except (ValueError, TypeError):
        raise DuelError("sheet_bad_json") from None
    return check_numbers(fighter)


def class_from_json(data: Any) -> FighterClass:
    try:
        found = FighterClass.from_dict(data)
    except (ValueError, TypeError):
        raise DuelError("sheet_bad_json") from None
    return check_numbers(found)
