"""Dice pools (seed 002 «Системы действий»): attribute + ability, the missing ability, wound
and armor penalties, multiple actions, specialty tens, a Willpower point, botch.

The dice are engine.storyteller.dice's (the /p roller): a pool is planned here, as its
parts, and rolled there.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from engine.dice.rng import Rng
from engine.storyteller.dice.results import PoolResult
from engine.storyteller.dice.rolls import (
    DEFAULT_DIFFICULTY,
    MAX_DIFFICULTY,
    MIN_DIFFICULTY,
    PoolSpec,
    roll_pool,
)

from .character import Character
from .errors import StorytellerError
from .options import ATTRIBUTE_ONLY, DEFAULT_OPTIONS, HARDER, IMPOSSIBLE, Options


@dataclass(frozen=True, slots=True)
class Part:
    """One term of a pool or of its difficulty: ``code`` names it (attribute, ability,
    wounds, armor, actions, flank, …), ``value`` is signed."""

    code: str
    value: int


@dataclass(frozen=True, slots=True)
class Pool:
    dice: int  # never below 0 (a damage pool: never below 1)
    difficulty: int  # within 2..10
    mode: str = "action"  # action | damage | soak
    specialty: bool = False
    willpower: bool = False
    dice_parts: tuple[Part, ...] = ()
    difficulty_parts: tuple[Part, ...] = ()
    ones_cancel: bool = True  # False: a damage or soak roll counts its successes only

    def spec(self, comment: str = "") -> PoolSpec:
        return PoolSpec(
            self.dice,
            self.dice,
            self.difficulty,
            self.mode,
            self.specialty,
            self.willpower,
            comment,
        )

    def roll(self, rng: Rng, comment: str = "") -> PoolResult:
        """A pool of no dice rolls nothing: no success, no botch (a Willpower point still
        gives its one success). A damage or soak pool with ``ones_cancel`` off counts each
        success and leaves its 1s alone (option ``ones_cancel_damage``)."""
        result = roll_pool(self.spec(comment), rng)
        if self.ones_cancel or self.mode == "action" or not result.ones:
            return result
        return _uncancelled(result)


def _uncancelled(result: PoolResult) -> PoolResult:
    """Seed 002: «Каждый успешный балл, полученный при броске, наносит жертве один уровень
    повреждений», «Каждый успешный бросок [поглощения] снижает уровень повреждений на одну
    единицу»: every success counts, no 1 takes one away (such a roll cannot botch)."""
    dice = tuple(dataclasses.replace(d, cancels=False) for d in result.dice)
    net = result.successes + result.auto_successes
    outcome = "success" if net > 0 else "failure"
    return dataclasses.replace(result, dice=dice, ones=0, net=net, botch=False, outcome=outcome)


def clamp_difficulty(value: int) -> int:
    """DESIGN.md: «difficulty stays within 2–10»."""
    return max(MIN_DIFFICULTY, min(MAX_DIFFICULTY, value))


def build(
    dice_parts: list[Part],
    difficulty_parts: list[Part],
    *,
    mode: str = "action",
    specialty: bool = False,
    willpower: bool = False,
    ones_cancel: bool = True,
) -> Pool:
    dice = sum(p.value for p in dice_parts)
    # Seed «Типы повреждений»: «Для любого типа повреждения необходимо бросить по крайней
    # мере один кубик, независимо от модификаторов.»
    dice = max(dice, 1 if mode == "damage" else 0)
    difficulty = clamp_difficulty(sum(p.value for p in difficulty_parts))
    return Pool(
        dice,
        difficulty,
        mode,
        specialty,
        willpower and mode == "action",
        tuple(p for p in dice_parts if p.value),
        tuple(difficulty_parts),
        ones_cancel or mode == "action",
    )


def action_pool(
    character: Character,
    attribute: str,
    ability: str | None = None,
    *,
    difficulty: int = DEFAULT_DIFFICULTY,
    options: Options = DEFAULT_OPTIONS,
    specialty: bool = False,
    willpower: bool = False,
    bonus: tuple[Part, ...] = (),
    difficulty_bonus: tuple[Part, ...] = (),
    actions_penalty: int = 0,
    armor: bool | None = None,
) -> Pool:
    """Attribute + ability against ``difficulty``.

    * «При определении запаса бросков используются Атрибуты и Способности персонажа.»
    * «Игрок может ... полагаться только на Атрибут, если нет необходимой Способности. Это
      усложняет действие или делает его невозможным.» — ``options.missing_ability``.
    * Wounds take dice away (DESIGN.md's levels); armor takes its Dexterity penalty from
      Dexterity actions («в основном это действия, связанные с Ловкостью»; ``armor`` forces
      either way).
    * «Даже если бросок неудачный, игроки, у которых персонажи специализированы и выброшена
      хотя бы одна "десятка", могут сделать дополнительный бросок.» — ``specialty``, which
      only a character with a specialty in the ability (or the attribute) gets.
    * A Willpower point: one automatic success (DESIGN.md).
    """
    dice = [Part("attribute", character.rating(attribute))]
    diff = [Part("base", difficulty)]
    if ability is not None:
        rating = character.rating(ability)
        if rating:
            dice.append(Part("ability", rating))
        elif options.missing_ability == IMPOSSIBLE:
            raise StorytellerError("no_ability", {"ability": ability})
        elif options.missing_ability == HARDER:
            diff.append(Part("no_ability", options.missing_ability_step))
        else:
            assert options.missing_ability == ATTRIBUTE_ONLY
    dice.append(Part("wounds", -character.penalty(options.health)))
    if armor if armor is not None else attribute == "dexterity":
        dice.append(Part("armor", -character.dex_penalty()))
    dice.append(Part("actions", -actions_penalty))
    dice.extend(bonus)
    diff.extend(difficulty_bonus)
    has_specialty = character.has_specialty(ability or "") or character.has_specialty(attribute)
    return build(dice, diff, specialty=specialty and has_specialty, willpower=willpower)


def multiple_actions(count: int, options: Options = DEFAULT_OPTIONS) -> tuple[int, ...]:
    """The dice each of ``count`` declared actions loses: DESIGN.md's default «declare N
    actions, the first pool loses N dice and each next one one die more» (the seed points at
    «Множественные действия», which it does not contain). One action loses nothing."""
    if not 1 <= count <= options.max_actions:
        raise StorytellerError("bad_actions", {"max": options.max_actions})
    if count == 1:
        return (0,)
    return tuple(count + i for i in range(count))
