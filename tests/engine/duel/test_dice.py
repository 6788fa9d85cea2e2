"""One roll per turn, provably (issue 26 item 1; seed 003 «Броски делаем скрытно»): a seal
commits to the choices only; the dice of a turn are drawn once both turns are sealed, from a
seed whose hash the topic got when the turn opened mixed with both sealed receipts, so
neither the host (the seed was fixed before the receipts existed) nor a player (the receipts
were sealed before the dice) picked them, and no edit can change a die: before both are in
there is none, after it no edit is taken. After the reveal anyone checks the seed against the
hash and each die against the seed and both receipts (engine/duel/dice.py, docs/rules/duel.md
«One roll per turn»)."""

from __future__ import annotations

import random

import pytest

from engine.dice.rng import ScriptedRng
from engine.duel.actions import Attack, Block, Dodge, FullDefense
from engine.duel.check import submit
from engine.duel.commands import Configure, PassDeadline, Publish, SetDeadline, Submit
from engine.duel.decide import decide, evolve, replay
from engine.duel.describe import published_post
from engine.duel.dice import TurnDice, dice_hash, faces_of, mixed_receipts, seeded_face, verify_dice
from engine.duel.errors import DuelError
from engine.duel.events import DiceDrawn, Event, Submitted
from engine.duel.observe import observe
from engine.duel.options import DEFAULT_OPTIONS, Deadline
from engine.duel.proposal import Sealed
from engine.duel.state import DuelState, new_duel
from engine.observe import GM, PLAYER
from engine.receipt import make_receipt

from .six_turns import BJORN, TAKEDA
from .test_observe import Viewer

SALT_A, SALT_B = "a1" * 16, "b2" * 16
ALICE, BOB = 101, 202
SEED, NEXT_SEED = "5eed" * 8, "9e47" * 8


def _run(
    state: DuelState, command: object, rng: object, log: list[Event] | None = None
) -> DuelState:
    for e in decide(state, command, rng):  # type: ignore[arg-type]
        state = evolve(state, e)
        if log is not None:
            log.append(e)
    return state


def _started(seed: str = SEED) -> DuelState:
    state = new_duel(BJORN, TAKEDA, owners=(ALICE, BOB))
    return _run(state, Configure(DEFAULT_OPTIONS, seed=seed), ScriptedRng([]))


def _dice(state: DuelState, fighter: str) -> dict[str, int]:
    sealed = state.sealed(fighter)
    assert sealed is not None
    return {slot: face for slot, _, face in faces_of(sealed.submission)}


A_TURN = (Attack("left"), Block("left"))
B_TURN = (Attack("right"), Dodge("left"))


def _both_sealed(salt_a: str = SALT_A, salt_b: str = SALT_B) -> DuelState:
    state = _started()
    state = _run(state, Submit("a", A_TURN, salt_a, by=ALICE), None)
    return _run(state, Submit("b", B_TURN, salt_b, by=BOB), None)


def _turn_dice(state: DuelState) -> dict[tuple[str, str], int]:
    return {(f, slot): face for f in ("a", "b") for slot, face in _dice(state, f).items()}


def test_a_seal_commits_to_the_choices_and_holds_no_die_until_both_are_in() -> None:
    state = _started()
    state = _run(state, Submit("a", A_TURN, SALT_A, by=ALICE), None)
    sealed = state.sealed("a")
    assert sealed is not None and sealed.submission.rolls == ()
    # the receipt is of the choices (fighter, turn, actions): no die is in it
    assert sealed.receipt == make_receipt(sealed.submission.choices(), SALT_A)
    assert "rolls" not in sealed.submission.choices()
    # a change before both are in is a new receipt of new choices, still without dice
    state = _run(state, Submit("a", (FullDefense("top"),), SALT_B, by=ALICE), None)
    changed = state.sealed("a")
    assert changed is not None and changed.submission.rolls == ()
    assert changed.receipt != sealed.receipt and state.replaced[0].receipt == sealed.receipt
    assert observe(state, Viewer(1, GM))["submissions"]["a"]["rolls"] == []


def test_the_dice_are_drawn_once_both_are_sealed_from_the_seed_and_both_receipts() -> None:
    log: list[Event] = []
    start = _started()
    state = _run(start, Submit("a", A_TURN, SALT_A, by=ALICE), None, log)
    state = _run(state, Submit("b", B_TURN, SALT_B, by=BOB), None, log)
    drawn = log[-1]
    assert isinstance(drawn, DiceDrawn) and drawn.turn == 1
    receipts = (state.sealed("a").receipt, state.sealed("b").receipt)  # type: ignore[union-attr]
    for fighter in ("a", "b"):
        faces = _dice(state, fighter)
        assert faces  # every slot of the turn has its die now
        sealed = state.sealed(fighter)
        assert sealed is not None
        for slot, sides, face in faces_of(sealed.submission):
            assert face == seeded_face(SEED, 1, fighter, slot, sides, receipts)
    # the events hold the dice: a replay needs no seed and no rng
    again = replay(log, start)
    assert _turn_dice(again) == _turn_dice(state)


def test_changing_either_receipt_changes_the_dice() -> None:
    dice = _turn_dice(_both_sealed())
    # the same choices sealed with another salt: another receipt, other dice (today's draw
    # at each seal from the seed alone gives the same dice whatever the receipts)
    assert _turn_dice(_both_sealed(salt_a="c3" * 16)) != dice
    assert _turn_dice(_both_sealed(salt_b="d4" * 16)) != dice


def test_no_edit_changes_a_die_once_they_are_drawn() -> None:
    state = _both_sealed()
    drawn = _turn_dice(state)
    # the dice exist only once both are in, and then neither fighter may change the turn
    for fighter, owner in (("a", ALICE), ("b", BOB)):
        with pytest.raises(DuelError) as refused:
            _run(state, Submit(fighter, (FullDefense("top"),), "e5" * 16, by=owner), None)
        assert refused.value.code == "both_in"
    assert _turn_dice(state) == drawn
    # a player sees no die of the own turn before the reveal
    alice = observe(state, Viewer(ALICE, PLAYER))
    assert "rolls" not in alice["submissions"]["a"] and SEED not in str(alice)


def test_the_dice_verify_against_the_posted_hash_and_both_receipts() -> None:
    state = _started()
    public = observe(state, Viewer(999, PLAYER))
    posted = public["dice_hash"]
    assert posted == dice_hash(SEED) and SEED not in str(public)  # the seed stays secret
    state = _run(state, Submit("a", A_TURN, SALT_A, by=ALICE), None)
    state = _run(state, Submit("b", B_TURN, SALT_B, by=BOB), None)
    state = _run(state, Publish(state.turn, seed=NEXT_SEED), None)
    [published] = state.history
    assert published.seed == SEED
    receipts = mixed_receipts(published)
    assert receipts == (published.reveals[0].receipt, published.reveals[1].receipt)
    a, b = receipts
    for sub in published.proposal.submissions:
        assert verify_dice(published.seed, posted, sub, receipts)
        # another seed, the receipts swapped or left out: the dice do not check out
        assert not verify_dice(NEXT_SEED, posted, sub, receipts)
        assert not verify_dice(published.seed, posted, sub, (b, a))
        assert not verify_dice(published.seed, posted, sub)
    board = observe(state, Viewer(999, PLAYER))
    assert board["history"][0]["seed"] == SEED and board["dice_hash"] == dice_hash(NEXT_SEED)


def test_without_a_seed_the_dice_drawn_at_the_seal_are_kept_through_a_change() -> None:
    state = new_duel(BJORN, TAKEDA, owners=(ALICE, BOB))
    rng = ScriptedRng([7, 3, 4])  # the attack's d10 and damage, the block's d10
    state = _run(state, Submit("a", (Attack("left"), Block("left")), SALT_A, by=ALICE), rng)
    # a change needs no new die: none is left to draw, and none is drawn
    state = _run(state, Submit("a", (Attack("top"), Block("right")), SALT_A, by=ALICE), rng)
    assert _dice(state, "a") == {"attack1": 7, "attack1.blow1": 3, "defense1.0": 4}
    assert rng.remaining == 0


def test_each_turn_and_fighter_has_its_own_dice() -> None:
    rng = random.Random(1)
    faces = set()
    for seed in ("a" * 32, "b" * 32, "c" * 32):
        state = _started(seed)
        state = _run(state, Submit("a", (Attack("left"),), SALT_A, by=ALICE), rng)
        state = _run(state, Submit("b", (Attack("left"),), SALT_B, by=BOB), rng)
        faces.add((_dice(state, "a")["attack1"], _dice(state, "b")["attack1"]))
    assert len(faces) > 1  # not one fixed pair whatever the seed


def test_a_default_defense_at_the_deadline_completes_the_turn_and_draws_its_dice() -> None:
    state = _started()
    state = _run(state, SetDeadline(Deadline(1, "defend"), now=0.0), None)
    state = _run(state, Submit("a", A_TURN, SALT_A, by=ALICE), None)
    log: list[Event] = []
    # Бьорн's default defense is sealed at the deadline: both are in, the dice are drawn
    state = _run(state, PassDeadline(1, 3601.0, "f6" * 16), random.Random(3), log)
    assert isinstance(log[-1], DiceDrawn)
    receipts = (state.sealed("a").receipt, state.sealed("b").receipt)  # type: ignore[union-attr]
    b = state.sealed("b")
    assert b is not None and b.default and _dice(state, "b")
    assert all(
        face == seeded_face(SEED, 1, "b", slot, sides, receipts)
        for slot, sides, face in faces_of(b.submission)
    )


def test_a_turn_sealed_before_the_receipts_were_mixed_in_ends_and_verifies_as_it_began() -> None:
    # a seal stored by the earlier scheme: dice drawn at the seal from the seed alone, the
    # receipt committed to them
    state = _started()
    old = submit(state, "a", A_TURN, None, dice=TurnDice(1, "a", None, SEED))  # type: ignore[arg-type]
    state = evolve(state, Submitted(1, Sealed(old, SALT_A, old.receipt(SALT_A))))
    log: list[Event] = []
    state = _run(state, Submit("b", B_TURN, SALT_B, by=BOB), None, log)
    assert not any(isinstance(e, DiceDrawn) for e in log)  # b is drawn at its seal, as a was
    state = _run(state, Publish(1, seed=NEXT_SEED), None)
    [published] = state.history
    assert mixed_receipts(published) is None
    assert all(verify_dice(SEED, dice_hash(SEED), s) for s in published.proposal.submissions)
    keys = [d.code for d in published_post(published)]
    assert "duel.dice_revealed" in keys and "duel.dice_revealed_mixed" not in keys
