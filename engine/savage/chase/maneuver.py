"""Maneuvering rolls through the dice engine (engine.savage.dice); no dice logic here."""

from __future__ import annotations

from collections.abc import Sequence

from engine.dice.rng import Rng
from engine.savage.dice.rolls import trait

from .model import Participant
from .roll import ManeuverRoll


def trait_text(p: Participant, modifiers: Sequence[tuple[str, int]]) -> str:
    """The dice-engine argument for ``p``'s maneuvering skill with ``modifiers``."""
    if p.unskilled:
        parts = ["unskilled"]
    else:
        parts = [f"d{p.die}" + (f"+{p.die_bonus}" if p.die_bonus else "")]
    parts += [f"{value:+d}" for _, value in modifiers if value]
    if not p.wild_card:
        parts.append("extra")
    return " ".join(parts)


def maneuver_roll(p: Participant, modifiers: Sequence[tuple[str, int]], rng: Rng) -> ManeuverRoll:
    mods = tuple((label, value) for label, value in modifiers if value)
    result = trait(trait_text(p, mods), rng)
    return ManeuverRoll(
        skill=p.skill,
        modifiers=mods,
        total=result.total,
        outcome=result.outcome,
        raises=result.raises,
        result=result.to_dict(),
    )
