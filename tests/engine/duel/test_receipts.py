"""A receipt check people can read, the comment to the GM kept private (issue 26 item 3):
«Если нужно добавить какое то пояснение, пишем в поле "Комментарий мастеру"» — the comment
is the GM's, so the receipt commits to the submission without it and nothing the topic or
the opponent gets carries it; a turn changed before the reveal is marked in the post."""

from __future__ import annotations

import json

from engine.dice.rng import ScriptedRng
from engine.duel.actions import Attack, Block, Dodge
from engine.duel.commands import Publish, Submit
from engine.duel.decide import decide, evolve
from engine.duel.describe import published_post
from engine.duel.export import export_text
from engine.duel.observe import observe
from engine.duel.state import DuelState, new_duel
from engine.observe import GM, PLAYER, SPECTATOR
from engine.receipt import make_receipt, receipt_payload, verify

from .six_turns import BJORN, TAKEDA
from .test_observe import Viewer

ALICE, BOB = 101, 202
COMMENT = "Бьорн ревёт и рубит слева, щит держит справа"


def _run(state: DuelState, command: object, faces: list[int]) -> DuelState:
    for e in decide(state, command, ScriptedRng(faces)):  # type: ignore[arg-type]
        state = evolve(state, e)
    return state


def _published() -> DuelState:
    state = new_duel(BJORN, TAKEDA, owners=(ALICE, BOB))
    first = Submit("a", (Attack("left"), Block("right")), "a1" * 16, COMMENT, by=ALICE)
    state = _run(state, first, [7, 3, 4])
    # Аня changes her turn before Борис's is in (the same dice: one roll per turn)
    changed = Submit("a", (Attack("top"), Block("left")), "a2" * 16, COMMENT, by=ALICE)
    state = _run(state, changed, [])
    state = _run(state, Submit("b", (Dodge("left"),), "b1" * 16, by=BOB), [5])
    return _run(state, Publish(1), [])


def test_the_receipt_commits_to_the_turn_without_the_comment() -> None:
    state = _published()
    (turn,) = state.history
    sub, reveal = turn.proposal.submissions[0], turn.reveals[0]
    assert sub.comment == COMMENT  # kept for the GM's review
    assert verify(reveal.receipt, sub.committed(), reveal.salt)
    assert COMMENT not in receipt_payload(sub.committed(), reveal.salt)
    assert reveal.receipt != make_receipt(sub.to_dict(), reveal.salt)


def test_nothing_the_topic_or_the_opponent_gets_carries_the_comment() -> None:
    state = _published()
    for viewer in (Viewer(BOB, PLAYER), Viewer(999, SPECTATOR), Viewer(ALICE, PLAYER)):
        assert COMMENT not in json.dumps(observe(state, viewer), ensure_ascii=False)
    assert COMMENT in json.dumps(observe(state, Viewer(1, GM)), ensure_ascii=False)
    assert COMMENT not in export_text(state)
    assert COMMENT not in json.dumps([d.to_dict() for d in published_post(state.history[0])])


def test_a_changed_turn_is_marked_and_every_receipt_checks_out() -> None:
    (turn,) = _published().history
    post = published_post(turn)
    codes = [d.code for d in post]
    assert codes[1] == "duel.turn_changed" and post[1].params == {"fighter": "a", "count": 1}
    receipts = [d for d in post if d.code.startswith("duel.receipt")]
    assert [d.code for d in receipts] == ["duel.receipt", "duel.receipt", "duel.receipt_replaced"]
    text = export_text(_published())
    assert "changed the turn before the reveal (1 time)" in text
