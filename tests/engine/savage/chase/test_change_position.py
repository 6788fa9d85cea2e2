"""Change Position and dropping back (seed 001, lines 14-17)."""

from __future__ import annotations

import pytest

from engine.savage.chase import (
    ChangePosition,
    ChaseError,
    DeclareActions,
    DropBack,
    EndTurn,
    ResolveCriticalFailure,
    SetModifier,
    actions_taken,
    current_multi_action_penalty,
)
from engine.savage.chase.events import DroppedBack, Moved, PositionChangeRolled

from .helpers import JOKER_ACTION, Game, duel, of

# Faces are drawn trait die first (d8, acing), then the Wild Die (d6).
SUCCESS = (5, 2)  # 5: success, no raise
RAISE = (8, 1, 2)  # 8 aces, +1 = 9: one raise
FAILURE = (3, 2)  # 3: failure
CRITICAL = (1, 1)  # both dice 1: critical failure


def test_free_change_position_success_moves_one_card() -> None:
    # Seed 001, line 14: «Смена позиции (Change Position) выполняется один раз за ход свободным
    # действием: успех перемещает на одну Карту погони в любом направлении, подъём — на две.»
    g = duel()
    g.turn("runner")
    events = g.do(ChangePosition("runner", 1), *SUCCESS)
    (rolled,) = of(events, PositionChangeRolled)
    assert rolled.roll.outcome == "success" and rolled.roll.modifiers == ()
    assert rolled.cards == 1 and not rolled.as_action
    assert of(events, Moved)[0].cause == "change_position"
    assert g.pos("runner") == 5
    assert actions_taken(g.state, "runner") == 0  # a free action


def test_free_change_position_raise_moves_two_cards_either_direction() -> None:
    g = duel()
    g.turn("runner")
    g.do(ChangePosition("runner", -1), *RAISE)
    assert g.pos("runner") == 2
    assert g.state.turn("runner").changed_position


def test_raise_may_move_only_one_card_when_asked() -> None:
    g = duel()
    g.turn("runner")
    g.do(ChangePosition("runner", 1, max_cards=1), *RAISE)
    assert g.pos("runner") == 5


def test_failure_does_not_move_and_still_uses_the_change_position() -> None:
    g = duel()
    g.turn("runner")
    events = g.do(ChangePosition("runner", 1), *FAILURE)
    assert of(events, PositionChangeRolled)[0].cards == 0 and not of(events, Moved)
    assert g.pos("runner") == 4
    with pytest.raises(ChaseError) as err:
        g.do(ChangePosition("runner", 1, as_action=True), *SUCCESS)
    assert err.value.code == "already_changed_position"


def test_once_per_turn_and_again_next_turn() -> None:
    g = duel()
    g.turn("runner")
    g.do(ChangePosition("runner", 1), *SUCCESS)
    with pytest.raises(ChaseError) as err:
        g.do(ChangePosition("runner", 1), *SUCCESS)
    assert err.value.code == "already_changed_position"
    assert err.value.params == {"participant": "runner"}
    g.do(EndTurn("runner"))
    g.round()
    g.turn("runner")
    g.do(ChangePosition("runner", 1), *SUCCESS)
    assert g.pos("runner") == 6


def test_change_position_as_an_action_gets_plus_two_and_counts_as_an_action() -> None:
    # Seed 001, line 15: «Её можно выполнить обычным действием и получить +2 к броску. Это всё
    # ещё единственная Смена позиции в этот ход и учитывается как действие при штрафе за
    # несколько действий.»
    g = duel()
    g.turn("runner")
    events = g.do(ChangePosition("runner", 1, as_action=True), *FAILURE)  # 3 + 2 = 5
    (rolled,) = of(events, PositionChangeRolled)
    assert rolled.roll.modifiers == (("change_position_action", 2),)
    assert rolled.roll.total == 5 and rolled.roll.outcome == "success"
    assert g.pos("runner") == 5
    assert actions_taken(g.state, "runner") == 1
    with pytest.raises(ChaseError) as err:
        g.do(ChangePosition("runner", 1), *SUCCESS)
    assert err.value.code == "already_changed_position"


def test_change_position_action_carries_the_multi_action_penalty() -> None:
    # Seed 000, line 28: «Два действия дают −2 ко всем проверкам действий этого хода.»
    g = duel()
    g.turn("runner")
    g.do(DeclareActions("runner", 2))  # e.g. Change Position and an attack
    assert current_multi_action_penalty(g.state, "runner") == -2
    events = g.do(ChangePosition("runner", 1, as_action=True), *SUCCESS)
    roll = of(events, PositionChangeRolled)[0].roll
    assert roll.modifiers == (("change_position_action", 2), ("multi_action", -2))
    assert roll.total == 5
    assert actions_taken(g.state, "runner") == 1
    with pytest.raises(ChaseError) as err:
        g.do(DeclareActions("runner", 4))
    assert err.value.code == "bad_actions"


def test_free_roll_has_no_multi_action_penalty_unless_the_option_says_so() -> None:
    for option, expected in [(False, ()), (True, (("multi_action", -2),))]:
        g = duel(multi_action_on_free_rolls=option)
        g.turn("runner")
        g.do(DeclareActions("runner", 2))
        events = g.do(ChangePosition("runner", 1), *SUCCESS)
        assert of(events, PositionChangeRolled)[0].roll.modifiers == expected


def test_speed_bonus_only_as_an_explicit_modifier_and_joker_plus_two() -> None:
    # Seed 001, line 17: higher speed gives a bonus only by the SWADE speed rule or an ability;
    # seed 000, line 14: a Joker gives +2 to all trait rolls.
    g = duel()
    g.do(SetModifier("runner", 1))
    g.turn("runner", JOKER_ACTION)
    events = g.do(ChangePosition("runner", 1), *FAILURE)  # 3 + 1 + 2 = 6
    roll = of(events, PositionChangeRolled)[0].roll
    assert roll.modifiers == (("standing", 1), ("joker", 2)) and roll.total == 6
    assert g.pos("runner") == 5


def test_move_stops_at_the_end_of_the_row() -> None:
    g = Game()
    g.add("runner", "quarry", 8, die=8)
    g.add("hunter", "pursuers", 0)
    g.round()
    g.turn("runner")
    events = g.do(ChangePosition("runner", 1), *RAISE)
    assert of(events, PositionChangeRolled)[0].cards == 2
    assert g.pos("runner") == 8 and not of(events, Moved)


def test_critical_failure_waits_for_the_gm() -> None:
    # Seed 001, line 30: the consequences of a critical failure depend on the movement mode.
    g = duel()
    g.turn("runner")
    events = g.do(ChangePosition("runner", 1), *CRITICAL)
    pending = of(events, PositionChangeRolled)[0].pending
    assert pending.kind == "critical" and pending.choices == ("lose_turn", "fatigue", "narrated")
    with pytest.raises(ChaseError) as err:
        g.do(DropBack("runner", 1))
    assert err.value.code == "pending_choice"
    g.do(ResolveCriticalFailure(pending.id, "narrated"))
    assert g.state.pending == ()


def test_no_change_position_outside_ones_turn() -> None:
    g = duel()
    with pytest.raises(ChaseError) as err:
        g.do(ChangePosition("runner", 1), *SUCCESS)
    assert err.value.code == "no_turn"
    g.turn("runner")
    with pytest.raises(ChaseError) as err:
        g.do(ChangePosition("runner", 0), *SUCCESS)
    assert err.value.code == "bad_direction"
    with pytest.raises(ChaseError) as err:
        g.do(ChangePosition("runner", 1, max_cards=3), *SUCCESS)
    assert err.value.code == "bad_cards"


def test_drop_back_without_a_roll_blocks_change_position() -> None:
    # Seed 001, line 16: «В линейной погоне участник может добровольно отстать на одну или две
    # карты без броска, но после этого не выполняет Смену позиции в тот же ход.»
    g = duel()
    g.turn("runner")
    events = g.do(DropBack("runner", 2))  # no dice: the scripted rng has none
    assert of(events, DroppedBack)[0].cards == 2 and of(events, Moved)[0].cause == "drop_back"
    assert g.pos("runner") == 2
    for as_action in (False, True):
        with pytest.raises(ChaseError) as err:
            g.do(ChangePosition("runner", 1, as_action=as_action), *SUCCESS)
        assert err.value.code == "dropped_back"
    with pytest.raises(ChaseError) as err:
        g.do(DropBack("runner", 1))
    assert err.value.code == "dropped_back"


def test_drop_back_limits() -> None:
    g = duel()
    g.turn("runner")
    with pytest.raises(ChaseError) as err:
        g.do(DropBack("runner", 3))
    assert err.value.code == "bad_cards"
    g.do(ChangePosition("runner", 1), *SUCCESS)
    with pytest.raises(ChaseError) as err:
        g.do(DropBack("runner", 1))
    assert err.value.code == "already_changed_position"
    nonlinear = duel(linear=False)
    nonlinear.turn("runner")
    with pytest.raises(ChaseError) as err:
        nonlinear.do(DropBack("runner", 1))
    assert err.value.code == "not_linear"
