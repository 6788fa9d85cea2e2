"""Distance (seed 001, line 41), Flee (lines 45-46) and the end of a chase (lines 46-47)."""

from __future__ import annotations

import pytest

from engine.savage.chase import (
    ChangePosition,
    ChaseError,
    EndChase,
    EndTurn,
    Flee,
    SetRoundLimit,
    StartRound,
    StopSide,
    TakeOutOfAction,
    actions_taken,
    card_distance,
    distances,
    nearest_opponent_distance,
    ranged_distance,
    require_same_card,
    same_card,
)
from engine.savage.chase.events import ChaseEnded, FleeRolled, RoundStarted

from .helpers import Game, of


def apart(cards: int, **options: object) -> Game:
    """Hunter on card 0, runner (d8) on card ``cards``; runner's turn in round 1."""
    g = Game(**options)
    g.add("runner", "quarry", cards, die=8)
    g.add("hunter", "pursuers", 0, die=8)
    g.round()
    g.turn("runner")
    return g


def test_card_distance_melee_and_ranged() -> None:
    # Seed 001, line 41: «Ближний бой обычно требует находиться на одной Карте погони; для
    # дальних атак учитывается число карт между участниками и масштаб сцены.»
    g = Game(scale=5)
    g.add("a", "quarry", 6)
    g.add("b", "pursuers", 2)
    g.add("c", "pursuers", 6)
    assert card_distance(g.state, "a", "b") == 4 == card_distance(g.state, "b", "a")
    assert ranged_distance(g.state, "a", "b") == 20
    assert same_card(g.state, "a", "c") and not same_card(g.state, "a", "b")
    require_same_card(g.state, "a", "c")
    with pytest.raises(ChaseError) as err:
        require_same_card(g.state, "a", "b")
    assert err.value.code == "not_on_same_card" and err.value.params["distance"] == 4
    assert distances(g.state) == {("a", "b"): 4, ("a", "c"): 0, ("b", "c"): 4}
    assert nearest_opponent_distance(g.state, "a") == 0
    between = Game(distance="between")
    between.add("a", "quarry", 6)
    between.add("b", "pursuers", 2)
    between.add("c", "pursuers", 5)
    assert card_distance(between.state, "a", "b") == 3
    assert card_distance(between.state, "a", "c") == 0  # neighbours


def test_flee_refused_at_three_cards() -> None:
    # Seed 001, line 45: «Отрыв (Flee) — действие. Между беглецом и ближайшим противником должно
    # быть не менее четырёх Карт погони.»
    g = apart(3)
    with pytest.raises(ChaseError) as err:
        g.do(Flee("runner"), 8, 1, 2)
    assert err.value.code == "flee_too_close"
    assert err.value.params == {"required": 4, "distance": 3}


@pytest.mark.parametrize(
    ("distance", "faces", "mods", "total"),
    [
        (4, (8, 1, 2), (("flee", -4),), 5),  # 9 - 4
        (5, (6, 2), (("flee", -2),), 4),  # 6 - 2
        (6, (4, 2), (), 4),
        (8, (4, 2), (), 4),
    ],
)
def test_flee_modifier_by_distance_and_success_leaves_the_chase(
    distance: int, faces: tuple, mods: tuple, total: int
) -> None:
    # Seed 001, line 46: «При четырёх картах бросок маневрирования выполняется с −4, при пяти —
    # с −2, при шести и более — без штрафа. Успех выводит участника из погони.»
    g = apart(distance)
    events = g.do(Flee("runner"), *faces)
    (fled,) = of(events, FleeRolled)
    assert fled.distance == distance
    assert fled.roll.modifiers == mods and fled.roll.total == total and fled.escaped
    assert g.state.participant("runner").status == "escaped"
    # The only quarry escaped: the chase is over.
    (ended,) = of(events, ChaseEnded)
    assert (ended.reason, ended.side) == ("escaped", "quarry")


def test_failed_flee_is_a_spent_action_and_the_runner_stays() -> None:
    g = apart(4)
    events = g.do(Flee("runner"), 7, 2)  # 7 - 4 = 3
    assert not of(events, FleeRolled)[0].escaped and not of(events, ChaseEnded)
    assert g.state.participant("runner").active
    assert actions_taken(g.state, "runner") == 1
    g.do(ChangePosition("runner", 1), 5, 2)  # Flee is not a Change Position
    assert g.pos("runner") == 5


def test_flee_counts_from_the_nearest_opponent() -> None:
    g = Game()
    g.add("runner", "quarry", 8, die=8)
    g.add("far", "pursuers", 0)
    g.add("near", "pursuers", 5)
    g.round()
    g.turn("runner")
    with pytest.raises(ChaseError) as err:
        g.do(Flee("runner"), 4, 2)
    assert err.value.params["distance"] == 3
    g.do(TakeOutOfAction("near"))
    assert nearest_opponent_distance(g.state, "runner") == 8
    g.do(Flee("runner"), 4, 2)
    assert g.state.participant("runner").status == "escaped"


def test_flee_with_the_between_reading_needs_five_steps() -> None:
    g = apart(4, distance="between")  # 3 cards strictly between
    with pytest.raises(ChaseError) as err:
        g.do(Flee("runner"), 8, 1, 2)
    assert err.value.code == "flee_too_close"
    g = apart(5, distance="between")
    events = g.do(Flee("runner"), 8, 1, 2)
    assert of(events, FleeRolled)[0].roll.modifiers == (("flee", -4),)


def test_a_group_flees_with_its_leader() -> None:
    g = Game()
    g.add("driver", "quarry", 7, movement="driving", die=8)
    g.add("gunner", "quarry", None, leader="driver")
    g.add("cop", "pursuers", 0)
    g.round()
    g.turn("gunner")
    with pytest.raises(ChaseError) as err:
        g.do(Flee("gunner"), 4, 2)
    assert err.value.code == "moved_by_leader"
    g.turn("driver")
    events = g.do(Flee("driver"), 4, 2)
    assert g.state.participant("gunner").status == "escaped"
    assert of(events, ChaseEnded)[0].reason == "escaped"


def test_chase_goes_on_while_someone_of_each_side_remains() -> None:
    g = Game()
    g.add("r1", "quarry", 7, die=8)
    g.add("r2", "quarry", 6, die=8)
    g.add("cop", "pursuers", 0)
    g.round()
    g.turn("r1")
    assert not of(g.do(Flee("r1"), 4, 2), ChaseEnded)
    with pytest.raises(ChaseError) as err:
        g.do(EndTurn("r1"))  # out of the chase
    assert err.value.code == "not_active"
    g.turn("r2")
    assert of(g.do(Flee("r2"), 4, 2), ChaseEnded)[0].side == "quarry"


def test_end_when_the_pursuers_are_out_of_action() -> None:
    # Seed 001, line 47: «Погоня также заканчивается, если преследователи выведены из строя, одна
    # сторона останавливается, достигается цель сценария или истекает установленное ведущим
    # число раундов.»
    g = apart(3)
    events = g.do(TakeOutOfAction("hunter"))
    (ended,) = of(events, ChaseEnded)
    assert (ended.reason, ended.side) == ("out_of_action", "pursuers")
    assert g.state.ended.round == 1 and g.state.turns == ()
    with pytest.raises(ChaseError) as err:
        g.do(ChangePosition("runner", 1), 5, 2)
    assert err.value.code == "chase_over"


def test_end_when_one_side_stops() -> None:
    g = apart(3)
    with pytest.raises(ChaseError) as err:
        g.do(StopSide("police"))
    assert err.value.code == "unknown_side"
    (ended,) = of(g.do(StopSide("pursuers")), ChaseEnded)
    assert (ended.reason, ended.side) == ("side_stopped", "pursuers")


def test_end_when_the_scenario_goal_is_reached() -> None:
    g = apart(3)
    with pytest.raises(ChaseError) as err:
        g.do(EndChase("round_limit"))
    assert err.value.code == "bad_end_reason"
    (ended,) = of(g.do(EndChase(side="quarry")), ChaseEnded)
    assert (ended.reason, ended.side) == ("goal_reached", "quarry")


def test_end_when_the_round_limit_runs_out() -> None:
    g = Game(round_limit=2)
    g.add("runner", "quarry", 3)
    g.add("hunter", "pursuers", 0)
    assert of(g.do(StartRound()), RoundStarted)[0].round == 1
    g.do(SetRoundLimit(3))
    g.do(StartRound())
    g.do(StartRound())
    events = g.do(StartRound())
    assert not of(events, RoundStarted)
    (ended,) = of(events, ChaseEnded)
    assert ended.reason == "round_limit" and g.state.round == 3
    with pytest.raises(ChaseError) as err:
        g.do(StartRound())
    assert err.value.code == "chase_over"


def test_round_limit_must_be_positive() -> None:
    g = apart(3)
    with pytest.raises(ChaseError) as err:
        g.do(SetRoundLimit(0))
    assert err.value.code == "bad_option"


def test_a_leader_out_of_action_leaves_its_members_independent() -> None:
    g = Game()
    g.add("driver", "quarry", 5, movement="driving")
    g.add("gunner", "quarry", None, leader="driver")
    g.add("cop", "pursuers", 0)
    g.round()
    assert not of(g.do(TakeOutOfAction("driver")), ChaseEnded)  # the gunner is still in it
    gunner = g.state.participant("gunner")
    assert gunner.active and gunner.leader is None and gunner.position == 5
    g.turn("gunner")
    g.do(ChangePosition("gunner", 1), 4, 2)
    assert g.pos("gunner") == 6 and g.pos("driver") == 5
