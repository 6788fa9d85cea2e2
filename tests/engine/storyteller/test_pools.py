"""Pools: attribute + ability, the missing ability, penalties, specialty, Willpower, botch."""

from __future__ import annotations

import dataclasses

import pytest

from engine.dice.rng import ScriptedRng
from engine.storyteller.errors import StorytellerError
from engine.storyteller.options import ATTRIBUTE_ONLY, DEFAULT_OPTIONS, IMPOSSIBLE
from engine.storyteller.pools import action_pool, multiple_actions

from .helpers import character

HERO = character(
    "Ира",
    d=3,
    extra="Способности: Огнестрельное оружие 2, Атлетизм 1\n"
    "Специализации: Огнестрельное оружие (пистолеты)\nБроня: Бронежилет",
)


def test_attribute_plus_ability() -> None:
    # «При определении запаса бросков используются Атрибуты и Способности персонажа.»
    pool = action_pool(HERO, "perception", "athletics")
    assert (pool.dice, pool.difficulty) == (3, 6)


@pytest.mark.parametrize(
    ("reading", "dice", "difficulty"), [("harder", 2, 7), (ATTRIBUTE_ONLY, 2, 6)]
)
def test_missing_ability_reading_is_an_option(reading: str, dice: int, difficulty: int) -> None:
    # «полагаться только на Атрибут ... Это усложняет действие или делает его невозможным.»
    options = dataclasses.replace(DEFAULT_OPTIONS, missing_ability=reading)
    pool = action_pool(HERO, "wits", "computer", options=options)
    assert (pool.dice, pool.difficulty) == (dice, difficulty)


def test_missing_ability_impossible() -> None:
    options = dataclasses.replace(DEFAULT_OPTIONS, missing_ability=IMPOSSIBLE)
    with pytest.raises(StorytellerError) as err:
        action_pool(HERO, "wits", "computer", options=options)
    assert err.value.code == "no_ability"


def test_wounds_and_armor_take_dice_away() -> None:
    # DESIGN.md: Injured −1; «Она уменьшает запас бросков на действия, связанные с ... Ловкостью»
    hurt = dataclasses.replace(HERO, health=("lethal", "lethal", "bashing"))
    pool = action_pool(hurt, "dexterity", "firearms")
    assert pool.dice == 3 + 2 - 1 - 2
    assert action_pool(hurt, "perception", "athletics").dice == 2  # no armor penalty


def test_multiple_actions_design_default() -> None:
    # DESIGN.md: «declare N actions, the first pool loses N dice and each next one one die more»
    assert multiple_actions(1) == (0,)
    assert multiple_actions(2) == (2, 3)
    assert multiple_actions(3) == (3, 4, 5)
    with pytest.raises(StorytellerError):
        multiple_actions(4)
    pool = action_pool(HERO, "perception", "athletics", actions_penalty=2)
    assert pool.dice == 1


def test_specialty_tens_roll_again_only_with_a_specialty() -> None:
    # «игроки, у которых персонажи специализированы и выброшена хотя бы одна "десятка", могут
    # сделать дополнительный бросок»
    pool = action_pool(HERO, "dexterity", "firearms", specialty=True, armor=False)
    result = pool.roll(ScriptedRng([10, 3, 2, 4, 5, 7]))
    assert [d.value for d in result.bonus_dice] == [7] and result.net == 2
    plain = action_pool(HERO, "dexterity", "athletics", specialty=True, armor=False)
    assert not plain.specialty


def test_willpower_point_is_one_automatic_success() -> None:
    pool = action_pool(HERO, "perception", "athletics", willpower=True)
    result = pool.roll(ScriptedRng([1, 2, 3]))
    assert result.net == 1 and not result.botch


def test_botch_no_successes_and_a_one() -> None:
    pool = action_pool(HERO, "perception", "athletics")
    result = pool.roll(ScriptedRng([1, 2, 3]))
    assert result.botch and result.outcome == "botch"
    assert not pool.roll(ScriptedRng([1, 6, 3])).botch  # a success cancelled is a failure


def test_difficulty_stays_within_two_and_ten() -> None:
    assert action_pool(HERO, "wits", "computer", difficulty=10).difficulty == 10
