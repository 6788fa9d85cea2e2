"""The adjusted die everywhere (issue 26 item 4): after the GM changes a d10, the post, the
export and the review (its lines and its buttons) show the new face and its effect; the
sealed face is in one place, the adjustment's line («на d10 выпало 10 (было 7): …»)."""

from __future__ import annotations

from engine.dice.rng import ScriptedRng
from engine.duel.actions import Attack, Block
from engine.duel.commands import Adjust, Publish, Submit
from engine.duel.decide import decide, evolve
from engine.duel.describe import published_post
from engine.duel.export import export_text
from engine.duel.state import DuelState, new_duel
from engine.texts import translate

from .six_turns import BJORN, TAKEDA

ALICE, BOB = 101, 202


def _run(state: DuelState, command: object, faces: list[int]) -> DuelState:
    for e in decide(state, command, ScriptedRng(faces)):  # type: ignore[arg-type]
        state = evolve(state, e)
    return state


def _adjusted() -> DuelState:
    state = new_duel(BJORN, TAKEDA, owners=(ALICE, BOB))
    state = _run(state, Submit("a", (Block("left"),), "a1" * 16, by=ALICE), [9])
    state = _run(state, Submit("b", (Attack("left"),), "b1" * 16, by=BOB), [7, 3])
    # Такеда's attack d10 7 (+1 = 8) is parried by 9+1; the GM makes it a 10
    return _run(state, Adjust(1, "b", "roll", 10, "ошибка в броске"), [])


def test_the_post_and_the_export_show_the_adjusted_die() -> None:
    state = _run(_adjusted(), Publish(1), [])
    post = published_post(state.history[0])
    (attack,) = [d for d in post if d.code == "duel.action_attack"]
    assert (attack.params["face"], attack.params["total"]) == (10, 11)
    (note,) = [d for d in post if d.code == "duel.adjusted_roll"]
    assert (note.params["face"], note.params["was"]) == (10, 7)
    text = export_text(state, lambda t, n: translate("ru", t, n))
    assert "d10 10 → 11" in text and "d10 7 → 8" not in text
    assert "на d10 выпало 10 (было 7)" in text
