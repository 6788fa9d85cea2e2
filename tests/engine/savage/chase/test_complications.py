"""Complications (seed 001, lines 21-30)."""

from __future__ import annotations

import pytest

from engine.savage.cards import Card
from engine.savage.chase import (
    ChangePosition,
    ChaseError,
    EndTurn,
    ResolveBump,
    ResolveCriticalFailure,
)
from engine.savage.chase.events import (
    ChaseEnded,
    ComplicationRolled,
    Moved,
    PendingMoveResolved,
    PositionChangeRolled,
)
from engine.savage.chase.model import TurnState

from .helpers import CLUBS_ACTION, JOKER_ACTION, NINE, SPADES_ACTION, Game, of

# NINE: 0 2S, 1 3H, 2 4D, 3 5C, 4 JokerR, 5 6S, 6 7H, 7 8D, 8 9C
SPADES, HEARTS, DIAMONDS, CLUBS, JOKER = 0, 1, 2, 3, 4
FOOT_CHOICES = ("lose_turn", "fatigue", "narrated")


def game(position: int, **kw: object) -> Game:
    """Quarry "q" (d8 unless told) on ``position``; pursuer "p" on card 8 (or 0)."""
    g = Game()
    g.add("q", "quarry", position, **({"die": 8} | kw))
    g.add("p", "pursuers", 8 if position < 8 else 0, die=8)
    g.round()
    return g


def complication(g: Game, *faces: int) -> ComplicationRolled:
    events = g.turn("q", CLUBS_ACTION, *faces)
    (rolled,) = of(events, ComplicationRolled)
    return rolled


# Seed 001, lines 23-28, the table «Масть Карты погони / Модификатор / Провал»:
# Пики — / критический провал; Червы — / Сдвиг; Бубны −2 / Сдвиг; Трефы −2 / критический
# провал; Джокер +2 / Сдвиг до двух Карт погони.
CASES = [
    # position, modifiers, failing faces, result, pending kind, max cards, extra?
    (SPADES, (), (3, 2), "critical_failure", "critical", 0, False),
    (HEARTS, (), (3, 2), "bump", "bump", 1, False),
    (DIAMONDS, (("complication", -2),), (5, 2), "bump", "bump", 1, False),
    (CLUBS, (("complication", -2),), (5, 2), "critical_failure", "critical", 0, False),
    # +2 leaves a Wild Card only the critical failure to fail with; an Extra fails on a 1.
    (JOKER, (("complication", 2),), (1,), "shift_two", "bump", 2, True),
]


@pytest.mark.parametrize(("position", "mods", "faces", "result", "kind", "cards", "extra"), CASES)
def test_failure_by_suit_of_the_current_chase_card(
    position: int,
    mods: tuple,
    faces: tuple,
    result: str,
    kind: str,
    cards: int,
    extra: bool,
) -> None:
    # Seed 001, line 21: «Если Карта действия участника — трефа, он немедленно делает свободный
    # бросок маневрирования. Масть его текущей Карты погони определяет модификатор и
    # последствие провала.»
    g = game(position, wild_card=not extra)
    rolled = complication(g, *faces)
    assert rolled.chase_card == Card.parse(NINE[position])
    assert rolled.roll.modifiers == mods
    assert rolled.roll.outcome == "failure"
    assert rolled.result == result
    assert rolled.pending.kind == kind and rolled.pending.target == "q"
    assert rolled.pending.max_cards == cards
    if kind == "critical":
        assert rolled.pending.choices == FOOT_CHOICES
    assert g.state.pending == (rolled.pending,)


@pytest.mark.parametrize(
    ("position", "faces"),
    [(SPADES, (5, 2)), (HEARTS, (4, 2)), (DIAMONDS, (6, 2)), (CLUBS, (6, 2)), (JOKER, (2, 1))],
)
def test_success_avoids_the_obstacle(position: int, faces: tuple) -> None:
    g = game(position)
    rolled = complication(g, *faces)
    assert rolled.roll.success and rolled.result == "passed" and rolled.pending is None
    assert g.state.pending == ()


@pytest.mark.parametrize("card", [SPADES_ACTION, JOKER_ACTION, Card.parse("2D"), Card.parse("AH")])
def test_only_a_clubs_action_card_triggers_a_complication(card: Card) -> None:
    g = game(HEARTS)
    assert not of(g.turn("q", card), ComplicationRolled)  # no dice scripted: none rolled


def test_acting_from_a_hold_kept_since_an_earlier_round_rolls_no_complication() -> None:
    # Seed 000 line 21: a Hold carried over gets no new card; seed 001 line 9 ties the
    # Complication to the action card of this round. Reading (docs/rules/chase.md «Hold»):
    # a turn without a card rolls no Complication and has no Joker bonus.
    g = game(CLUBS)
    assert not of(g.turn("q", None), ComplicationRolled)  # no dice scripted: none rolled
    assert g.state.turn("q").action_card is None
    assert TurnState.from_dict(g.state.turn("q").to_dict()) == g.state.turn("q")
    (rolled,) = of(g.do(ChangePosition("q", 1), 5, 2), PositionChangeRolled)
    assert ("joker", 2) not in rolled.roll.modifiers


def test_group_members_do_not_roll_complications() -> None:
    g = game(HEARTS)
    g.add("passenger", "quarry", None, leader="q")
    assert not of(g.turn("passenger", CLUBS_ACTION), ComplicationRolled)


def test_complication_is_a_free_roll_and_change_position_stays_available() -> None:
    g = game(SPADES)
    complication(g, 5, 2)
    events = g.do(ChangePosition("q", 1), 5, 2)
    assert of(events, PositionChangeRolled)[0].cards == 1 and g.pos("q") == 1


def test_indirect_bump_direction_chosen_by_the_opposing_side() -> None:
    # Seed 001, line 35: «Если Сдвиг вызван косвенно, например Осложнением, направление выбирает
    # противостоящая сторона.»
    g = game(HEARTS)
    g.add("ally", "quarry", 5)
    pending = complication(g, 3, 2).pending
    with pytest.raises(ChaseError) as err:
        g.do(ResolveBump(pending.id, 1, chooser="ally"))
    assert err.value.code == "not_opposing_side"
    with pytest.raises(ChaseError) as err:
        g.do(ResolveBump(pending.id, 1, cards=2, chooser="p"))
    assert err.value.code == "bad_cards"
    events = g.do(ResolveBump(pending.id, -1, chooser="p"))
    assert of(events, PendingMoveResolved)[0].chooser == "p"
    assert of(events, Moved)[0].cause == "bump"
    assert g.pos("q") == 0 and g.state.pending == ()
    with pytest.raises(ChaseError) as err:
        g.do(ResolveBump(pending.id, -1, chooser="p"))
    assert err.value.code == "unknown_pending"


def test_diamonds_bump_resolved_by_the_gm() -> None:
    g = game(DIAMONDS)
    pending = complication(g, 5, 2).pending
    g.do(ResolveBump(pending.id, 1))  # chooser None: the GM
    assert g.pos("q") == 3


def test_joker_failure_shifts_up_to_two_cards() -> None:
    # Seed 001, line 28: «Джокер | +2 | Сдвиг до двух Карт погони» (the failure column).
    g = game(JOKER, wild_card=False)
    pending = complication(g, 1).pending
    g.do(ResolveBump(pending.id, -1, cards=2, chooser="p"))
    assert g.pos("q") == 2
    g2 = game(JOKER, wild_card=False)
    pending = complication(g2, 1).pending
    g2.do(ResolveBump(pending.id, 1, cards=1, chooser="p"))
    assert g2.pos("q") == JOKER + 1 and g2.state.pending == ()


def test_an_indirect_bump_cannot_be_waived() -> None:
    # Seed 001, line 34: «Сдвиг … перемещает цель на одну Карту погони»; line 35: the
    # opposing side chooses the direction only — zero cards is no Bump.
    for suit, most in ((DIAMONDS, 1), (JOKER, 2)):
        g = game(suit, wild_card=False)
        pending = complication(g, 1).pending
        with pytest.raises(ChaseError) as refused:
            g.do(ResolveBump(pending.id, 1, cards=0, chooser="p"))
        assert refused.value.code == "bad_cards" and refused.value.params["max"] == most
        assert g.pos("q") == suit and g.state.pending == (pending,)


def test_joker_reading_success_shift_lets_the_participant_move() -> None:
    # The other reading of line 28 (option joker_complication="success_shift").
    g = Game(joker_complication="success_shift")
    g.add("q", "quarry", JOKER, die=8)
    g.add("p", "pursuers", 8, die=8)
    g.round()
    rolled = complication(g, 2, 1)  # 2 + 2 = 4
    assert rolled.result == "lucky_shift" and rolled.pending.kind == "shift"
    with pytest.raises(ChaseError) as err:
        g.do(ResolveBump(rolled.pending.id, 1, cards=2, chooser="p"))
    assert err.value.code == "bad_choice"
    events = g.do(ResolveBump(rolled.pending.id, 1, cards=2, chooser="q"))
    assert of(events, Moved)[0].cause == "shift" and g.pos("q") == 6
    g2 = Game(joker_complication="success_shift")
    g2.add("q", "quarry", JOKER, die=8, wild_card=False)
    g2.add("p", "pursuers", 8)
    g2.round()
    rolled = complication(g2, 1)
    assert rolled.result == "no_effect" and rolled.pending is None


def test_critical_failure_of_the_roll_counts_as_critical_on_any_suit() -> None:
    g = game(HEARTS)
    rolled = complication(g, 1, 1)
    assert rolled.roll.outcome == "critical_failure"
    assert rolled.result == "critical_failure" and rolled.pending.kind == "critical"


def test_on_foot_critical_failure_lose_rest_of_turn() -> None:
    # Seed 001, line 30: «пеший персонаж может потерять остаток хода или получить Усталость.»
    g = game(SPADES)
    pending = complication(g, 3, 2).pending
    with pytest.raises(ChaseError) as err:
        g.do(ChangePosition("q", 1), 5, 2)
    assert err.value.code == "pending_choice"
    with pytest.raises(ChaseError) as err:
        g.do(ResolveCriticalFailure(pending.id, "out_of_control"))
    assert err.value.code == "bad_choice"
    g.do(ResolveCriticalFailure(pending.id, "lose_turn"))
    assert g.state.turn("q").lost
    with pytest.raises(ChaseError) as err:
        g.do(ChangePosition("q", 1), 5, 2)
    assert err.value.code == "turn_lost"


def test_on_foot_critical_failure_fatigue_and_third_level_takes_out() -> None:
    # Seed 000, line 79: each Fatigue level −1 to trait rolls; the third takes the character out.
    g = game(CLUBS)
    pending = complication(g, 5, 2).pending
    g.do(ResolveCriticalFailure(pending.id, "fatigue"))
    assert g.state.participant("q").fatigue == 1
    events = g.do(ChangePosition("q", 1), 6, 2)  # 6 - 1 = 5
    rolled = of(events, PositionChangeRolled)[0]
    assert rolled.roll.modifiers == (("fatigue", -1),) and rolled.roll.total == 5
    for _ in range(2):
        g.do(EndTurn("q"))
        g.round()
        pending = complication(g, 1, 1).pending
        events = g.do(ResolveCriticalFailure(pending.id, "fatigue"))
    assert g.state.participant("q").status == "out_of_action"
    (ended,) = of(events, ChaseEnded)
    assert (ended.reason, ended.side) == ("out_of_action", "quarry")


def test_vehicle_critical_failure_choices() -> None:
    g = game(CLUBS, movement="driving")
    pending = complication(g, 5, 2).pending
    assert pending.choices == ("lose_turn", "out_of_control", "narrated")
    g.do(ResolveCriticalFailure(pending.id, "out_of_control"))
    assert g.state.pending == () and not g.state.turn("q").lost
