"""The health track: bashing, lethal and aggravated marks, wound penalties, Incapacitated.

Seed «Типы повреждений»: «Каждый успешный балл, полученный при броске, наносит жертве один
уровень повреждений.» The levels and their penalties are DESIGN.md's default (the seed's
«Здоровье» section is absent): Bruised 0, Hurt −1, Injured −1, Wounded −2, Mauled −2,
Crippled −5, Incapacitated; «bashing that overflows the track becomes lethal».

Marks are kept worst first (aggravated, lethal, bashing), one per level.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .options import AGGRAVATED, BASHING, DAMAGE_TYPES, LETHAL, HealthLevel

_SEVERITY = {AGGRAVATED: 0, LETHAL: 1, BASHING: 2}


def sort_marks(marks: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(marks, key=_SEVERITY.__getitem__))


@dataclass(frozen=True, slots=True)
class Marked:
    """The track after some levels of one type: ``converted`` bashing marks turned into a
    worse type by the overflow; ``dead`` when a level found no room at all."""

    marks: tuple[str, ...]
    converted: int
    dead: bool


def mark(marks: Sequence[str], damage_type: str, levels: int, size: int) -> Marked:
    """Mark ``levels`` levels of ``damage_type`` on a track of ``size`` levels.

    A full track takes more damage by turning a bashing mark into a lethal one (for lethal
    and aggravated damage, into that type — the worse wound takes the lighter one's place);
    with no bashing mark left the character dies (DESIGN.md default)."""
    if damage_type not in DAMAGE_TYPES:
        raise ValueError(f"unknown damage type {damage_type!r}")
    out = list(marks)
    converted, dead = 0, False
    for _ in range(levels):
        if len(out) < size:
            out.append(damage_type)
        elif BASHING in out:
            out.remove(BASHING)
            out.append(LETHAL if damage_type == BASHING else damage_type)
            converted += 1
        else:
            dead = True
            break
        out = list(sort_marks(out))
    return Marked(tuple(out), converted, dead)


def heal(marks: Sequence[str], damage_type: str, levels: int) -> tuple[str, ...]:
    """Remove up to ``levels`` marks of ``damage_type`` (the GM's undo of a wound)."""
    out = list(marks)
    for _ in range(levels):
        if damage_type in out:
            out.remove(damage_type)
    return sort_marks(out)


def worst_level(marks: Sequence[str], track: Sequence[HealthLevel]) -> HealthLevel | None:
    return track[min(len(marks), len(track)) - 1] if marks else None


def wound_penalty(marks: Sequence[str], track: Sequence[HealthLevel]) -> int:
    """Dice the wounds take away (seed: «Урон, полученный ранее, может повлиять на
    инициативу»; DESIGN.md's level penalties)."""
    level = worst_level(marks, track)
    return level.penalty if level else 0


def incapacitated(marks: Sequence[str], track: Sequence[HealthLevel]) -> bool:
    """Every level marked, the last one Incapacitated (the seed's «недееспособность»)."""
    return len(marks) >= len(track)
