"""The forum post of a resolved turn as descriptions (engine/duel/describe.py)."""

from __future__ import annotations

from engine import describe, texts
from engine.describe import LABEL
from engine.duel import RULES, post
from engine.duel.describe import WHY, sealed_notice

from .six_turns import play


def test_every_rule_has_its_label() -> None:
    assert set(WHY) == {*RULES, "other"}


def test_every_description_of_the_six_turns_has_its_template_filled() -> None:
    seen = set()
    for _, proposal in play():
        receipts = {s.fighter: ("ab" * 32, "cd" * 16) for s in proposal.submissions}
        for d in post(proposal, receipts):
            assert describe.known(d.code), d.code
            assert describe.placeholders(d.template) <= set(d.params), d
            for key, value in d.params.items():
                kind = describe.kind_of(d.code, key)
                if kind and kind.startswith(LABEL):
                    assert describe.known(f"{kind[len(LABEL) :]}.{value}"), (d.code, key, value)
            seen.add(d.code)
    # the duel shows most of what a turn can say
    assert {"duel.hit_blows", "duel.pierced", "duel.parried", "duel.trick_cancelled"} <= seen
    assert {"duel.effect_attack_bonus", "duel.overspent", "duel.state_bleeding"} <= seen


def test_the_post_of_a_turn_in_order() -> None:
    _, second = play()[1]
    receipts = {"a": ("r" * 64, "s" * 32), "b": ("q" * 64, "t" * 32)}
    out = post(second, receipts)
    assert out[0].code == "duel.turn" and out[0].params == {"turn": 2}
    # both fighters' actions with their directions and rolls
    assert [(d.code, d.params.get("side")) for d in out[1:5]] == [
        ("duel.action_attack", "top"),
        ("duel.action_attack", "left"),
        ("duel.action_trick", None),
        ("duel.action_block", "top"),
    ]
    assert out[1].params == {"fighter": "a", "face": 5, "total": 7, "move": "Атака", "side": "top"}
    # what happened and why
    parried = next(d for d in out if d.code == "duel.parried")
    assert parried.params["why"] == "parry" and parried.params["target"] == "b"
    # the fighters after, and the receipts last
    status = [d.params for d in out if d.code == "duel.status"]
    assert status == [
        {"fighter": "a", "hp": 24, "sp": 1, "ap": 3},
        {"fighter": "b", "hp": 14, "sp": 4, "ap": 3},
    ]
    assert "duel.state_lost_action" in [d.code for d in out]
    assert [d.params["fighter"] for d in out[-2:]] == ["a", "b"]
    # one short line per receipt, its code and whether it checks out (these made-up ones do
    # not); no salt, no hashed text: those are on the verification page (issue 26 item 3)
    assert out[-1].code == "duel.receipt_bad"
    assert out[-1].params == {"fighter": "b", "code": "qqqq-qqqq-qqqq"}


def test_an_exhausted_fighter_has_no_ap_and_the_sentences_are_russian() -> None:
    _, fourth = play()[3]
    status = next(d for d in post(fourth) if d.code == "duel.status")
    assert status.params == {"fighter": "a", "hp": 24, "sp": -3, "ap": 0}
    text = texts.translate("ru", describe.template("duel.status"))
    assert describe.fill(text, status.params) == "a: ХП 24, СП -3, АП 0"
    side = texts.translate("ru", describe.template("duel_side.left"))
    assert side == "слева"


def test_the_sealed_notice_says_who_and_the_receipt_only() -> None:
    receipt = "3f2a9c1b77d0" + "e" * 52
    d = sealed_notice("a", 3, receipt)
    # the short code, as a hidden roll's notice shows it; the full hash starts with it
    assert d.params == {"fighter": "a", "turn": 3, "receipt": "3f2a-9c1b-77d0"}
    assert receipt.startswith(d.params["receipt"].replace("-", ""))
    assert describe.placeholders(d.template) == set(d.params)
