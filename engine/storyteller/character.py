"""A Storyteller character: the nine attributes, abilities, specialties, Willpower, the
health track, armor, weapons and whether it soaks lethal damage (seed 002).

A frozen value: every change returns a new one (``dataclasses.replace``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from engine.codec import Coded

from .health import incapacitated, mark, sort_marks, wound_penalty
from .options import DEFAULT_HEALTH, Armor, HealthLevel, Weapon
from .traits import ATTRIBUTES, is_attribute

# «Для сражения противники используют собственные тела» — the bare-handed attack, always at
# hand (the default fist: Strength, bashing, difficulty 6)
FIST = Weapon("Кулак", 0, "bashing", 6, "brawl", strength=True)


@dataclass(frozen=True)
class Character(Coded):
    name: str
    attributes: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ATTRIBUTES, 1))
    abilities: dict[str, int] = field(default_factory=dict)
    specialties: dict[str, tuple[str, ...]] = field(default_factory=dict)
    willpower: int = 1  # the permanent rating
    willpower_points: int = 1  # the current points
    health: tuple[str, ...] = ()  # marks, worst first (health.py)
    armor: Armor | None = None
    weapons: tuple[Weapon, ...] = ()
    # Seed «Поглощение и Броня»: «сверхъестественные существа имеют возможность поглощать и
    # летальные повреждения»
    soaks_lethal: bool = False

    def rating(self, code: str) -> int:
        if is_attribute(code):
            return self.attributes.get(code, 0)
        return self.abilities.get(code, 0)

    def has(self, code: str) -> bool:
        return self.rating(code) > 0

    def has_specialty(self, code: str) -> bool:
        return bool(self.specialties.get(code))

    def weapon(self, name: str | None) -> Weapon:
        """The weapon of that name (case-insensitive); None: the first one, or the fist."""
        if name is None:
            return self.weapons[0] if self.weapons else FIST
        key = name.strip().lower().replace("ё", "е")
        for w in (*self.weapons, FIST):
            if w.name.lower().replace("ё", "е") == key:
                return w
        raise KeyError(name)

    def penalty(self, track: tuple[HealthLevel, ...] = DEFAULT_HEALTH) -> int:
        return wound_penalty(self.health, track)

    def incapacitated(self, track: tuple[HealthLevel, ...] = DEFAULT_HEALTH) -> bool:
        return incapacitated(self.health, track)

    def dex_penalty(self) -> int:
        """Seed: «Она уменьшает запас бросков на действия, связанные с координацией и
        гибкостью (в основном это действия, связанные с Ловкостью).»"""
        return self.armor.dex_penalty if self.armor else 0

    def damage_pool(self, weapon: Weapon) -> int:
        return weapon.damage + (self.rating("strength") if weapon.strength else 0)

    def wounded(
        self, damage_type: str, levels: int, track: tuple[HealthLevel, ...] = DEFAULT_HEALTH
    ) -> tuple[Character, int, bool]:
        """The character with ``levels`` more marks; how many bashing marks the overflow
        turned, and whether it died."""
        done = mark(self.health, damage_type, levels, len(track))
        return dataclasses.replace(self, health=done.marks), done.converted, done.dead

    def with_marks(self, marks: tuple[str, ...]) -> Character:
        return dataclasses.replace(self, health=sort_marks(marks))
