"""Setup: the chase deck, the row, participants, groups, maneuvering skills (seed 001, 5-10)."""

from __future__ import annotations

import random

import pytest

from engine.dice.rng import ScriptedRng
from engine.savage.cards import full_deck
from engine.savage.chase import (
    AddParticipant,
    ChangePosition,
    ChaseError,
    ChaseState,
    JoinGroup,
    LayCards,
    LeaveGroup,
    PlaceParticipant,
    StartChase,
    StartRound,
    decide,
    replay,
)
from engine.savage.chase.events import CardsLaid, ChaseStarted

from .helpers import Game


def test_nine_chase_cards_from_a_separate_shuffled_deck() -> None:
    # Seed 001, line 7: «Перемешайте отдельную колоду и выложите в ряд девять Карт погони»
    events = decide(ChaseState(), StartChase(), random.Random(7))
    (started,) = events
    assert isinstance(started, ChaseStarted)
    assert len(started.row) == 9
    assert len(set(started.row)) == 9
    assert set(started.row) <= set(full_deck())
    state = replay(events)
    assert state.row == started.row and state.step == 1
    # The same seed deals the same row; a different one (practically always) another.
    assert decide(ChaseState(), StartChase(), random.Random(7)) == events
    assert decide(ChaseState(), StartChase(), random.Random(8))[0].row != started.row


def test_longer_row_at_start_and_cards_laid_later() -> None:
    # Seed 001, line 7: «ведущий может добавить карты для более длинной сцены»
    state = replay(decide(ChaseState(), StartChase(cards=12), random.Random(1)))
    assert len(state.row) == 12
    events = decide(state, LayCards(3), random.Random(2))
    (laid,) = events
    assert isinstance(laid, CardsLaid) and len(laid.cards) == 3
    assert not set(laid.cards) & set(state.row)  # dealt from the rest of the same deck
    longer = replay(events, state)
    assert longer.row == state.row + laid.cards
    assert len(set(longer.row)) == 15


def test_cards_laid_at_the_rear_keep_everyone_on_their_card() -> None:
    g = Game()
    g.add("a", "quarry", 0)
    g.add("b", "pursuers", 5)
    card_a, card_b = g.state.row[0], g.state.row[5]
    g.do(LayCards(2, at="rear"), rng=random.Random(3))
    assert len(g.state.row) == 11
    assert g.pos("a") == 2 and g.state.row[2] == card_a
    assert g.pos("b") == 7 and g.state.row[7] == card_b


def test_row_size_limits() -> None:
    with pytest.raises(ChaseError) as err:
        decide(ChaseState(), StartChase(cards=8), random.Random(1))
    assert err.value.code == "bad_row_size"
    full = replay(decide(ChaseState(), StartChase(cards=54), random.Random(1)))
    with pytest.raises(ChaseError) as err:
        decide(full, LayCards(1), random.Random(1))
    assert err.value.code == "deck_exhausted" and err.value.params == {"left": 0}
    with pytest.raises(ChaseError) as err:
        decide(full, StartChase(), random.Random(1))
    assert err.value.code == "already_started"


def test_commands_before_setup_are_refused() -> None:
    with pytest.raises(ChaseError) as err:
        decide(ChaseState(), StartRound(), ScriptedRng([]))
    assert err.value.code == "not_started"


@pytest.mark.parametrize(
    ("movement", "skill"),
    [("foot", "athletics"), ("driving", "driving"), ("riding", "riding"), ("piloting", "piloting")],
)
def test_maneuvering_skill_follows_movement_mode(movement: str, skill: str) -> None:
    # Seed 001, line 10: «Для пешей погони это Атлетика; для транспорта, верховой езды или особой
    # формы движения используется соответствующий навык.»
    g = Game()
    g.add("x", "quarry", 3, movement=movement)
    assert g.state.participant("x").skill == skill


def test_special_movement_needs_a_named_skill() -> None:
    g = Game()
    with pytest.raises(ChaseError) as err:
        g.add("ichigo", "quarry", 3, movement="special")
    assert err.value.code == "special_needs_skill"
    g.add("ichigo", "quarry", 3, movement="special", skill="shunpo", die=10)
    assert g.state.participant("ichigo").skill == "shunpo"
    with pytest.raises(ChaseError) as err:
        g.add("y", "quarry", 3, movement="teleport")
    assert err.value.code == "bad_movement"


def test_participant_checks() -> None:
    g = Game()
    g.add("a", "quarry", 0)
    for kwargs, code in [
        ({"participant": "a", "position": 1}, "duplicate_participant"),
        ({"participant": "b", "position": 9}, "bad_position"),
        ({"participant": "b", "position": 1, "die": 7}, "bad_skill"),
        ({"participant": "b", "position": 1, "die": 8, "die_bonus": 1}, "bad_skill"),
        ({"participant": "b", "position": None}, "bad_position"),
        ({"participant": "b", "position": None, "leader": "zz"}, "bad_leader"),
    ]:
        with pytest.raises(ChaseError) as err:
            g.do(AddParticipant(side="quarry", **kwargs))  # type: ignore[arg-type]
        assert err.value.code == code, kwargs
    g.add("b", "quarry", 1, die=12, die_bonus=2)
    assert g.state.participant("b").die_bonus == 2


def test_group_stands_on_its_leader_card_and_moves_with_it() -> None:
    # Seed 001, line 8: «Водитель или лидер перемещает всю группу; отдельные участники пешей
    # погони обычно двигаются самостоятельно.»
    g = Game()
    g.add("driver", "quarry", 3, movement="driving", die=8)
    g.add("gunner", "quarry", None, leader="driver")
    g.add("cop", "pursuers", 0)
    assert g.pos("gunner") == 3
    g.do(PlaceParticipant("driver", 6))
    assert g.pos("gunner") == 6
    with pytest.raises(ChaseError) as err:
        g.do(PlaceParticipant("gunner", 1))
    assert err.value.code == "moved_by_leader"
    g.round()
    g.turn("gunner")
    with pytest.raises(ChaseError) as err:
        g.do(ChangePosition("gunner", 1), 6, 2)
    assert err.value.code == "moved_by_leader"
    g.turn("driver")
    g.do(ChangePosition("driver", 1), 5, 2)  # success: one card forward
    assert (g.pos("driver"), g.pos("gunner")) == (7, 7)


def test_join_and_leave_a_group() -> None:
    # Seed 001, line 37: the group moves together «либо когда это логично по ситуации»: the GM
    # forms and splits groups.
    g = Game()
    g.add("horse", "quarry", 2, movement="riding")
    g.add("rider2", "quarry", 5)
    g.add("cop", "pursuers", 0)
    g.do(JoinGroup("rider2", "horse"))
    assert g.pos("rider2") == 2
    with pytest.raises(ChaseError) as err:
        g.do(JoinGroup("horse", "rider2"))  # a member cannot lead
    assert err.value.code == "bad_leader"
    with pytest.raises(ChaseError) as err:
        g.do(JoinGroup("cop", "horse"))  # another side
    assert err.value.code == "bad_leader"
    g.do(LeaveGroup("rider2"))
    g.do(PlaceParticipant("horse", 4))
    assert (g.pos("horse"), g.pos("rider2")) == (4, 2)
    with pytest.raises(ChaseError) as err:
        g.do(LeaveGroup("rider2"))
    assert err.value.code == "not_in_group"


def test_a_round_needs_two_sides() -> None:
    g = Game()
    g.add("a", "quarry", 0)
    with pytest.raises(ChaseError) as err:
        g.do(StartRound())
    assert err.value.code == "need_two_sides"
