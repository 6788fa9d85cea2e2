"""Every bad input gives a DiceError with a stable code, a position and a fragment."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest

import engine.services.installed  # noqa: F401  (the installed systems register their rolls)
from engine.dice import ERROR_CODES, DiceError, odds, roll
from engine.dice.limits import MAX_DICE_PER_TERM, MAX_EXTRA_DICE, MAX_INPUT_CHARS
from engine.duel.roll import duel
from engine.savage.dice import damage, trait
from engine.storyteller.dice import pool

RNG = random.Random(7)


@pytest.mark.parametrize(
    ("text", "code", "position", "fragment"),
    [
        ("1000000d1000000", "too_many_dice", 0, "1000000d1000000"),
        ("2d6+101d6", "too_many_dice", 4, "101d6"),
        ("60d6+50d6", "too_many_dice", 5, "50d6"),  # 110 dice in total
        ("9999999999d6", "too_many_dice", 0, "9999999999d6"),
        ("d1001", "too_many_sides", 0, "d1001"),
        ("d0", "bad_sides", 0, "d0"),
        ("0d6", "bad_count", 0, "0d6"),
        ("0#d6", "bad_count", 0, "0"),
        ("21#d6", "too_many_repeats", 0, "21"),
        ("d1!", "endless_dice", 0, "d1!"),
        ("d1r1", "endless_dice", 0, "d1r1"),
        ("d6r<7", "endless_dice", 0, "d6r<7"),
        ("2d6kh0", "bad_modifier", 0, "2d6kh0"),
        ("4d6kh5", "bad_modifier", 0, "4d6kh5"),
        ("4d6dl4", "bad_modifier", 0, "4d6dl4"),
        ("2d6f1", "bad_modifier", 0, "2d6f1"),
        ("d6!!", "bad_modifier", 3, "!"),
        ("2d6kh1kl1", "bad_modifier", 6, "kl"),
        ("1/0", "division_by_zero", 1, "/"),
        ("1/(d6-d6)", "division_by_zero", 1, "/"),  # whatever the faces: d6-d6 via scripted
        ("((((", "incomplete", 4, ""),
        ("2d6+", "incomplete", 4, ""),
        ("d", "incomplete", 1, ""),
        ("(1+2", "unclosed_paren", 0, "("),
        ("2d6)", "unexpected", 3, ")"),
        ("2 d6", "unexpected", 2, "d"),
        ("d20атака", "unexpected", 3, "атака"),
        ("2d6 kh1", "unexpected", 4, "kh"),
        ("", "empty", 0, ""),
        ("   ", "empty", 0, ""),
        ("12345678", "number_too_large", 0, "12345678"),
        ("1000000*1000000", "result_too_large", 7, "*"),
        ("(" * 11 + "1" + ")" * 11, "too_deep", 10, "("),
        ("-" * 11 + "1", "too_deep", 10, "-"),
    ],
)
def test_roll_errors(text, code, position, fragment):
    rng = random.Random(1) if "d6-d6" not in text else _SameFaces()
    with pytest.raises(DiceError) as info:
        roll(text, rng)
    err = info.value
    assert (err.code, err.position, err.fragment) == (code, position, fragment)
    assert err.code in ERROR_CODES


class _SameFaces:
    def randint(self, a: int, b: int) -> int:
        return a


def test_limits_are_in_params():
    with pytest.raises(DiceError) as info:
        roll("101d6", RNG)
    assert info.value.params == {"limit": MAX_DICE_PER_TERM}


def test_too_long_text_fails_before_any_work():
    text = "1+" * 20_000 + "1"
    start = time.perf_counter()
    with pytest.raises(DiceError) as info:
        roll(text, RNG)
    assert info.value.code == "too_long"
    assert info.value.position == MAX_INPUT_CHARS
    assert time.perf_counter() - start < 0.05


def test_long_expression_is_rejected_but_long_comment_is_fine():
    with pytest.raises(DiceError) as info:
        roll("+".join(["1"] * 150), RNG)
    assert info.value.code == "too_long"
    assert roll("d6 " + "слово " * 100, RNG).comment.startswith("слово")


def test_fragment_is_at_most_20_chars():
    with pytest.raises(DiceError) as info:
        roll("1000000d1000000" + "0" * 40, RNG)
    assert len(info.value.fragment) <= 20


@pytest.mark.parametrize(
    ("func", "text", "code"),
    [
        (trait, "", "empty"),
        (trait, "d7", "bad_die"),
        (trait, "2d8", "bad_die"),
        (trait, "+2", "incomplete"),
        (trait, "d8 цн", "incomplete"),
        (trait, "d8 цн 0", "out_of_range"),
        (trait, "d8 d6", "unexpected"),
        (trait, "d8 5", "unexpected"),
        (trait, "d8 нет навыка", "bad_modifier"),
        (trait, "d8 +1001", "out_of_range"),
        (trait, "d8 усталость 3", "out_of_range"),
        (damage, "vs 6", "unexpected"),
        (damage, "", "empty"),
        (damage, "d1", "endless_dice"),
        (damage, "2d6 vs 0", "out_of_range"),
        (damage, "2d6 vs 4(5)", "out_of_range"),
        (pool, "", "empty"),
        (pool, "спец", "incomplete"),
        (pool, "сл 6", "incomplete"),
        (pool, "7 6 сл 5", "unexpected"),
        (pool, "7 11", "out_of_range"),
        (pool, "7 1", "out_of_range"),
        (pool, "0 6", "out_of_range"),
        (pool, "51 6", "too_many_dice"),
        (pool, "7 сл", "incomplete"),
        (duel, "d6", "bad_die"),
        (duel, "+2 цн", "incomplete"),
    ],
)
def test_rule_command_errors(func, text, code):
    with pytest.raises(DiceError) as info:
        func(text, RNG)
    assert info.value.code == code


def test_a_die_a_roll_does_not_take_is_said_in_its_systems_words() -> None:
    """The one code `bad_die`, each system's sentence: the trait die's is SWADE's, the duel's
    check its own d10 (it said the trait die's before)."""
    told = {}
    for func, text in ((trait, "d7"), (duel, "d6")):
        with pytest.raises(DiceError) as info:
            func(text, RNG)
        assert info.value.code == "bad_die" and info.value.fragment == text
        told[func] = info.value.description.template
    assert told == {
        trait: "A SWADE trait die is d4, d6, d8, d10 or d12",
        duel: "A duel check is rolled on a d10",
    }


@pytest.mark.parametrize(
    ("text", "code"),
    [("p 31 6", "too_many_dice"), ("p 7 12", "out_of_range"), ("d9", "bad_die"), ("", "empty")],
)
def test_odds_errors(text, code):
    with pytest.raises(DiceError) as info:
        odds(text)
    assert info.value.code == code


def test_positions_point_into_the_given_text():
    with pytest.raises(DiceError) as info:
        pool("7 сл 11", RNG)
    assert info.value.position == 5 and info.value.fragment == "11"
    with pytest.raises(DiceError) as info:
        odds("p 7 сл 11")
    assert info.value.position == 7 and info.value.fragment == "11"


def test_explosion_cap_constant_is_sane():
    assert 10 <= MAX_EXTRA_DICE <= 1000


def test_error_codes_are_documented_at_the_top_of_the_module():
    import engine.dice.errors as errors

    doc = errors.__doc__ or ""
    listed = re.findall(r"^    (\w+) ", doc, flags=re.MULTILINE)
    assert listed == list(ERROR_CODES)
    assert all(v.isascii() for v in ERROR_CODES.values())


def test_unknown_code_is_a_programming_error():
    with pytest.raises(KeyError):
        DiceError("no_such_code")


def test_engine_has_no_russian_messages_and_no_forbidden_imports():
    root = Path(__file__).resolve().parents[3] / "engine" / "dice"
    forbidden = re.compile(r"^\s*(from|import)\s+(aiogram|aiohttp|tortoise|bot|webapp)\b", re.M)
    for path in root.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert not forbidden.search(source), path
        assert not re.search(r"^\s*import random\b|^from random import", source, re.M), path
        for m in re.finditer(r"DiceError\(([^)]*)\)", source):
            assert not re.search("[а-яА-ЯёЁ]", m.group(1)), (path, m.group(0))
