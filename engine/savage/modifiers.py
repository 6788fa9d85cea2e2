"""Automatic roll modifiers for one character, each labelled for display.

Labels (the bot translates them): joker, wounds, fatigue, distracted, multi_action,
support — plus the attack labels of ``actions.py`` (range, cover, illumination, ...).
"""

from __future__ import annotations

from engine.dice.results import Modifier

from .character import Status
from .encounter import Encounter

KINDS = ("action", "free", "damage")

# Every modifier label the engine produces (the bot needs a rendering for each).
LABELS: tuple[str, ...] = (
    "trait_bonus",  # the +N of d12+N
    "unskilled",  # d4−2
    "joker",
    "wounds",
    "fatigue",
    "distracted",
    "multi_action",
    "support",
    "range",
    "cover",
    "illumination",
    "called_shot",
    "gang_up",
    "the_drop",
    "wild_attack",
    "vulnerable",
    "aim",
    "aim_ignore",
    "bound",
    "combat_reflexes",
    "modifier",  # a GM modifier without its own label
)
JOKER_BONUS = 2  # seed 000 line 14
DISTRACTED = -2  # seed 000 line 45
MULTI_ACTION = {1: 0, 2: -2, 3: -4}  # seed 000 lines 28-29
SUPPORT_CAP = 4  # seed 000 line 36


def roll_modifiers(
    state: Encounter, character_id: str, kind: str, *, trait: str = ""
) -> tuple[Modifier, ...]:
    """The modifiers that apply to this character's roll by themselves.

    ``kind``: "action" (a trait roll that is one of the turn's actions: multi-action
    penalty and Support apply), "free" (a trait roll that is not an action: Spirit,
    Soak, Vigor, resisting a Test, a free attack), "damage" (a damage roll: only the
    Joker). The Joker bonus belongs to the combatant holding the card and never reaches
    anyone else (seed 000 line 14: «До конца раунда он получает +2»).
    """
    if kind not in KINDS:
        raise ValueError(f"unknown roll kind {kind!r}")
    combatant, character = state.find(character_id)
    status = character.status
    mods: list[Modifier] = []
    if combatant.has_joker:
        mods.append(Modifier("joker", JOKER_BONUS))
    if kind == "damage":
        return tuple(mods)
    if wounds := character.wound_penalty():
        mods.append(Modifier("wounds", wounds))  # seed 000 line 73
    if fatigue := character.fatigue_penalty():
        mods.append(Modifier("fatigue", fatigue))  # seed 000 line 79
    if status.distracted:
        mods.append(Modifier("distracted", DISTRACTED))
    if kind == "action":
        declared = max(1, status.actions_declared)
        if penalty := MULTI_ACTION[declared]:
            mods.append(Modifier("multi_action", penalty))
        if support := support_total(status, trait):
            mods.append(Modifier("support", support))
    return tuple(mods)


def support_value(status: Status, for_trait: str) -> int:
    """The Support bonus kept for exactly ``for_trait`` ("" = any trait)."""
    return sum(c.value for c in status.conditions if c.kind == "support" and c.skill == for_trait)


def support_total(status: Status, trait: str) -> int:
    """What a roll of ``trait`` gets: the bonuses for it and for any trait, at most +4
    (seed 000 line 36). Bonuses for other traits stay for their own roll (line 35)."""
    total = sum(
        c.value for c in status.conditions if c.kind == "support" and c.skill in ("", trait)
    )
    return min(SUPPORT_CAP, total)
