"""SWADE trait and damage rolls. Rules: seed 000_1f38ca1d3f32f1b7.txt and DESIGN.md
"Rules where the seeds are silent" (trait roll, Wild Die, raises, critical failure)."""

from __future__ import annotations

import pytest

from engine.dice import Modifier, ScriptedRng
from engine.savage.dice import DamageOutcome, damage, damage_outcome, trait


def t(text: str, faces: list[int]):
    rng = ScriptedRng(faces)
    result = trait(text, rng)
    assert rng.remaining == 0
    return result


def test_wild_card_takes_the_higher_die_and_adds_modifiers():
    # DESIGN: trait die + Wild Die (d6), take the higher, add modifiers; target 4.
    r = t("d8+1", [3, 5])
    assert r.trait_die.sides == 8 and r.wild_die is not None and r.wild_die.sides == 6
    assert r.used == "wild" and r.total == 6
    assert r.modifiers == (Modifier("modifier", 1),)
    assert (r.outcome, r.raises) == ("success", 0)
    assert r.expression == "d8 +1"
    assert all(d.wild for d in r.wild_die.dice) and not any(d.wild for d in r.trait_die.dice)


def test_ties_use_the_trait_die():
    assert t("d8", [5, 5]).used == "trait"


def test_both_dice_ace():
    # DESIGN: "both explode (Ace)"; all trait-die faces are drawn before the Wild Die's.
    r = t("к8", [8, 8, 2, 6, 1])
    assert [d.value for d in r.trait_die.dice] == [8, 8, 2]
    assert [d.exploded for d in r.trait_die.dice] == [True, True, False]
    assert r.wild_die is not None and [d.value for d in r.wild_die.dice] == [6, 1]
    assert r.total == 18 and r.used == "trait"


@pytest.mark.parametrize(
    ("text", "faces", "outcome", "raises"),
    [
        ("d8", [3, 2], "failure", 0),
        ("d8", [4, 1], "success", 0),
        ("d8", [7, 1], "success", 0),  # 3 over: no raise yet
        ("d8", [8, 3, 1], "raise", 1),  # 11: 7 over
        ("d8", [8, 8, 4, 1], "raise", 4),  # 20: 16 over, four raises
        ("d8 цн 6", [6, 2], "success", 0),
        ("d8 tn 6", [5, 2], "failure", 0),
        ("d8 vs 2", [6, 2], "raise", 1),
        ("d8 против 6", [8, 2, 3], "raise", 1),
    ],
)
def test_target_number_and_raises(text, faces, outcome, raises):
    # DESIGN: "target 4 (or Parry); each full 4 over the target is a raise".
    r = t(text, faces)
    assert (r.outcome, r.raises) == (outcome, raises)


def test_critical_failure_needs_both_natural_ones():
    # DESIGN: "Critical failure: a Wild Card rolls 1 on both dice" — even with a big bonus.
    r = t("d8 +10", [1, 1])
    assert r.outcome == "critical_failure" and r.raises == 0 and r.total == 11
    assert t("d8", [1, 2]).outcome == "failure"


def test_extras_roll_no_wild_die_and_never_critically_fail():
    # DESIGN gives critical failure to Wild Cards only; Extras roll the trait die alone.
    r = t("d6 статист", [1])
    assert r.wild_die is None and not r.wild_card
    assert r.outcome == "failure"
    assert t("d6 extra цн 6", [6, 4]).outcome == "raise"
    assert t("d6 статиста", [3]).expression == "d6 extra"


@pytest.mark.parametrize("text", ["нет навыка", "без навыка", "unskilled", "d4 нет навыка"])
def test_unskilled_is_d4_minus_2_with_the_wild_die(text):
    # DESIGN: "Unskilled: d4−2".
    r = t(text, [4, 3, 2])
    assert r.unskilled and r.trait_die.sides == 4 and r.wild_die is not None
    assert r.modifiers == (Modifier("unskilled", -2),)
    assert r.total == 7 - 2


def test_d12_plus_bonus_and_separate_modifiers():
    r = t("d12+2 -2 цн 6", [5, 3])
    assert r.modifiers == (Modifier("trait_bonus", 2), Modifier("modifier", -2))
    assert r.total == 5 and r.outcome == "failure" and r.tn == 6
    assert r.expression == "d12+2 -2 tn 6"


def test_spaced_sign_and_labelled_modifiers():
    # Joker +2 (seed 000 line 14), Wounds −1 each, at most −3 (line 73), Distracted −2 (line 45).
    r = t("d8 - 1 джокер раны 5 отвлечён атака мечом", [6, 2])
    assert r.modifiers == (
        Modifier("modifier", -1),
        Modifier("joker", 2),
        Modifier("wounds", -3),
        Modifier("distracted", -2),
    )
    assert r.total == 2 and r.comment == "атака мечом"


def test_fatigue():
    r = t("d8 усталость 2", [6, 2])
    assert r.modifiers == (Modifier("fatigue", -2),)


# --- damage -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "toughness", "kind", "wounds"),
    [
        (5, 6, "none", 0),  # line 60: below Toughness, no effect
        (6, 6, "shaken", 0),  # line 61: equal -> Shaken
        (9, 6, "shaken", 0),  # line 61: less than 4 over -> Shaken
        (10, 6, "wounds", 1),  # line 62: each full 4 over -> a Wound, and Shaken
        (13, 6, "wounds", 1),
        (14, 6, "wounds", 2),
        (22, 6, "wounds", 4),
    ],
)
def test_damage_outcome_against_toughness(total, toughness, kind, wounds):
    """Seed 000 lines 60-62."""
    out = damage_outcome(total, toughness)
    assert (out.kind, out.wounds) == (kind, wounds)
    assert out.shaken == (kind != "none")


def test_shaken_again_becomes_a_wound_unless_hardy():
    """Seed 000 line 63 (Shaken on Shaken -> one Wound) and lines 87-88 (Hardy)."""
    assert damage_outcome(7, 6, already_shaken=True) == DamageOutcome("wounds", 1, True)
    assert damage_outcome(7, 6, already_shaken=True, hardy=True) == DamageOutcome("shaken", 0, True)
    # Hardy changes only the repeated-Shaken rule: wounds from the margin still apply.
    assert damage_outcome(10, 6, already_shaken=True, hardy=True) == DamageOutcome(
        "wounds", 1, True
    )
    assert damage_outcome(5, 6, already_shaken=True) == DamageOutcome("none", 0, False)


def test_damage_dice_ace_without_wild_die():
    # DESIGN: "Damage rolls: no Wild Die, dice explode".
    rng = ScriptedRng([6, 6, 2, 3])
    r = damage("2d6+1 vs 6", rng)
    assert r.expression == "2d6!+1"
    assert [d.value for d in r.roll.groups[0].dice] == [6, 6, 2, 3]
    assert r.total == 18
    assert r.outcome == DamageOutcome("wounds", 3, True)
    assert r.raise_die is None and rng.remaining == 0


def test_raise_adds_an_acing_d6():
    # DESIGN: "+d6 on a raise".
    r = damage("d8+d6 подъём", ScriptedRng([3, 4, 6, 2]))
    assert r.raise_die is not None and [d.value for d in r.raise_die.dice] == [6, 2]
    assert r.total == 3 + 4 + 8
    assert r.outcome is None and r.toughness is None


def test_already_shaken_flag_and_comment():
    r = damage("2к6+1 против 6 шок удар мечом", ScriptedRng([2, 3]))
    assert r.already_shaken and r.comment == "удар мечом"
    assert r.outcome == DamageOutcome("wounds", 1, True)  # 6 = Shaken on Shaken


def test_ap_reduces_only_the_armor_part():
    r = damage("2d6 vs 8(2) ap 4", ScriptedRng([3, 3]))
    assert (r.toughness, r.armor, r.ap, r.effective_toughness) == (8, 2, 4, 6)
    assert r.outcome is not None and r.outcome.kind == "shaken"
    r = damage("2d6 против 8 броня 3 бп 1", ScriptedRng([3, 3]))
    assert r.effective_toughness == 7 and r.outcome is not None and r.outcome.kind == "none"
    r = damage("2d6 vs 8 ap 4", ScriptedRng([3, 3]))  # no armor: AP changes nothing
    assert r.effective_toughness == 8


def test_joker_adds_two_to_damage():
    # Seed 000 line 14: Joker +2 to trait and damage rolls.
    r = damage("2d6 джокер vs 6", ScriptedRng([1, 2]))
    assert r.total == 5 and r.outcome is not None and r.outcome.kind == "none"


def test_hardy_keyword():
    r = damage("2d6 vs 6 шок стойкий", ScriptedRng([3, 3]))
    assert r.hardy and r.outcome == DamageOutcome("shaken", 0, True)
