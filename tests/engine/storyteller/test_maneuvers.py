"""Maneuvers (seed «Маневры в бою»), a parry's counter-damage, armor destroyed."""

from __future__ import annotations

import dataclasses

import pytest

from engine.dice.rng import ScriptedRng
from engine.storyteller.combat import PARRY, Defense, resolve_attack
from engine.storyteller.errors import StorytellerError
from engine.storyteller.maneuvers import SPOTTED, TIE, WON, Situation, ambush, attack_modifiers
from engine.storyteller.options import DEFAULT_OPTIONS

from .helpers import character, script

SNEAK = character("Тень", d=3, extra="Способности: Маскировка 2, Фехтование 2\nОружие: Нож")
GUARD = character(
    "Страж", p=2, st=2, extra="Способности: Бдительность 1, Фехтование 2\nОружие: Меч"
)
VEST = character("Жилет", st=2, extra="Броня: Кевларовый жилет")


@pytest.mark.parametrize(
    ("faces", "outcome", "bonus"),
    [
        ([6, 7, 8, 2, 2, 6, 2, 2], WON, 2),
        ([6, 2, 2, 2, 2, 6, 2, 2], TIE, 0),
        ([2, 2, 2, 2, 2, 2, 2, 2], SPOTTED, 0),
        ([6, 2, 2, 2, 2, 6, 6, 2], SPOTTED, 0),
    ],
)
def test_ambush(faces: list[int], outcome: str, bonus: int) -> None:
    # «Если ваш результат превосходит результат жертвы, вы атакуете первым, и жертва не имеет
    # возможности защищаться. Дополнительные успешные баллы ... добавляются к вашему запасу
    # бросков на атаку. Если результаты бросков равны, вы все равно можете атаковать первым, но
    # жертва имеет возможность защититься. Если ваш бросок на засаду неудачен, ... обе стороны
    # совершают броски в обычном порядке инициативы.»
    out = ambush(SNEAK, GUARD, ScriptedRng(faces))
    assert (out.outcome, out.bonus) == (outcome, bonus)
    assert out.situation().no_defense == (outcome == WON)
    assert out.attacks_first == (outcome != SPOTTED)


def test_no_ambush_against_someone_fighting() -> None:
    # «Засады не допускаются против персонажей, которые уже участвуют в бою.»
    with pytest.raises(StorytellerError) as err:
        ambush(SNEAK, GUARD, ScriptedRng([]), victim_in_fight=True)
    assert err.value.code == "ambush_in_fight"


def test_blind_flank_rear_and_aim() -> None:
    # «сложность атаки увеличивается на 2, а точная стрельба становится невозможной»
    blind = attack_modifiers(Situation(blind=True))
    assert [(p.code, p.value) for p in blind.difficulty] == [("blind", 2)]
    with pytest.raises(StorytellerError) as err:
        attack_modifiers(Situation(blind=True, aim="small"))
    assert err.value.code == "no_aim_blind"
    # «сбоку, вам добавляется один кубик ... с тыла, ваш запас бросков увеличивается на два»
    assert attack_modifiers(Situation(side="flank")).dice[0].value == 1
    assert attack_modifiers(Situation(side="rear")).dice[0].value == 2
    # «Средняя ... +1 // Модификатора нет; Маленькая ... +2 // +1; Очень маленькая ... +3 // +2»
    table = [
        (m.difficulty[0].value, m.damage)
        for m in map(attack_modifiers, (Situation(aim=a) for a in ("medium", "small", "tiny")))
    ]
    assert table == [(1, 0), (2, 1), (3, 2)]
    with pytest.raises(StorytellerError):
        attack_modifiers(Situation(aim="huge"))


def test_the_maneuvers_table_is_the_games() -> None:
    # the seed's «Таблица маневров в ближнем бою» is absent: its text's numbers are the
    # defaults, and a game may set its own
    house = dataclasses.replace(DEFAULT_OPTIONS, flank_dice=2, rear_dice=3, blind_difficulty=3)
    assert attack_modifiers(Situation(side="flank"), house).dice[0].value == 2
    assert attack_modifiers(Situation(side="rear"), house).dice[0].value == 3
    assert attack_modifiers(Situation(blind=True), house).difficulty[0].value == 3


def test_aimed_attack_ignores_armor() -> None:
    # «Прицелившись, ваш персонаж может обойти броню и другую защиту»: a knife at the head
    # (small: +2 difficulty, +1 damage), so no armor in the soak and none destroyed
    rng = script([6, 7, 2, 2, 2], [6, 6, 6, 6, 6])
    out = resolve_attack("s", SNEAK, "v", VEST, rng, situation=Situation(aim="small"))
    assert out.attack_pool.difficulty == 4 + 2
    assert out.damage is not None and out.damage.pool.dice == 2 + 1 + 1 + 1  # Str+1, extra, aim
    assert out.damage.soak_pool is None and not out.damage.armor_destroyed
    assert out.damage.levels == 5 and rng.remaining == 0


def test_armor_destroyed_at_twice_its_rating_before_soak() -> None:
    # «Если урон, нанесенный одной атакой до поглощения, в два раза превышает рейтинг брони,
    # то броня считается уничтоженной.» Vest 3: six damage successes destroy it
    rng = script([6] * 5, [6] * 7, [6, 2, 2])
    out = resolve_attack("s", SNEAK, "v", VEST, rng)
    assert out.damage is not None and out.damage.roll.net == 7  # Str 2 + 1 + 4 extra
    assert out.damage.armor_destroyed and out.target_after.armor is None
    assert out.damage.levels == out.damage.roll.net - 1  # the vest still soaked this attack
    rng = script([6] * 5, [6, 6, 6, 6, 6, 2, 2], [6, 2, 2])
    kept = resolve_attack("s", SNEAK, "v", VEST, rng)
    assert kept.damage is not None and kept.damage.roll.net == 5
    assert not kept.damage.armor_destroyed and kept.target_after.armor == VEST.armor


def test_parry_with_a_lethal_weapon_wounds_the_attacker() -> None:
    # «Если ваш бросок по защите превосходит бросок противника, все ваши дополнительные
    # успешные баллы добавляются к основному урону вашего оружия.» Guard parries with a sword
    # (Dex 2 + Melee 2): 3 against 1 — the sword's Str+2 = 4 dice + 2 against the attacker
    rng = script([6, 2, 2, 2, 2], [6, 6, 6, 2], [6] * 6, [2, 2])
    out = resolve_attack("s", SNEAK, "g", GUARD, rng, defense=Defense(PARRY))
    assert not out.hit and out.counter is not None
    assert out.counter.victim == "s" and out.counter.damage_type == "lethal"
    assert out.counter.pool.dice == 6 and out.counter.soak_pool is None  # a mortal, no armor
    assert out.attacker_after.health == ("lethal",) * 6 and rng.remaining == 2
