"""Characters for the Storyteller tests, from sheet blocks."""

from __future__ import annotations

import itertools

from engine.dice.rng import ScriptedRng
from engine.storyteller.character import Character
from engine.storyteller.sheet import parse_sheet

ATTRS = (
    "Атрибуты: Сила {s}, Ловкость {d}, Выносливость {st}, Обаяние 2, Манипулирование 2, "
    "Внешность 2, Восприятие {p}, Интеллект 2, Сообразительность {w}"
)


def character(
    name: str,
    *,
    s: int = 2,
    d: int = 2,
    st: int = 2,
    p: int = 2,
    w: int = 2,
    extra: str = "",
) -> Character:
    text = f"Имя: {name}\n{ATTRS.format(s=s, d=d, st=st, p=p, w=w)}\n{extra}"
    parsed = parse_sheet(text)
    assert parsed.warnings == ()
    return parsed.character


def script(*groups: list[int]) -> ScriptedRng:
    """A scripted rng of the faces of each roll in turn (attack, defense, damage, soak…)."""
    return ScriptedRng(itertools.chain.from_iterable(groups))
