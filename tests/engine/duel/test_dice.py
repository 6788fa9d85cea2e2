"""One roll per turn, provably (issue 26 item 1; seed 003 «Броски делаем скрытно»): the dice
of a turn come from a seed whose hash the topic gets when the turn opens, slot by slot, so a
change of a sealed turn keeps every die; after the reveal anyone checks the seed against the
hash and each die against the seed (engine/duel/dice.py, docs/rules/duel.md «One roll per
turn»)."""

from __future__ import annotations

import random

from engine.dice.rng import ScriptedRng
from engine.duel.actions import Attack, Block, Dodge, FullDefense
from engine.duel.commands import Configure, Publish, Submit
from engine.duel.decide import decide, evolve
from engine.duel.dice import dice_hash, faces_of, verify_dice
from engine.duel.observe import observe
from engine.duel.options import DEFAULT_OPTIONS
from engine.duel.state import DuelState, new_duel
from engine.observe import GM, PLAYER

from .six_turns import BJORN, TAKEDA
from .test_observe import Viewer

SALT_A, SALT_B = "a1" * 16, "b2" * 16
ALICE, BOB = 101, 202
SEED, NEXT_SEED = "5eed" * 8, "9e47" * 8


def _run(state: DuelState, command: object, rng: object) -> DuelState:
    for e in decide(state, command, rng):  # type: ignore[arg-type]
        state = evolve(state, e)
    return state


def _started(seed: str = SEED) -> DuelState:
    state = new_duel(BJORN, TAKEDA, owners=(ALICE, BOB))
    return _run(state, Configure(DEFAULT_OPTIONS, seed=seed), ScriptedRng([]))


def _dice(state: DuelState, fighter: str) -> dict[str, int]:
    sealed = state.sealed(fighter)
    assert sealed is not None
    return {slot: face for slot, _, face in faces_of(sealed.submission)}


def test_a_change_after_seeing_the_dice_keeps_every_die() -> None:
    state = _started()
    state = _run(state, Submit("a", (Attack("left"), Block("left")), SALT_A, by=ALICE), None)
    seen = _dice(state, "a")
    assert set(seen) == {"attack1", "attack1.blow1", "defense1.0"}
    # the player changes sides, AP, the defense to a dodge, then to full defense: the d10 of
    # the attack, its damage die and the defense's d10 stay; only new slots get a die
    edits = [
        (Attack("right", ap=2), Block("top", ap=1)),
        (Attack("top"), Dodge("right")),
        (FullDefense("left"),),
    ]
    for actions in edits:
        state = _run(state, Submit("a", actions, SALT_A, by=ALICE), None)
        now = _dice(state, "a")
        assert {k: v for k, v in now.items() if k in seen} == {k: seen[k] for k in now if k in seen}
    assert _dice(state, "a")["defense1.0"] == seen["defense1.0"]
    assert len(state.replaced) == 3  # every change leaves its receipt (revealed with the turn)


def test_without_a_seed_the_dice_drawn_at_the_seal_are_kept_through_a_change() -> None:
    state = new_duel(BJORN, TAKEDA, owners=(ALICE, BOB))
    rng = ScriptedRng([7, 3, 4])  # the attack's d10 and damage, the block's d10
    state = _run(state, Submit("a", (Attack("left"), Block("left")), SALT_A, by=ALICE), rng)
    # a change needs no new die: none is left to draw, and none is drawn
    state = _run(state, Submit("a", (Attack("top"), Block("right")), SALT_A, by=ALICE), rng)
    assert _dice(state, "a") == {"attack1": 7, "attack1.blow1": 3, "defense1.0": 4}
    assert rng.remaining == 0


def test_the_hash_posted_at_the_turns_start_verifies_the_revealed_dice() -> None:
    state = _started()
    public = observe(state, Viewer(999, PLAYER))
    posted = public["dice_hash"]
    assert posted == dice_hash(SEED) and SEED not in str(public)  # the seed stays secret
    state = _run(state, Submit("a", (Attack("left"), Block("left")), SALT_A, by=ALICE), None)
    state = _run(state, Submit("b", (Attack("right"), Dodge("left")), SALT_B, by=BOB), None)
    # the player sees the own turn's choices, not its dice, before the reveal; the GM all
    alice = observe(state, Viewer(ALICE, PLAYER))
    assert "rolls" not in alice["submissions"]["a"] and SEED not in str(alice)
    assert "rolls" in observe(state, Viewer(1, GM))["submissions"]["b"]
    state = _run(state, Publish(state.turn, seed=NEXT_SEED), None)
    [published] = state.history
    assert published.seed == SEED
    for sub in published.proposal.submissions:
        assert verify_dice(published.seed, posted, sub)
        # a die the host had picked after the choices, or another seed, does not check out
        assert not verify_dice(NEXT_SEED, posted, sub)
    board = observe(state, Viewer(999, PLAYER))
    assert board["history"][0]["seed"] == SEED and board["dice_hash"] == dice_hash(NEXT_SEED)


def test_each_turn_and_fighter_has_its_own_dice() -> None:
    rng = random.Random(1)
    faces = set()
    for seed in ("a" * 32, "b" * 32, "c" * 32):
        state = _started(seed)
        state = _run(state, Submit("a", (Attack("left"),), SALT_A, by=ALICE), rng)
        state = _run(state, Submit("b", (Attack("left"),), SALT_B, by=BOB), rng)
        faces.add((_dice(state, "a")["attack1"], _dice(state, "b")["attack1"]))
    assert len(faces) > 1  # not one fixed pair whatever the seed
