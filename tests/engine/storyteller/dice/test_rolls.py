"""Storyteller pools. Rules: seed 002_99de998f6ccf4084.txt and DESIGN.md."""

from __future__ import annotations

import pytest

from engine.dice import ScriptedRng
from engine.storyteller.dice import pool


def p(text: str, faces: list[int]):
    rng = ScriptedRng(faces)
    result = pool(text, rng)
    assert rng.remaining == 0
    return result


@pytest.mark.parametrize("text", ["7 6", "7 сл 6", "7", "7d10 6", "7к10 сл 6", "7 diff 6"])
def test_syntax_variants(text):
    r = p(text, [1, 2, 3, 6, 7, 10, 5])
    assert (r.dice_count, r.difficulty, r.mode) == (7, 6, "action")
    assert r.expression == "7 diff 6"


def test_successes_and_ones_cancel():
    # DESIGN: each die >= difficulty is a success; each 1 cancels a success.
    r = p("7 6", [1, 2, 3, 6, 7, 10, 5])
    assert [d.success for d in r.dice] == [False, False, False, True, True, True, False]
    assert [d.cancels for d in r.dice] == [True, False, False, False, False, False, False]
    assert (r.successes, r.ones, r.net, r.outcome) == (3, 1, 2, "success")


def test_botch_is_no_successes_and_a_one():
    # DESIGN: "no successes and at least one 1 is a botch"; seed 002 line 129 separates
    # «Неудача не меняет ничего» from «провал».
    r = p("3 6", [1, 2, 5])
    assert r.botch and r.outcome == "botch" and r.net == 0
    r = p("3 6", [1, 6, 5])  # a success cancelled: a failure, not a botch
    assert not r.botch and r.outcome == "failure"
    r = p("3 6", [2, 3, 5])
    assert r.outcome == "failure"


def test_difficulty_changes_successes():
    r = p("4 сл 9", [8, 9, 10, 2])
    assert r.successes == 2


def test_specialty_tens_roll_again_and_chain():
    # Seed 002 line 43: a specialised character who rolls a 10 makes an extra roll
    # («дополнительный бросок»). Our reading: each 10 (also on a bonus die) gives one die.
    r = p("3 6 спец", [10, 10, 1, 10, 3, 10, 2])
    assert [d.value for d in r.dice] == [10, 10, 1]
    assert [d.exploded for d in r.dice] == [True, True, False]
    assert [d.value for d in r.bonus_dice] == [10, 3, 10, 2]
    assert [d.exploded for d in r.bonus_dice] == [True, False, True, False]
    assert (r.successes, r.ones, r.net) == (4, 1, 3)


def test_specialty_bonus_ones_do_not_cancel():
    r = p("2 6 спец", [10, 4, 1])
    assert r.bonus_dice[0].value == 1 and not r.bonus_dice[0].cancels
    assert (r.successes, r.ones, r.net) == (1, 0, 1)


def test_willpower_is_one_automatic_success_that_ones_cannot_cancel():
    # DESIGN: "Willpower point: one automatic success"; seed 002 line 203 spends a point to
    # act «автоматически». Not a die, so 1s do not cancel it and there is no botch.
    r = p("3 6 вс", [1, 1, 2])
    assert (r.successes, r.ones, r.auto_successes, r.net) == (0, 2, 1, 1)
    assert not r.botch and r.outcome == "success"
    assert p("3 6 сила воли", [7, 1, 2]).net == 1  # 1 - 1 + 1
    assert p("3 6 wp", [7, 8, 2]).net == 3


@pytest.mark.parametrize("word", ["урон", "damage", "поглощение", "soak"])
def test_damage_and_soak_cannot_botch(word):
    # Seed 002 line 171 (damage difficulty 6), 179 (a weak hit has no further negative
    # consequences), 185 (soak difficulty 6, «не может провалиться»).
    r = p(f"3 {word}", [1, 2, 3])
    assert r.difficulty == 6 and not r.botch and r.outcome == "failure"
    assert r.mode in ("damage", "soak")


def test_damage_pool_is_never_below_one_die():
    # Seed 002 line 179: «необходимо бросить по крайней мере один кубик».
    r = p("0 урон", [7])
    assert (r.requested_dice, r.dice_count, r.net) == (0, 1, 1)


def test_comment_and_all_options():
    r = p("7 6 спец вс проверка Силы", [6, 6, 6, 6, 6, 6, 6])
    assert r.comment == "проверка Силы" and r.specialty and r.willpower
    assert r.expression == "7 diff 6 spec wp" and r.net == 8


def test_bonus_dice_are_capped():
    from engine.dice.limits import MAX_EXTRA_DICE

    r = pool("1 6 спец", ScriptedRng([10] * (MAX_EXTRA_DICE + 1)))
    assert r.capped and len(r.bonus_dice) == MAX_EXTRA_DICE
