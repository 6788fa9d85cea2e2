"""A duel's deadline per turn with a fixed clock: set by the GM, due from each turn's start,
acted on once when it passes, by the duel's policy (docs/rules/duel.md «Deadline»)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from engine.dice.rng import ScriptedRng
from engine.duel import (
    Deadline,
    DefaultTurn,
    DuelError,
    FullDefense,
    PassDeadline,
    Publish,
    SetDeadline,
    Submit,
    is_overdue,
    observe,
)
from engine.duel.actions import Block
from engine.duel.deadline import HOUR, default_defense
from engine.duel.decide import decide, evolve, replay
from engine.duel.events import DeadlinePassed, Event, Submitted, event_from_dict
from engine.duel.state import DuelState, new_duel
from engine.observe import SPECTATOR
from engine.receipt import verify

from .helpers import with_fighter
from .six_turns import BJORN, TAKEDA, TURNS

ALICE, BOB = 101, 202
SALT = "s" * 16


@dataclass(frozen=True)
class Viewer:
    user_id: int
    role: str


T0 = 1_800_000_000.0  # the fixed clock


def _run(state: DuelState, command: object, faces: list[int], log: list[Event]) -> DuelState:
    events = decide(state, command, ScriptedRng(faces))  # type: ignore[arg-type]
    log += events
    for e in events:
        state = evolve(state, e)
    return state


def _start(policy: str = "ask", log: list[Event] | None = None) -> DuelState:
    state = new_duel(BJORN, TAKEDA, owners=(ALICE, BOB))
    command = SetDeadline(Deadline(24, policy), now=T0)  # type: ignore[arg-type]
    return _run(state, command, [], log if log is not None else [])


def test_the_deadline_runs_from_the_turn_start_and_passes_once() -> None:
    log: list[Event] = []
    state = _start(log=log)
    assert state.due == T0 + 24 * HOUR and not state.overdue
    a, fa, _, _ = TURNS[0]
    state = _run(state, Submit("a", tuple(a), SALT, by=ALICE), fa, log)
    early = PassDeadline(1, now=T0 + 24 * HOUR - 1, salt=SALT)
    with pytest.raises(DuelError) as refused:
        decide(state, early, ScriptedRng([]))
    assert refused.value.code == "deadline_not_due"
    assert not is_overdue(state, T0 + 24 * HOUR - 1) and is_overdue(state, T0 + 24 * HOUR)
    state = _run(state, PassDeadline(1, now=T0 + 24 * HOUR, salt=SALT), [], log)
    assert state.overdue and log[-1] == DeadlinePassed(state.step, 1, ("b",))
    assert state.sealed("b") is None  # "ask": the turn waits for the GM's decision
    with pytest.raises(DuelError) as again:  # a second pass (a restart, another worker)
        decide(state, PassDeadline(1, now=T0 + 25 * HOUR, salt=SALT), ScriptedRng([]))
    assert again.value.code == "deadline_not_due"
    # the log rebuilds it through JSON: the deadline is stored with the duel
    rebuilt = replay(
        [event_from_dict(e.to_dict()) for e in log], new_duel(BJORN, TAKEDA, owners=(ALICE, BOB))
    )
    assert rebuilt == state


def test_a_published_turn_starts_the_next_turns_time() -> None:
    state, log = _start(), []
    a, fa, b, fb = TURNS[0]
    state = _run(state, Submit("a", tuple(a), SALT, by=ALICE), fa, log)
    state = _run(state, Submit("b", tuple(b), SALT, by=BOB), fb, log)
    state = _run(state, Publish(1, now=T0 + 5 * HOUR), [], log)
    assert state.turn == 2 and state.due == T0 + 29 * HOUR and not state.overdue
    view = observe(state, Viewer(303, SPECTATOR))
    assert view["deadline"] == {"hours": 24, "policy": "ask"} and view["due"] == state.due
    assert view["missing"] == ["a", "b"]
    state = _run(state, SetDeadline(None, now=T0 + 6 * HOUR), [], log)
    assert state.deadline is None and state.due is None
    assert not is_overdue(state, T0 + 1000 * HOUR)


def test_the_gm_seals_the_default_defense_after_the_deadline_only() -> None:
    state, log = _start(), []
    a, fa, _, _ = TURNS[0]
    state = _run(state, Submit("a", tuple(a), SALT, by=ALICE), fa, log)
    with pytest.raises(DuelError) as early:
        decide(state, DefaultTurn(1, "b", SALT), ScriptedRng([2, 5, 6]))
    assert early.value.code == "deadline_not_passed"
    state = _run(state, PassDeadline(1, now=T0 + 24 * HOUR, salt=SALT), [], log)
    with pytest.raises(DuelError) as sent:
        decide(state, DefaultTurn(1, "a", SALT), ScriptedRng([2, 5, 6]))
    assert sent.value.code == "already_sent"
    with pytest.raises(DuelError) as player:
        decide(state, DefaultTurn(1, "b", SALT, by=BOB), ScriptedRng([2, 5, 6]))
    assert player.value.code == "gm_only"
    # the d3 picks the side (3: top), then full defense's two d10
    state = _run(state, DefaultTurn(1, "b", SALT), [3, 5, 6], log)
    sealed = state.sealed("b")
    assert sealed is not None and sealed.default
    assert sealed.submission.actions == (FullDefense("top"),)
    assert verify(sealed.receipt, sealed.submission.committed(), sealed.salt)
    state = _run(state, Publish(1, now=T0 + 25 * HOUR), [], log)
    assert state.turn == 2 and state.history[-1].reveals[1].fighter == "b"


def test_the_defend_policy_seals_both_missing_turns_at_the_deadline() -> None:
    state, log = _start("defend"), []
    state = _run(state, PassDeadline(1, now=T0 + 30 * HOUR, salt=SALT), [1, 3, 4, 3, 9, 2], log)
    passed, *sealed = log[-3:]
    assert isinstance(passed, DeadlinePassed) and passed.missing == ("a", "b")
    assert all(isinstance(e, Submitted) and e.sealed.default for e in sealed)
    a, b = state.sealed("a"), state.sealed("b")
    assert a is not None and b is not None and a.salt != b.salt
    assert a.submission.actions == (FullDefense("left"),)
    assert b.submission.actions == (FullDefense("top"),)


def test_the_wait_policy_offers_no_default() -> None:
    state, log = _start("wait"), []
    state = _run(state, PassDeadline(1, now=T0 + 24 * HOUR, salt=SALT), [], log)
    assert state.overdue and state.missing() == ("a", "b")
    with pytest.raises(DuelError) as refused:
        decide(state, DefaultTurn(1, "a", SALT), ScriptedRng([1, 5, 5]))
    assert refused.value.code == "deadline_waits"


def test_the_default_defense_is_what_the_rules_allow_now() -> None:
    # «У него есть только одно действие на защиту»: an exhausted fighter blocks once
    state = with_fighter(new_duel(BJORN, TAKEDA), "a", sp=0)
    assert default_defense(state, "a", ScriptedRng([3])) == (Block("top"),)
    assert default_defense(new_duel(BJORN, TAKEDA), "a", ScriptedRng([1])) == (FullDefense("left"),)


def test_a_deadline_is_from_one_hour_to_thirty_days() -> None:
    state = new_duel(BJORN, TAKEDA)
    for hours in (0, 24 * 30 + 1):
        with pytest.raises(DuelError) as refused:
            decide(state, SetDeadline(Deadline(hours), now=T0), ScriptedRng([]))
        assert refused.value.code == "bad_deadline"
