"""The duel as commands and events: sealed submissions that may change until both are in,
one publication per turn, receipts that check out after it (DESIGN decision 4)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.dice.rng import ScriptedRng
from engine.duel.actions import Attack, Block, Dodge
from engine.duel.adjust import set_roll, set_value
from engine.duel.commands import Adjust, Configure, Publish, Submit
from engine.duel.decide import decide, evolve, propose, replay
from engine.duel.errors import DuelError
from engine.duel.events import Event, event_from_dict
from engine.duel.export import export_text
from engine.duel.state import DuelState, new_duel
from engine.receipt import verify

from .six_turns import BJORN, TAKEDA, TURNS

SALT_A, SALT_B = "a1" * 16, "b2" * 16
ALICE, BOB = 101, 202


def _start() -> DuelState:
    return new_duel(BJORN, TAKEDA, owners=(ALICE, BOB))


def _run(state: DuelState, command: object, faces: list[int], log: list[Event]) -> DuelState:
    events = decide(state, command, ScriptedRng(faces))  # type: ignore[arg-type]
    log += events
    for e in events:
        state = evolve(state, e)
    return state


def test_the_six_turns_through_commands_and_every_receipt_checks_out() -> None:
    state, log = _start(), []
    for a, fa, b, fb in TURNS:
        state = _run(state, Submit("a", tuple(a), SALT_A, by=ALICE), fa, log)
        state = _run(state, Submit("b", tuple(b), SALT_B, by=BOB), fb, log)
        state = _run(state, Publish(state.turn), [], log)
    assert state.over and state.fighter("b").dead and len(state.history) == 6
    for published in state.history:
        for sub, reveal in zip(published.proposal.submissions, published.reveals, strict=True):
            assert reveal.fighter == sub.fighter
            assert verify(reveal.receipt, sub.committed(), reveal.salt)
    # the log rebuilds the duel without a seed, through JSON
    stored = [event_from_dict(e.to_dict()) for e in log]
    assert stored == log
    assert replay(stored, _start()) == state
    assert DuelState.from_dict(state.to_dict()) == state  # the snapshot too


def test_a_change_leaves_a_new_receipt_until_both_are_in() -> None:
    state, log = _start(), []
    state = _run(state, Submit("a", (Attack("left"),), SALT_A, by=ALICE), [5, 3], log)
    first = state.sealed("a")
    state = _run(state, Submit("a", (Attack("top"),), SALT_A, by=ALICE), [5, 3], log)
    second = state.sealed("a")
    assert first is not None and second is not None
    assert first.receipt != second.receipt and len(state.pending) == 1
    state = _run(state, Submit("b", (Dodge("left"),), SALT_B, by=BOB), [4], log)
    with pytest.raises(DuelError, match="both_in"):
        decide(state, Submit("a", (Block("left"),), SALT_A, by=ALICE), ScriptedRng([5]))


def test_only_the_owner_submits_and_only_the_gm_publishes_once() -> None:
    state, log = _start(), []
    with pytest.raises(DuelError, match="not_your_fighter"):
        decide(state, Submit("a", (), SALT_A, by=BOB), ScriptedRng([]))
    with pytest.raises(DuelError, match="missing_submission"):
        decide(state, Publish(1), ScriptedRng([]))
    state = _run(state, Submit("a", (Attack("left"),), SALT_A, by=ALICE), [5, 3], log)
    # the GM does not seal a player's fighter (issue 26: «a player's fighter is sealed only
    # by its player»): Борис's Такеда is Борис's
    with pytest.raises(DuelError, match="not_your_fighter"):
        decide(state, Submit("b", (Dodge("left"),), SALT_B), ScriptedRng([4]))
    state = _run(state, Submit("b", (Dodge("left"),), SALT_B, by=BOB), [4], log)
    with pytest.raises(DuelError, match="gm_only"):
        decide(state, Publish(1, by=ALICE), ScriptedRng([]))
    published = _run(state, Publish(1), [], log)
    assert published.turn == 2 and published.pending == ()
    with pytest.raises(DuelError, match="stale_proposal"):
        decide(published, Publish(1), ScriptedRng([]))


def test_the_gm_changes_a_roll_and_a_value_with_reasons() -> None:
    state, log = _start(), []
    state = _run(state, Submit("a", (Attack("left"),), SALT_A, by=ALICE), [5, 3], log)
    state = _run(state, Submit("b", (Dodge("right"),), SALT_B, by=BOB), [4], log)
    auto = propose(state)  # 4+2 = 6 to the right against 5+2 = 7 from the left: dodged
    assert [s.code for s in auto.steps if s.code in ("hit", "dodged")] == ["dodged"]
    edited = set_value(auto, "b", "sp", 7, "благословение")
    edited = set_roll(state, edited, "b", 0, 1, "кубик упал со стола")  # now a critical failure
    assert [s.code for s in edited.steps if s.code in ("hit", "dodged")] == ["hit"]
    assert edited.after_of("b").sp == 7  # kept through the new resolution
    assert edited.after_of("b").hp == TAKEDA.stats.hp - (3 + 4)
    assert [a.params["reason"] for a in edited.adjustments] == [
        "благословение",
        "кубик упал со стола",
    ]
    assert edited.submissions == auto.submissions  # the sealed ones, as sent
    after = _run(state, Publish(1, edited), [], log)
    (published,) = after.history
    assert published.proposal == edited
    assert all(
        verify(r.receipt, s.committed(), r.salt)
        for s, r in zip(published.proposal.submissions, published.reveals, strict=True)
    )
    # a proposal whose submissions are not the sealed ones is refused
    forged = replace(edited, submissions=(edited.submissions[1], edited.submissions[0]))
    with pytest.raises(DuelError, match="stale_proposal"):
        decide(state, Publish(1, forged), ScriptedRng([]))
    with pytest.raises(DuelError, match="bad_adjustment"):
        set_value(auto, "b", "name", 1, "")


def test_the_gm_switches_readings_between_turns() -> None:
    state, log = _start(), []
    state = _run(state, Configure(replace(state.options, dodge_tie="attack")), [], log)
    assert state.options.dodge_tie == "attack"
    with pytest.raises(DuelError, match="gm_only"):
        decide(state, Configure(state.options, by=ALICE), ScriptedRng([]))
    state = _run(state, Submit("a", (Attack("left"),), SALT_A, by=ALICE), [5, 3], log)
    with pytest.raises(DuelError, match="options_between_turns"):
        decide(state, Configure(state.options), ScriptedRng([]))
    assert replay([event_from_dict(e.to_dict()) for e in log], _start()) == state


def test_the_gms_changes_are_events_kept_until_the_turn_is_published() -> None:
    state, log = _start(), []
    a, fa, b, fb = TURNS[0]
    state = _run(state, Submit("a", tuple(a), SALT_A, by=ALICE), fa, log)
    with pytest.raises(DuelError) as refused:  # one submission: nothing to change yet
        decide(state, Publish(1), ScriptedRng([]))
    assert refused.value.code == "missing_submission"
    state = _run(state, Submit("b", tuple(b), SALT_B, by=BOB), fb, log)
    auto = propose(state)
    with pytest.raises(DuelError) as refused:
        decide(state, Adjust(1, "a", "hp", 1, "x", by=ALICE), ScriptedRng([]))
    assert refused.value.code == "gm_only"
    state = _run(state, Adjust(1, "a", "roll", 10, "the die fell off the table"), [], log)
    state = _run(state, Adjust(1, "b", "hp", 3, "a scratch only"), [], log)
    draft = propose(state)
    assert [n.code for n in draft.adjustments] == ["adjusted_roll", "adjusted_value"]
    assert draft.after_of("b").hp == 3 != auto.after_of("b").hp
    assert draft.submissions == auto.submissions  # the sealed dice stay as they were sent
    state = _run(state, Publish(1), [], log)
    assert state.adjustments == () and state.fighter("b").hp == 3
    assert state.history[-1].proposal.adjustments == draft.adjustments
    # the post tells each change with its reason
    assert "the HP — 3 (was" not in export_text(state)
    assert "The GM: Такеда, HP — 3" in export_text(state) and "a scratch only" in export_text(state)
    assert replay([event_from_dict(e.to_dict()) for e in log], _start()) == state


def test_a_changed_submission_is_revealed_with_the_turn() -> None:
    state, log = _start(), []
    state = _run(state, Submit("a", (Attack("left"),), SALT_A, by=ALICE), [5, 3], log)
    first = state.sealed("a")
    state = _run(state, Submit("a", (Attack("top"),), "c3" * 16, by=ALICE), [6, 4], log)
    state = _run(state, Submit("b", (Block("top"),), SALT_B, by=BOB), [4], log)
    state = _run(state, Publish(1), [], log)
    (replaced,) = state.history[-1].replaced
    assert first is not None and replaced == first
    assert verify(replaced.receipt, replaced.submission.committed(), replaced.salt)
    assert state.replaced == ()
