"""The attack flow (seed «Маневры по защите», «Типы повреждений», «Поглощение и Броня»)."""

from __future__ import annotations

import dataclasses

import pytest

from engine.dice.rng import ScriptedRng
from engine.storyteller.combat import BLOCK, DODGE, PARRY, Defense, Overrides, resolve_attack
from engine.storyteller.errors import StorytellerError
from engine.storyteller.maneuvers import Situation
from engine.storyteller.options import DEFAULT_OPTIONS

from .helpers import character, script

BRUTE = character(
    "Громила", s=3, d=2, st=3, extra="Способности: Рукопашный бой 2, Фехтование 1\nОружие: Нож"
)
COP = character(
    "Коп",
    d=3,
    st=2,
    extra="Способности: Огнестрельное оружие 2, Уворот 2, Рукопашный бой 1\n"
    "Броня: Кевларовый жилет\nОружие: Пистолет",
)
BEAST = character(
    "Зверь", s=4, st=3, extra="Способности: Рукопашный бой 3\nПоглощает летальные: да"
)


def test_attack_misses_when_the_defense_has_as_many_successes() -> None:
    # «Если у нападающего меньше или столько же успешных баллов, как у защищающегося, то атака
    # не достигает цели.» Brute punches (Dex 2 + Brawl 2, diff 6); Cop blocks (Dex 3 + Brawl 1,
    # − 1 for the vest: «Она уменьшает запас бросков на действия, связанные с ... Ловкостью»)
    rng = script([6, 7, 2, 3], [6, 8, 2])
    out = resolve_attack("b", BRUTE, "c", COP, rng, weapon="Кулак", defense=Defense(BLOCK))
    assert out.attack.net == 2 and out.defense_roll is not None and out.defense_roll.net == 2
    assert not out.hit and out.damage is None and rng.remaining == 0


def test_the_difference_counts_and_extra_successes_add_damage_dice() -> None:
    # «разница вычитается из результата атаки. Все дополнительные успешные баллы повышают
    # потенциальные повреждения»: 4 − 1 = 3 left, the first hits, 2 more damage dice
    rng = script([6, 7, 8, 9], [6, 2, 2], [6] * 5, [2, 2])
    c = character("Ц", d=1, extra="Способности: Уворот 2")
    out = resolve_attack("b", BRUTE, "c", c, rng, weapon="Кулак", defense=Defense(DODGE))
    assert out.hit and out.extra == 2
    assert out.damage is not None and out.damage.pool.dice == 3 + 2  # Strength 3 + 2
    # a mortal soaks bashing with Stamina («используется показатель Выносливости»)
    assert out.damage.soak_pool is not None and out.damage.soak_pool.dice == 2
    assert out.damage.levels == 5 and out.target_after.health == ("bashing",) * 5


@pytest.mark.parametrize(("weapon", "code"), [("Нож", "no_block_lethal")])
def test_block_limits_lethal(weapon: str, code: str) -> None:
    # «атаки, наносящие смертельные повреждения, не могут быть заблокированы, если персонаж не
    # обладает способностью поглощать повреждения»
    with pytest.raises(StorytellerError) as err:
        resolve_attack(
            "b", BRUTE, "c", COP, ScriptedRng([2] * 3), weapon=weapon, defense=Defense(BLOCK)
        )
    assert err.value.code == code
    # a beast that soaks lethal may block a knife
    rng = script([2, 2, 2], [2, 2, 2, 2, 2])
    out = resolve_attack("b", BRUTE, "z", BEAST, rng, weapon="Нож", defense=Defense(BLOCK))
    assert not out.hit


def test_nobody_blocks_aggravated_damage() -> None:
    # seed 002: «атаки, наносящие смертельные повреждения, не могут быть заблокированы, если
    # персонаж не обладает способностью поглощать повреждения»; aggravated damage «нельзя
    # поглотить, за исключением редких случаев» — not even a beast that soaks lethal blocks it
    with pytest.raises(StorytellerError) as err:
        resolve_attack(
            "b",
            BRUTE,
            "z",
            BEAST,
            ScriptedRng([2] * 3),
            weapon="Нож",
            defense=Defense(BLOCK),
            overrides=Overrides(damage_type="aggravated"),
        )
    assert err.value.code == "no_block_aggravated"


def test_no_block_against_ranged_and_no_dodge_without_room() -> None:
    # «Блокировать дальнобойные атаки невозможно.»
    with pytest.raises(StorytellerError) as err:
        resolve_attack("c", COP, "z", BEAST, ScriptedRng([2] * 9), defense=Defense(BLOCK))
    assert err.value.code == "no_block_ranged"
    # «Если пространства недостаточно, Ведущий может запретить этот маневр.»
    with pytest.raises(StorytellerError) as err:
        resolve_attack(
            "b",
            BRUTE,
            "c",
            COP,
            ScriptedRng([2] * 9),
            defense=Defense(DODGE),
            situation=Situation(space=False),
        )
    assert err.value.code == "no_dodge_space"
    with pytest.raises(StorytellerError) as err:
        resolve_attack("c", COP, "b", BEAST, ScriptedRng([2] * 9), defense=Defense(PARRY))
    assert err.value.code == "no_parry_weapon"


def test_mortals_soak_lethal_with_armor_only_aggravated_not_at_all() -> None:
    # «Смертные могут поглощать только поверхностные повреждения, если у них нет специальной
    # защиты, такой как броня.»; «не способна справиться с усиливающимися повреждениями»
    rng = script([6, 2, 2, 2], [6, 6, 6, 6])
    out = resolve_attack("c", COP, "b", BRUTE, rng)  # Pistol 4 lethal, diff 6
    assert out.damage is not None and out.damage.soak_pool is None  # no armor, no Stamina
    assert out.damage.levels == 4 and rng.remaining == 0
    rng = script([6, 2, 2, 2], [6, 6, 6, 6], [6, 6, 2])
    out = resolve_attack("c", COP, "c2", COP, rng)
    assert out.damage is not None and out.damage.soak_pool is not None
    assert out.damage.soak_pool.dice == 3  # the vest, not Stamina
    assert out.damage.levels == 2
    rng = script([6, 2, 2, 2], [6, 6, 6, 6])
    out = resolve_attack("c", COP, "c2", COP, rng, overrides=Overrides(damage_type="aggravated"))
    assert out.damage is not None and out.damage.soak_pool is None and out.damage.levels == 4


def test_overrides_are_a_different_input() -> None:
    rng = script([6, 6, 6], [6, 6])
    out = resolve_attack(
        "c", COP, "b", BRUTE, rng, overrides=Overrides(dice=3, difficulty=9, damage_dice=2)
    )
    assert out.attack_pool.dice == 3 and out.attack_pool.difficulty == 9 and not out.hit
    assert rng.remaining == 2
    rng = script([9, 9, 9], [6, 6])
    out = resolve_attack(
        "c", COP, "b", BRUTE, rng, overrides=Overrides(dice=3, difficulty=9, damage_dice=2)
    )
    assert out.hit and out.damage is not None and out.damage.pool.dice == 2
    # a GM's difficulty stays within 2–10 too (DESIGN.md)
    rng = script([9, 9, 9], [6, 6])
    out = resolve_attack("c", COP, "b", BRUTE, rng, overrides=Overrides(dice=3, difficulty=12))
    assert out.attack_pool.difficulty == 10


def test_a_damage_pool_is_never_below_one_die() -> None:
    # «Для любого типа повреждения необходимо бросить по крайней мере один кубик»
    rng = script([6, 2, 2], [6], [2, 2, 2])  # a knife: Dex 2 + Melee 1, diff 4
    out = resolve_attack("b", BRUTE, "c", COP, rng, overrides=Overrides(damage_dice=0))
    assert out.damage is not None and out.damage.pool.dice == 1 and out.damage.levels == 1


def test_the_supernatural_soak_lethal_with_stamina() -> None:
    # «сверхъестественные существа имеют возможность поглощать и летальные повреждения»
    rng = script([6, 2, 2, 2], [6, 6, 6, 6], [6, 6, 2])
    out = resolve_attack("c", COP, "z", BEAST, rng)
    assert out.damage is not None and out.damage.soak_pool is not None
    assert out.damage.soak_pool.dice == 3 and out.damage.levels == 2


def test_a_willpower_point_adds_a_success_to_the_attack() -> None:
    # DESIGN.md: «Willpower point: one automatic success.»
    rng = script([2, 2, 2, 2], [6, 2, 2, 2])
    out = resolve_attack("c", COP, "b", BRUTE, rng, situation=Situation(willpower=True))
    assert out.attack.net == 1 and out.hit and out.extra == 0


def test_damage_and_soak_count_every_success() -> None:
    # seed 002: «Каждый успешный балл, полученный при броске, наносит жертве один уровень
    # повреждений»; «Каждый успешный бросок снижает уровень повреждений на одну единицу» —
    # the seed never lets a 1 cancel there (issue 25, item 8)
    faces = ([6, 7, 8, 9], [6, 2, 2], [6, 6, 6, 1, 1], [6, 1])
    c = character("Ц", d=1, extra="Способности: Уворот 2")
    out = resolve_attack("b", BRUTE, "c", c, script(*faces), weapon="Кулак", defense=Defense(DODGE))
    assert out.damage is not None and out.damage.soak is not None
    assert out.damage.roll.net == 3 and out.damage.soak.net == 1 and out.damage.levels == 2
    assert not any(d.cancels for d in out.damage.roll.dice)
    # the game's option: 1s cancel there too, as on every other roll
    ones = dataclasses.replace(DEFAULT_OPTIONS, ones_cancel_damage=True)
    out = resolve_attack(
        "b", BRUTE, "c", c, script(*faces), weapon="Кулак", defense=Defense(DODGE), options=ones
    )
    assert out.damage is not None and out.damage.soak is not None
    assert out.damage.roll.net == 1 and out.damage.soak.net == 0 and out.damage.levels == 1


def test_extra_successes_read_either_way() -> None:
    # seed 002: «разница вычитается из результата атаки. Все дополнительные успешные баллы
    # повышают потенциальные повреждения» — 4 − 1 = 3 left: the default reads the first as the
    # hit (2 dice more), the game's option every one of them (3 dice more)
    faces = ([6, 7, 8, 9], [6, 2, 2], [6] * 6, [2, 2])
    c = character("Ц", d=1, extra="Способности: Уворот 2")
    every = dataclasses.replace(DEFAULT_OPTIONS, all_extra_damage=True)
    out = resolve_attack(
        "b",
        BRUTE,
        "c",
        c,
        script(*faces),
        weapon="Кулак",
        defense=Defense(DODGE),
        options=every,
    )
    assert out.extra == 3 and out.damage is not None and out.damage.pool.dice == 3 + 3
