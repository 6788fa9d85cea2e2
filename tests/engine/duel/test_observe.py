"""What each viewer sees of a duel: a fighter never receives the opponent's unpublished
submission (DESIGN decision 3)."""

from __future__ import annotations

import json
from dataclasses import dataclass

from engine.dice.rng import ScriptedRng
from engine.duel.actions import Attack, Dodge
from engine.duel.commands import Publish, Submit
from engine.duel.decide import decide, evolve
from engine.duel.observe import audience, observe
from engine.duel.state import DuelState, new_duel
from engine.observe import GM, PLAYER, PUBLIC, SPECTATOR

from .six_turns import BJORN, TAKEDA

ALICE, BOB, CAROL, GM_ID = 101, 202, 303, 1


@dataclass(frozen=True)
class Viewer:
    user_id: int
    role: str


def _do(state: DuelState, command: object, faces: list[int]) -> DuelState:
    for e in decide(state, command, ScriptedRng(faces)):  # type: ignore[arg-type]
        state = evolve(state, e)
    return state


def _both_in() -> DuelState:
    state = new_duel(BJORN, TAKEDA, owners=(ALICE, BOB))
    state = _do(state, Submit("a", (Attack("left"),), "a1" * 16, "обход слева", by=ALICE), [5, 3])
    return _do(state, Submit("b", (Dodge("right"),), "b2" * 16, by=BOB), [4])


def test_each_fighter_sees_only_their_own_submission_the_gm_both() -> None:
    state = _both_in()
    alice = observe(state, Viewer(ALICE, PLAYER))
    bob = observe(state, Viewer(BOB, PLAYER))
    carol = observe(state, Viewer(CAROL, SPECTATOR))
    gm = observe(state, Viewer(GM_ID, GM))
    assert list(alice["submissions"]) == ["a"] and list(bob["submissions"]) == ["b"]
    assert carol["submissions"] == {} and sorted(gm["submissions"]) == ["a", "b"]
    # nothing of the other's submission anywhere in the JSON: not the comment, not the salt
    text = json.dumps(bob, ensure_ascii=False)
    assert "обход слева" not in text and "a1" * 16 not in text
    assert "обход слева" in json.dumps(alice, ensure_ascii=False)
    # the proposal (it holds both) goes to the GM alone
    assert "proposal" in gm and "proposal" not in alice and "proposal" not in carol
    # everyone sees who has submitted, with the sealed receipt only
    receipts = [f["receipt"] for f in carol["fighters"]]
    assert receipts == [state.sealed("a").receipt, state.sealed("b").receipt]  # type: ignore[union-attr]


def test_after_publication_the_turn_and_its_reveals_are_public() -> None:
    state = _do(_both_in(), Publish(1), [])
    carol = observe(state, Viewer(CAROL, SPECTATOR))
    (turn,) = carol["history"]
    assert [s["fighter"] for s in turn["submissions"]] == ["a", "b"]
    assert [r["salt"] for r in turn["reveals"]] == ["a1" * 16, "b2" * 16]
    assert all(f["receipt"] is None for f in carol["fighters"])  # the new turn: none yet
    a = carol["fighters"][0]
    assert (a["hp"], a["sp"], a["ap"], a["actions"]) == (24, 3, 3, 2)
    assert a["allowed"]["attack"] and not a["allowed"]["full_dodge"]


def test_audiences_group_equal_views() -> None:
    state = _both_in()
    assert audience(state, Viewer(CAROL, SPECTATOR)) == PUBLIC
    assert audience(state, Viewer(ALICE, PLAYER)) != audience(state, Viewer(BOB, PLAYER))
    assert audience(state, Viewer(GM_ID, GM)) not in (
        PUBLIC,
        audience(state, Viewer(ALICE, PLAYER)),
    )
