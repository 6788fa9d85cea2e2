"""Multi-action in a chase (seed 000 lines 27-30 «Несколько действий»; seed 001 lines 15, 45):
the turn's actions are declared before the first roll, at most three, and one turn has one
count — the chase's actions and the linked fight character's together."""

from __future__ import annotations

import pytest

from engine.savage.chase import (
    ChangePosition,
    ChaseError,
    CountFightActions,
    DeclareActions,
    Flee,
)
from engine.savage.chase.events import FleeRolled, PositionChangeRolled

from .helpers import Game, of

SUCCESS = (5, 2)  # d8 5, Wild Die 2
FAILURE = (2, 1)


def far_apart() -> Game:
    """Runner on card 8, hunter on card 0 (Flee is possible), the runner's turn open."""
    g = Game()
    g.add("runner", "quarry", 8, die=8)
    g.add("hunter", "pursuers", 0, die=8)
    g.round()
    g.turn("runner")
    return g


def refused(g: Game, command: object, *faces: int) -> str:
    with pytest.raises(ChaseError) as err:
        g.do(command, *faces)  # type: ignore[arg-type]
    return err.value.code


def test_a_second_action_needs_two_declared() -> None:
    # Seed 001, line 15: Change Position as an action «учитывается как действие при штрафе за
    # несколько действий»; line 45: «Отрыв (Flee) — действие».
    g = far_apart()
    g.do(ChangePosition("runner", -1, as_action=True), *SUCCESS)
    assert refused(g, Flee("runner")) == "too_many_actions"


def test_the_declaration_comes_before_the_first_action_roll() -> None:
    # Seed 000, line 27: «Персонаж может заявить до трёх действий в свой ход и объявляет их до
    # первого броска.»
    g = far_apart()
    g.do(ChangePosition("runner", 1, as_action=True), *FAILURE)
    assert refused(g, DeclareActions("runner", 2)) == "actions_already_declared"
    # a free Change Position roll is no action: declaring after it is fine (line 30)
    g2 = far_apart()
    g2.do(ChangePosition("runner", -1), *SUCCESS)
    g2.do(DeclareActions("runner", 2))


def test_no_fourth_action() -> None:
    # Seed 000, lines 27-29: up to three actions; three give −4 to every action roll.
    g = far_apart()
    assert refused(g, DeclareActions("runner", 4)) == "bad_actions"
    g.do(DeclareActions("runner", 3))
    g.do(CountFightActions("runner", 3, 2))  # two attacks in the fight already
    rolled = of(g.do(ChangePosition("runner", -1, as_action=True), *SUCCESS), PositionChangeRolled)
    assert ("multi_action", -4) in rolled[0].roll.modifiers
    assert refused(g, Flee("runner")) == "too_many_actions"


def test_fight_and_chase_actions_are_counted_together() -> None:
    # Seed 000, line 28: «Два действия дают −2 ко всем проверкам действий этого хода» — one
    # turn of one character, whether the action is an attack or a maneuver.
    g = far_apart()
    g.do(CountFightActions("runner", 1, 1))  # attacked in the fight without declaring two
    assert refused(g, Flee("runner")) == "too_many_actions"
    assert refused(g, DeclareActions("runner", 2)) == "actions_already_declared"
    g2 = far_apart()
    g2.do(CountFightActions("runner", 2, 1))  # declared two in the fight, attacked once
    fled = of(g2.do(Flee("runner"), 8, 1, 2), FleeRolled)[0]
    assert ("multi_action", -2) in fled.roll.modifiers
