"""Attributes and abilities by the names of seed 002; a GM may add abilities of their own.

Seed 002: «При определении запаса бросков используются Атрибуты и Способности персонажа.»
The nine attributes are those of «Физические действия» (Сила, Ловкость, Выносливость),
«Социальные действия» (Обаяние, Манипулирование, Внешность) and «Интеллектуальные действия»
(Восприятие, Интеллект, Сообразительность); the abilities are those the seed's actions name.
"""

from __future__ import annotations

from engine.words import fold

ATTRIBUTES: dict[str, str] = {
    "strength": "Сила",
    "dexterity": "Ловкость",
    "stamina": "Выносливость",
    "charisma": "Обаяние",
    "manipulation": "Манипулирование",
    "appearance": "Внешность",
    "perception": "Восприятие",
    "intelligence": "Интеллект",
    "wits": "Сообразительность",
}

ABILITIES: dict[str, str] = {
    "athletics": "Атлетизм",
    "brawl": "Рукопашный бой",
    "melee": "Фехтование",
    "firearms": "Огнестрельное оружие",
    "dodge": "Уворот",
    "stealth": "Маскировка",
    "alertness": "Бдительность",
    "drive": "Вождение",
    "security": "Безопасность",
    "empathy": "Эмпатия",
    "subterfuge": "Хитрость",
    "intimidation": "Запугивание",
    "leadership": "Лидерство",
    "expression": "Выразительность",
    "performance": "Актерство",
    "computer": "Знание компьютера",
    "investigation": "Расследование",
    "crafts": "Ремесло",
    "technology": "Технология",
    "occult": "Оккультизм",
    "research": "Исследование",
    "science": "Наука",
    "survival": "Выживание",
}

# other spellings the seed itself uses («Атлетика» beside «Атлетизм») and English names
_ALIASES: dict[str, str] = {
    "атлетика": "athletics",
    "рукопашная": "brawl",
    "огнестрельное": "firearms",
    "стрельба": "firearms",
    "уклонение": "dodge",
    "скрытность": "stealth",
    "актёрство": "performance",
    "компьютер": "computer",
    "сила воли": "willpower",
}


_BY_NAME: dict[str, str] = {
    **{fold(ru): code for code, ru in ATTRIBUTES.items()},
    **{fold(ru): code for code, ru in ABILITIES.items()},
    **{code: code for code in (*ATTRIBUTES, *ABILITIES)},
    **{fold(k): v for k, v in _ALIASES.items()},
}


def trait_code(name: str) -> str:
    """The code of an attribute or an ability by any of its names; a name it does not know
    is a GM's own ability, kept under its lower-case name."""
    key = fold(name)
    return _BY_NAME.get(key, key)


def is_attribute(code: str) -> bool:
    return code in ATTRIBUTES


def trait_name(code: str) -> str:
    """The Russian name of a code (a GM's own ability: its name as stored)."""
    return ATTRIBUTES.get(code) or ABILITIES.get(code) or code
