"""Trait dice (d4..d12, d12+N), attribute and skill names with their Russian spellings."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine import codec

from .errors import RuleError

SIDES = (4, 6, 8, 10, 12)


@dataclass(frozen=True, slots=True)
class Die:
    """A trait die: ``sides`` in 4..12 and a bonus (only d12 takes one: d12+2)."""

    sides: int
    bonus: int = 0

    def __post_init__(self) -> None:
        if self.sides not in SIDES or (self.bonus and self.sides != 12) or self.bonus < 0:
            raise RuleError("sheet_bad_die", {"fragment": self.code})

    @property
    def code(self) -> str:
        return f"d{self.sides}" + (f"+{self.bonus}" if self.bonus else "")

    def __str__(self) -> str:
        return self.code

    @property
    def half(self) -> int:
        """Half the die type (Parry = 2 + Fighting/2, Toughness = 2 + Vigor/2)."""
        return self.sides // 2 + self.bonus // 2


_DIE_RE = re.compile(r"^\s*[dдк](\d+)\s*(?:\+\s*(\d+))?\s*$", re.IGNORECASE)


def parse_die(text: str) -> Die:
    """``d8``, ``к8``, ``д12+1`` -> Die; RuleError("sheet_bad_die") otherwise."""
    m = _DIE_RE.match(text)
    if not m:
        raise RuleError("sheet_bad_die", {"fragment": text.strip()[:20]})
    sides, bonus = int(m.group(1)), int(m.group(2) or 0)
    if sides not in SIDES or (bonus and sides != 12):
        raise RuleError("sheet_bad_die", {"fragment": text.strip()[:20]})
    return Die(sides, bonus)


# Stored as its code ("d8", "d12+1") in sheets, states and events.
codec.scalar(Die, encode=lambda die: die.code, decode=parse_die)


ATTRIBUTES: tuple[str, ...] = ("agility", "smarts", "spirit", "strength", "vigor")

# Russian (as in the Russian SWADE and the seeds) and English spellings -> code.
ATTRIBUTE_NAMES: dict[str, str] = {
    "ловкость": "agility",
    "сноровка": "agility",
    "agility": "agility",
    "смекалка": "smarts",
    "smarts": "smarts",
    "дух": "spirit",
    "spirit": "spirit",
    "сила": "strength",
    "strength": "strength",
    "выносливость": "vigor",
    "телосложение": "vigor",
    "vigor": "vigor",
}

SKILL_NAMES: dict[str, str] = {
    "драка": "fighting",
    "fighting": "fighting",
    "стрельба": "shooting",
    "shooting": "shooting",
    "атлетика": "athletics",
    "athletics": "athletics",
    "внимание": "notice",
    "notice": "notice",
    "запугивание": "intimidation",
    "intimidation": "intimidation",
    "провокация": "taunt",
    "насмешка": "taunt",
    "taunt": "taunt",
    "скрытность": "stealth",
    "stealth": "stealth",
    "убеждение": "persuasion",
    "persuasion": "persuasion",
    "общие знания": "common_knowledge",
    "common knowledge": "common_knowledge",
    "лечение": "healing",
    "healing": "healing",
    "выживание": "survival",
    "survival": "survival",
    "колдовство": "spellcasting",
    "кидо": "spellcasting",
    "spellcasting": "spellcasting",
    "фокус": "focus",
    "focus": "focus",
    "вера": "faith",
    "faith": "faith",
    "вождение": "driving",
    "driving": "driving",
    "верховая езда": "riding",
    "riding": "riding",
    "воровство": "thievery",
    "thievery": "thievery",
    "азарт": "gambling",
    "gambling": "gambling",
    "исследование": "research",
    "research": "research",
    "ремонт": "repair",
    "repair": "repair",
    "боевой дух": "battle",
    "battle": "battle",
    "выступление": "performance",
    "performance": "performance",
}

CORE_SKILLS: tuple[str, ...] = (
    "athletics",
    "common_knowledge",
    "notice",
    "persuasion",
    "stealth",
)

# The attribute that resists a Test made with the skill (official SWADE «Test»; seed 000
# line 41: «против связанного с этим навыком Атрибута цели»). The command may override it.
LINKED_ATTRIBUTE: dict[str, str] = {
    "fighting": "agility",
    "shooting": "agility",
    "athletics": "agility",
    "stealth": "smarts",
    "notice": "smarts",
    "intimidation": "spirit",
    "taunt": "smarts",
    "persuasion": "spirit",
    "spellcasting": "spirit",
    "focus": "spirit",
    "faith": "spirit",
    "thievery": "agility",
    "common_knowledge": "smarts",
    "survival": "smarts",
    "performance": "spirit",
    "battle": "smarts",
    "driving": "agility",
    "riding": "agility",
}


def trait_code(name: str) -> str:
    """Normalise an attribute or skill name: known Russian/English names map to codes,
    other names (custom skills) become lower-case with single spaces."""
    key = " ".join(name.strip().lower().replace("ё", "е").split())
    return ATTRIBUTE_NAMES.get(key) or SKILL_NAMES.get(key) or key.replace(" ", "_")


def is_attribute(code: str) -> bool:
    return code in ATTRIBUTES
