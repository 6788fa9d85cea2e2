"""Duel checks. Rules: seed 003_cf068c12a73bf464.txt."""

from __future__ import annotations

import pytest

from engine.dice import Modifier, ScriptedRng
from engine.duel.roll import duel


def test_d10_plus_modifier():
    # Seed 003 line 6: «Кидаем d10, добавляем модификаторы».
    r = duel("+2", ScriptedRng([7]))
    assert r.die.value == 7 and r.total == 9 and r.critical is None
    assert r.modifiers == (Modifier("modifier", 2),) and r.expression == "d10+2"


@pytest.mark.parametrize(("face", "critical"), [(10, "success"), (1, "failure"), (5, None)])
def test_natural_10_and_1_are_critical(face, critical):
    # Seed 003 line 39: «Чистая 10 на d10 - критический успех любого действия, 1 на d10 -
    # критический провал».
    assert duel("+3", ScriptedRng([face])).critical == critical


def test_trick_succeeds_on_six_or_more():
    # Seed 003 line 27: «d10 против фиксированной сложности, с успехом на 6+».
    assert duel("трюк", ScriptedRng([6])).success is True
    assert duel("трюк", ScriptedRng([5])).success is False
    assert duel("-3 трюк", ScriptedRng([10])).success is True  # natural 10
    assert duel("+8 трюк", ScriptedRng([1])).success is False  # natural 1


def test_several_modifiers_target_and_comment():
    r = duel("d10+1 -2 цн 7 атака слева", ScriptedRng([8]))
    assert r.total == 7 and r.target == 7 and r.success is True
    assert r.comment == "атака слева"
    assert duel("", ScriptedRng([4])).total == 4
