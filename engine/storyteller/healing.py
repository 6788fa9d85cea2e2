"""Healing times (the seed's contents name «Время излечения» but the text has none): the
time one marked level takes, from the game's table (options.py, a default), and the time a
whole track takes, the worst level healing first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .options import DEFAULT_OPTIONS, Options


def healing_hours(damage_type: str, level: str, options: Options = DEFAULT_OPTIONS) -> int:
    """Hours one level of ``damage_type`` marked at ``level`` (a HealthLevel code) takes to
    heal; KeyError when the game's table has no such row."""
    for row in options.healing:
        if row.damage_type == damage_type and row.level == level:
            return row.hours
    raise KeyError((damage_type, level))


@dataclass(frozen=True, slots=True)
class Mend:
    """One mark of the track: its level, its type and the hours it takes."""

    level: str
    damage_type: str
    hours: int


def track_healing(marks: Sequence[str], options: Options = DEFAULT_OPTIONS) -> tuple[Mend, ...]:
    """Each mark (worst first, as the track keeps them) with the level it sits at — the
    deepest level heals first, so the list runs from the last mark back to the first."""
    levels = options.health
    out = [
        Mend(levels[i].code, kind, healing_hours(kind, levels[i].code, options))
        for i, kind in enumerate(marks[: len(levels)])
    ]
    return tuple(reversed(out))


def total_hours(marks: Sequence[str], options: Options = DEFAULT_OPTIONS) -> int:
    """The time until the track is clear: the levels heal one after another."""
    return sum(m.hours for m in track_healing(marks, options))
