"""`/p прыжок 4`: every preset of the seed's actions reachable by name as a pool, with its
difficulty unless one is given, and what its successes mean."""

from __future__ import annotations

import pytest

import engine.services.installed  # noqa: F401  (the installed systems register their rolls)
from engine.dice.commands import explain, make_roll
from engine.dice.errors import DiceError
from engine.dice.rng import ScriptedRng
from engine.storyteller import presets as p
from engine.storyteller.preset_rolls import meaning, split_preset


@pytest.mark.parametrize("preset", p.PRESETS, ids=lambda x: x.code)
def test_every_preset_rolls_by_each_name_with_its_difficulty(preset: p.Preset) -> None:
    for name in preset.names:
        result = make_roll("p", f"{name} 3", ScriptedRng([10, 10, 10]))
        assert result.dice_count == 3 and result.difficulty == preset.difficulty
        assert result.comment == name and result.net == 3
    # a difficulty of the player's own wins
    assert make_roll("p", f"{preset.names[0]} 2 сл 9", ScriptedRng([9, 8])).difficulty == 9


def test_what_the_successes_mean() -> None:
    jump = p.find_preset("прыжок")
    assert jump is not None
    # «Ваш персонаж может прыгнуть на полметра вверх или на метр вперед за каждый успешный
    # балл.» — difficulty 3: 3, 5 and 9 succeed, the 1 takes one away
    result = make_roll("p", "прыжок 4", ScriptedRng([3, 5, 1, 9]))
    assert result.net == 2
    found = explain("p", "прыжок 4", result)
    assert found is not None and found.params == {"up": 100, "forward": 2}
    climb = meaning(p.preset_named("карабкаться"), 3)  # «3 метра за каждый успешный балл»
    assert climb is not None and climb.params == {"metres": 9}
    lift = meaning(p.preset_named("поднять"), 2)  # «временно увеличивает значение Силы»
    assert lift is not None and lift.params == {"count": 2}
    told = meaning(p.preset_named("допрос"), 4)
    assert told is not None and told.code == "st_preset.interrogation"
    assert meaning(p.preset_named("выступление"), 1).code == "st_preset.pleasant"  # type: ignore[union-attr]
    assert meaning(p.preset_named("выступление"), 2).code == "st_preset.memorable"  # type: ignore[union-attr]
    cover = meaning(p.preset_named("замести следы"), 2)
    assert cover is not None and cover.params == {"count": 2}
    assert meaning(jump, 0) is None  # a failure says no more than its outcome


def test_a_plain_pool_and_errors() -> None:
    assert split_preset("7 6") is None
    plain = make_roll("p", "7 6", ScriptedRng([6] * 7))
    assert plain.difficulty == 6 and explain("p", "7 6", plain) is None
    assert split_preset("взлом замка 4") == (p.preset_named("взлом замка"), "4")
    with pytest.raises(DiceError):
        make_roll("p", "прыжок", ScriptedRng([]))
