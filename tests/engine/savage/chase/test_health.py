"""Wounds and Fatigue on maneuvering rolls (seed 000, lines 3, 73-74, 79; seed 001, line 30):
`SetHealth` and its event, the penalties, the way out at the Fatigue limit."""

from __future__ import annotations

import json

import pytest

from engine.savage.chase import (
    ChangePosition,
    ChaseError,
    EndTurn,
    Flee,
    ResolveCriticalFailure,
    SetHealth,
    event_from_dict,
    replay,
    undo,
)
from engine.savage.chase.events import (
    ChaseEnded,
    ComplicationRolled,
    CriticalFailureResolved,
    FleeRolled,
    HealthSet,
    PositionChangeRolled,
)

from .helpers import CLUBS_ACTION, Game, duel, of

# Seed 000, line 3: «… Шок, Раны, Недееспособность … действуют по стандартным правилам SWADE».
# Seed 000, line 73: «Каждая Рана даёт −1 к Темпу и проверкам параметров, максимум −3.»
# Seed 000, line 79: «Усталость (Fatigue): каждый уровень даёт −1 к проверкам параметров;
# третий уровень выводит персонажа из строя.»


def runner_in_turn(**health: int) -> Game:
    """The duel (runner d8 on card 4, hunter on 2), the runner's health set, its turn open."""
    g = duel()
    if health:
        g.do(SetHealth("runner", **health))  # type: ignore[arg-type]
    g.turn("runner")
    return g


@pytest.mark.parametrize(("wounds", "penalty"), [(1, -1), (2, -2), (3, -3)])
def test_a_wounded_runner_changes_position_with_the_wound_penalty(
    wounds: int, penalty: int
) -> None:
    # Seed 000, line 73: −1 per Wound to trait rolls, at most −3; a maneuvering roll (seed
    # 001, line 10: Athletics on foot) is a trait roll.
    g = runner_in_turn(wounds=wounds, fatigue=0)
    (rolled,) = of(g.do(ChangePosition("runner", 1), 7, 2), PositionChangeRolled)
    assert rolled.roll.modifiers == (("wounds", penalty),)
    assert rolled.roll.total == 7 + penalty


@pytest.mark.parametrize(("wounds", "penalty"), [(1, -1), (2, -2), (3, -3)])
def test_a_wounded_runner_flees_with_the_wound_penalty(wounds: int, penalty: int) -> None:
    # Seed 001, line 46 (no Flee penalty at six cards) and seed 000, line 73.
    g = Game()
    g.add("runner", "quarry", 8, die=8)
    g.add("hunter", "pursuers", 2, die=8)
    g.round()
    g.do(SetHealth("runner", wounds, 0))
    g.turn("runner")
    (fled,) = of(g.do(Flee("runner"), 7, 2), FleeRolled)
    assert fled.distance == 6
    assert fled.roll.modifiers == (("wounds", penalty),)
    assert fled.roll.total == 7 + penalty
    assert fled.escaped == (7 + penalty >= 4)


def test_wounds_and_fatigue_add_up_and_the_complication_carries_them() -> None:
    # Seed 000, lines 73 and 79: two Wounds −2 and one Fatigue level −1, on every
    # maneuvering roll — the free Complication roll of a Clubs card too (seed 001, line 21).
    g = duel()
    g.do(SetHealth("runner", 2, 1))
    (rolled,) = of(g.turn("runner", CLUBS_ACTION, 7, 2), ComplicationRolled)
    # the runner stands on card 4, the Joker: +2 (seed 001, line 28)
    assert rolled.roll.modifiers == (("complication", 2), ("wounds", -2), ("fatigue", -1))
    assert rolled.roll.total == 7 + 2 - 2 - 1


def test_nerves_of_steel_ignores_wound_penalties() -> None:
    # Standard SWADE (seed 000, line 3), as the fight's Character.wound_penalty: Nerves of
    # Steel ignores one Wound's penalty, Improved Nerves of Steel two; still at most −3.
    g = runner_in_turn(wounds=3, fatigue=0, ignored_wounds=2)
    (rolled,) = of(g.do(ChangePosition("runner", 1), 7, 2), PositionChangeRolled)
    assert rolled.roll.modifiers == (("wounds", -1),)
    g = runner_in_turn(wounds=1, fatigue=0, ignored_wounds=1)
    (rolled,) = of(g.do(ChangePosition("runner", 1), 7, 2), PositionChangeRolled)
    assert rolled.roll.modifiers == ()


def test_set_health_is_bookkeeping_that_round_trips_replays_and_undoes() -> None:
    # Every event survives JSON and replay (helpers.Game checks it at every command).
    g = duel()
    before = g.state
    (event,) = g.do(SetHealth("runner", 2, 1, 1))
    assert isinstance(event, HealthSet)
    assert (event.participant, event.wounds, event.fatigue, event.ignored_wounds) == (
        "runner",
        2,
        1,
        1,
    )
    assert event_from_dict(json.loads(json.dumps(event.to_dict()))) == event
    runner = g.state.participant("runner")
    assert (runner.wounds, runner.fatigue, runner.ignored_wounds) == (2, 1, 1)
    assert g.state.participant("runner").to_dict()["wounds"] == 2
    assert replay(undo(g.log)) == before
    # The same health again changes nothing and writes nothing.
    assert g.do(SetHealth("runner", 2, 1, 1)) == ()
    # Healing (the fight's Wound undone or healed) lifts the penalty.
    g.do(SetHealth("runner", 0, 0))
    g.turn("runner")
    (rolled,) = of(g.do(ChangePosition("runner", 1), 7, 2), PositionChangeRolled)
    assert rolled.roll.modifiers == ()


@pytest.mark.parametrize(
    "health", [(4, 0, 0), (-1, 0, 0), (0, 4, 0), (0, -1, 0), (0, 0, 3), (0, 0, -1)]
)
def test_health_out_of_range_is_refused(health: tuple[int, int, int]) -> None:
    # Seed 000, line 74: up to three Wounds (a fourth Incapacitates, a fight matter);
    # line 79: the third Fatigue level is the last.
    g = duel()
    with pytest.raises(ChaseError) as err:
        g.do(SetHealth("runner", *health))
    assert err.value.code == "bad_health"


def test_fatigue_at_the_limit_takes_the_participant_out() -> None:
    # Seed 000, line 79: «третий уровень выводит персонажа из строя»; seed 001, line 47: the
    # chase ends when one side is out of action.
    g = duel()
    g.do(SetHealth("runner", 0, 2))
    assert g.state.participant("runner").active
    events = g.do(SetHealth("runner", 1, 3))
    assert g.state.participant("runner").status == "out_of_action"
    (ended,) = of(events, ChaseEnded)
    assert (ended.reason, ended.side) == ("out_of_action", "quarry")
    assert replay(undo(g.log)).participant("runner").active


def test_health_of_a_participant_out_of_the_chase_is_refused() -> None:
    g = Game()
    g.add("runner", "quarry", 4, die=8)
    g.add("other", "quarry", 5, die=8)
    g.add("hunter", "pursuers", 2, die=8)
    g.round()
    g.do(SetHealth("runner", 0, 3))
    with pytest.raises(ChaseError) as err:
        g.do(SetHealth("runner", 0, 2))
    assert err.value.code == "not_active"


def test_critical_failure_fatigue_names_the_participant_and_adds_to_set_health() -> None:
    # Seed 001, line 30: «пеший персонаж может … получить Усталость»; the event names whom
    # (the services give the linked fight character the same level).
    g = duel()
    g.do(SetHealth("runner", 1, 1))
    g.turn("runner")
    (rolled,) = of(g.do(ChangePosition("runner", 1), 1, 1), PositionChangeRolled)
    assert rolled.roll.critical_failure
    assert rolled.roll.modifiers == (("wounds", -1), ("fatigue", -1))
    (resolved,) = g.do(ResolveCriticalFailure(rolled.pending.id, "fatigue"))
    assert isinstance(resolved, CriticalFailureResolved)
    assert resolved.participant == "runner"
    assert g.state.participant("runner").fatigue == 2
    # An event stored before the field existed still reads (its participant is unknown).
    old = {k: v for k, v in resolved.to_dict().items() if k != "participant"}
    assert event_from_dict(old) == CriticalFailureResolved(
        step=resolved.step, pending=resolved.pending, choice="fatigue"
    )
    g.do(EndTurn("runner"))
