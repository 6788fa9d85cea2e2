"""Bump (seed 001, lines 34-37)."""

from __future__ import annotations

import pytest

from engine.savage.chase import Bump, ChangePosition, ChaseError, EndTurn
from engine.savage.chase.events import Bumped, Moved

from .helpers import Game, of


def three() -> Game:
    """Quarry "q" on card 4; pursuers "a" and "b" on cards 3 and 2; round 1."""
    g = Game()
    g.add("q", "quarry", 4, die=8)
    g.add("a", "pursuers", 3, die=8)
    g.add("b", "pursuers", 2, die=8)
    g.round()
    return g


def test_direct_bump_moves_the_target_one_card_either_way() -> None:
    # Seed 001, line 34: «Тот, кто вызвал Сдвиг, перемещает цель на одну Карту погони в любом
    # направлении в удобный момент своего хода.»
    g = three()
    g.turn("a")
    events = g.do(Bump("a", "q", -1))
    (bumped,) = of(events, Bumped)
    assert (bumped.attacker, bumped.target, bumped.unit, bumped.direction) == ("a", "q", "q", -1)
    assert of(events, Moved)[0].cause == "bump"
    assert g.pos("q") == 3


def test_one_card_per_target_per_attacker_turn_others_bump_separately() -> None:
    # Seed 001, line 36: «Один атакующий не может сдвинуть конкретную цель более чем на одну карту
    # за ход независимо от числа источников; другие атакующие могут сдвинуть её отдельно.»
    g = three()
    g.turn("a")
    g.do(Bump("a", "q", 1))
    with pytest.raises(ChaseError) as err:
        g.do(Bump("a", "q", 1))  # a second source in the same turn
    assert err.value.code == "bump_limit"
    assert err.value.params == {"attacker": "a", "target": "q"}
    assert g.pos("q") == 5
    g.do(EndTurn("a"))
    g.turn("b")
    g.do(Bump("b", "q", 1))  # another attacker
    assert g.pos("q") == 6
    g.do(EndTurn("b"))
    g.round()
    g.turn("a")
    g.do(Bump("a", "q", -1))  # the attacker's next turn
    assert g.pos("q") == 5


def test_bump_only_in_the_attackers_turn_and_against_an_opponent() -> None:
    g = three()
    with pytest.raises(ChaseError) as err:
        g.do(Bump("a", "q", 1))
    assert err.value.code == "no_turn"
    g.turn("a")
    with pytest.raises(ChaseError) as err:
        g.do(Bump("a", "b", 1))
    assert err.value.code == "bump_own_side"
    with pytest.raises(ChaseError) as err:
        g.do(Bump("a", "a", 1))
    assert err.value.code == "bump_self"
    with pytest.raises(ChaseError) as err:
        g.do(Bump("a", "q", 2))
    assert err.value.code == "bad_direction"


def test_bump_does_not_use_the_attackers_change_position() -> None:
    g = three()
    g.turn("a")
    g.do(Bump("a", "q", 1))
    g.do(ChangePosition("a", 1), 5, 2)
    assert (g.pos("a"), g.pos("q")) == (4, 5)


def test_group_moves_when_its_driver_is_bumped() -> None:
    # Seed 001, line 37: «Группа перемещается вместе, когда сдвинут её водитель или лидер»
    g = Game()
    g.add("driver", "quarry", 4, movement="driving", die=8)
    g.add("gunner", "quarry", None, leader="driver")
    g.add("a", "pursuers", 3)
    g.round()
    g.turn("a")
    g.do(Bump("a", "driver", 1))
    assert (g.pos("driver"), g.pos("gunner")) == (5, 5)


def test_bumping_a_member_moves_the_group_and_counts_against_it() -> None:
    g = Game()
    g.add("driver", "quarry", 4, movement="driving", die=8)
    g.add("gunner", "quarry", None, leader="driver")
    g.add("a", "pursuers", 3)
    g.round()
    g.turn("a")
    events = g.do(Bump("a", "gunner", -1))
    assert of(events, Bumped)[0].unit == "driver"
    assert (g.pos("driver"), g.pos("gunner")) == (3, 3)
    with pytest.raises(ChaseError) as err:
        g.do(Bump("a", "driver", -1))  # the same vehicle again this turn
    assert err.value.code == "bump_limit"


def test_bump_at_the_end_of_the_row_moves_nobody() -> None:
    g = Game()
    g.add("q", "quarry", 0)
    g.add("a", "pursuers", 0)
    g.round()
    g.turn("a")
    events = g.do(Bump("a", "q", -1))
    assert of(events, Bumped) and not of(events, Moved)
    assert g.pos("q") == 0
