"""The seed's numbered actions as presets, and what their successes mean."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.dice.rng import ScriptedRng
from engine.storyteller.errors import StorytellerError
from engine.storyteller.presets import (
    ACTOR,
    FEATS,
    NOBODY,
    OPPONENT,
    OPPOSED,
    PRESETS,
    Extended,
    Interrogation,
    carry_limit,
    climb_metres,
    feat_strength,
    feats_within,
    find_preset,
    hacking_dice,
    heaviest_lift,
    jump_made,
    jump_metres,
    jump_needed,
    load,
    movement,
    opposed,
    performance_result,
    preset_named,
    preset_pool,
    shadowing,
    speech_difficulty,
    tracking_difficulty,
)
from engine.storyteller.traits import ABILITIES, ATTRIBUTES

from .helpers import character

HERO = character("Ира", s=3, d=3, p=3, extra="Способности: Атлетизм 2, Маскировка 1\nСила воли: 4")


SEED = Path("/work/shared/seeds/002_99de998f6ccf4084.txt")  # outside the repository


def test_every_preset_names_known_traits_and_quotes_the_seed() -> None:
    seed = SEED.read_text(encoding="utf-8") if SEED.exists() else None
    for p in PRESETS:
        assert p.quote and (seed is None or p.quote in seed), p.code
        for attribute, ability in (*p.pools, *p.against):
            assert attribute in ATTRIBUTES or attribute == "willpower"
            assert ability is None or ability in ABILITIES
        assert find_preset(p.names[0]) is p and find_preset(p.code) is p
    assert find_preset("ПРЫЖОК").code == "jump"  # type: ignore[union-attr]
    assert find_preset("полёт") is None
    assert find_preset("Подъём") is find_preset("подъем") is find_preset("climb")
    with pytest.raises(StorytellerError) as err:
        preset_named("полёт")
    assert err.value.code == "unknown_preset" and err.value.params == {"name": "полёт"}


def test_climbing_three_metres_a_success() -> None:
    # «ваш персонаж сможет преодолеть 3 метра за каждый успешный балл»
    pool = preset_pool(HERO, find_preset("карабкаться"))  # type: ignore[arg-type]
    assert pool.dice == 3 + 2
    result = pool.roll(ScriptedRng([6, 7, 2, 3, 4]))
    assert climb_metres(result.net) == 6


def test_jumping() -> None:
    # «Выполняется бросок с сложностью 3. Ваш персонаж может прыгнуть на полметра вверх или на
    # метр вперед за каждый успешный балл.»
    jump = preset_pool(HERO, find_preset("прыжок"))  # type: ignore[arg-type]
    assert (jump.dice, jump.difficulty) == (3, 3)
    running = preset_pool(HERO, find_preset("прыжок с разбега"))  # type: ignore[arg-type]
    assert running.dice == 3 + 2  # «Сила + Атлетика для прыжков с разбега»
    s = jump.roll(ScriptedRng([3, 5, 2])).net
    assert s == 2 and jump_metres(s, up=True) == 1.0 and jump_metres(s, up=False) == 2.0
    # «Если общее количество успешных баллов не позволяет персонажу достичь цели, попытка
    # считается неудачной.» — a 3 m gap needs 3; the estimate tells the number
    assert jump_needed(3, up=False) == 3 and jump_needed(1.2, up=True) == 3
    assert not jump_made(s, jump_needed(3, up=False)) and jump_made(3, 3)
    estimate = preset_pool(HERO, find_preset("оценить прыжок"))  # type: ignore[arg-type]
    assert (estimate.dice, estimate.difficulty) == (3 + 2, 6)


def test_lift_and_break() -> None:
    # the 15 rows as Strength 1–15 (DESIGN.md); «бросок на Силу воли (сложность 9). Каждый
    # успешный балл временно увеличивает значение Силы на единицу»
    assert [row[0] for row in FEATS] == list(range(1, 16))
    assert heaviest_lift(3) == 120 and heaviest_lift(0) == 0
    roll = preset_pool(HERO, find_preset("поднять"))  # type: ignore[arg-type]
    assert (roll.dice, roll.difficulty) == (4, 9)
    wp = roll.roll(ScriptedRng([9, 10, 2, 5])).net
    assert feat_strength([3], wp) == 5 and heaviest_lift(5) == 300
    assert "Разогнуть звено в стальной цепи" in feats_within(5)
    # «Несколько персонажей могут объединить усилия ... суммируют успешные баллы Силы»
    assert heaviest_lift(feat_strength([3, 4, 5])) == 1300


def test_carrying_and_movement() -> None:
    # «10 кг за каждую точку Силы»; over it +1 difficulty, each further 10 kg halves the speed,
    # twice the limit: no movement
    assert carry_limit(3) == 30
    assert load(3, 30).speed == 1.0 and load(3, 30).difficulty == 0
    assert (load(3, 35).difficulty, load(3, 35).speed) == (1, 0.5)
    assert load(3, 50).speed == 0.25 and load(3, 60).can_move is False
    # «5 метров ... 10 + Ловкость ... 20 + (3 * Ловкость)»
    m = movement(3)
    assert (m.walk, m.run, m.sprint) == (5, 13, 29)


def test_opposed_actions() -> None:
    # «побеждает тот, кто набрал больше успешных баллов»
    assert opposed(3, 2) == ACTOR and opposed(1, 2) == OPPONENT and opposed(2, 2) == NOBODY
    # «если равны, преследуемый не замечает наблюдателя»
    assert shadowing(2, 2) == ACTOR
    credibility = find_preset("правдоподобие")
    assert credibility is not None and credibility.kind == OPPOSED
    assert (credibility.difficulty, credibility.against_difficulty) == (7, 7)
    intimidation = find_preset("запугивание")
    assert intimidation is not None and intimidation.against == (("willpower", None),)
    sneak = preset_pool(HERO, find_preset("красться"))  # type: ignore[arg-type]
    assert sneak.dice == 3 + 1


def test_interrogation_accumulates_against_willpower() -> None:
    # «Если количество успешных баллов превышает Силу воли жертвы, она рассказывает все ...
    # их успешные баллы суммируются»
    q = Interrogation(victim_willpower=4).add(2).add(2)
    assert q.pieces == 4 and not q.tells_all
    assert q.add(1).tells_all


def test_tracking_speech_hacking_performance() -> None:
    # «Каждый успешный балл увеличивает сложность выслеживания на единицу.»
    assert tracking_difficulty(6, 3) == 9 and tracking_difficulty(8, 5) == 10
    # «уменьшает сложность последующего броска на Обаяние + Лидерство на 1»
    assert speech_difficulty(6, 2) == 4 and speech_difficulty(3, 5) == 2
    # «количество бросков (не превышающее вашего обычного запаса)»
    assert hacking_dice(5, 4) == 4 and hacking_dice(2, 4) == 2
    # «Один успешный балл ... приятным ... Дополнительные ... запоминающимся»
    assert [performance_result(n) for n in (0, 1, 3)] == ["failed", "pleasant", "memorable"]


@pytest.mark.parametrize(
    ("rolls", "done"), [([2, 1, 2], True), ([2, 1], False), ([2, -1, 3], False)]
)
def test_extended_actions_accumulate(rolls: list[int], done: bool) -> None:
    # «длительное действие, в котором игроки бросают кубики, чтобы набрать нужное количество
    # успешных баллов» (−1: a botch)
    e = Extended(target=5)
    for r in rolls:
        e = e.add(max(0, r), botch=r < 0)
    assert e.done is done and e.rolls == len(rolls)
