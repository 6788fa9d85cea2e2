"""One bound for every number on every sheet of every rule system (engine/sheet_numbers.py):
a number past it, in a text block or a JSON, is refused with the same sentence."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import duel, savage, sheet_numbers, texts
from engine.errors import CodedError
from engine.services.duel.fighters import parse_fighter
from engine.services.savage.characters import parse_entry as savage_entry
from engine.services.storyteller.characters import parse_entry as storyteller_entry
from engine.sheet_numbers import SHEET_NUMBER_MAX
from engine.storyteller.errors import StorytellerError
from engine.storyteller.sheet import parse_armor_rows, parse_sheet, parse_weapon_rows

HUGE = 10**18
MAX = SHEET_NUMBER_MAX
SAVAGE = "Ичиго (Дикий) Ловкость d8, Выносливость d8; Драка d10"
STORYTELLER = "Имя: Вероника\nАтрибуты: Сила 2, Ловкость 3"
DUEL = "Бьорн\nАтака 2, Блок 1, Уклонение 0, Урон d8, Хп 20, Броня 1"


def refused(error: CodedError) -> str:
    assert error.code == sheet_numbers.CODE, error.code
    assert error.params["max"] == MAX
    return texts.translate("ru", error.description.template)


def test_the_bound_is_the_notation_s() -> None:
    from engine.dice.limits import MAX_NUMBER

    assert MAX == MAX_NUMBER == 10**6
    assert sheet_numbers.read("1000000") == MAX and sheet_numbers.read("-1000000") == -MAX
    assert sheet_numbers.read("1000001") is None and sheet_numbers.read("9" * 5000) is None
    assert sheet_numbers.read("+0007") == 7


@pytest.mark.parametrize(
    "text",
    [
        f"{SAVAGE}; Защита 6, Стойкость {HUGE}",  # the observed bug: Toughness 10^18
        f"{SAVAGE}; Стойкость {MAX + 1}",
        f"{SAVAGE}; Стойкость 8 ({HUGE})",  # its armor part
        f"{SAVAGE}; Защита {HUGE}",
        f"{SAVAGE}; Шаг {HUGE}",
        f"{SAVAGE}; Бенни {HUGE}",
        f"Ичиго (Дикий) Сила d12+{HUGE}",  # a trait die's bonus
    ],
)
def test_a_savage_number_past_the_bound_is_refused(text: str) -> None:
    with pytest.raises(savage.RuleError) as error:
        savage.parse_sheet(text)
    assert refused(error.value).startswith("Слишком большое число: ")


def test_savage_numbers_at_the_bound_are_kept() -> None:
    spec = savage.parse_sheet(f"{SAVAGE}; Защита {MAX}, Стойкость {MAX} ({MAX}); Шаг {MAX}")
    assert (spec.character.parry, spec.character.toughness, spec.character.armor) == (
        MAX,
        MAX,
        MAX,
    )


def test_the_savage_json_has_the_same_bound() -> None:
    data: dict[str, Any] = savage.parse_sheet(SAVAGE).character.to_dict()
    with pytest.raises(savage.RuleError) as error:
        savage_entry({**data, "toughness": HUGE}, None)
    assert error.value.params["field"] == "toughness"
    assert refused(error.value)
    with pytest.raises(savage.RuleError):
        savage_entry(json.dumps({**data, "pace": -HUGE}), None)
    # the owner's Telegram id is no number of the sheet
    assert savage_entry({**data, "owner": 5_000_000_001}, None).character.owner == 5_000_000_001


@pytest.mark.parametrize(
    "line",
    [
        f"Оружие: Нож (Сила+{HUGE}, летальные)",
        f"Оружие: Пистолет ({HUGE}, летальные)",
        f"Броня: Кираса {HUGE}",
        f"Броня: Кираса 3, штраф {HUGE}",
        f"Здоровье: поверхностные {HUGE}",
    ],
)
def test_a_storyteller_number_past_the_bound_is_refused(line: str) -> None:
    with pytest.raises(StorytellerError) as error:
        parse_sheet(f"{STORYTELLER}\n{line}")
    assert refused(error.value)


def test_storyteller_wounds_fill_the_track_at_most() -> None:
    assert len(parse_sheet(f"{STORYTELLER}\nЗдоровье: поверхностные 7").character.health) == 7
    with pytest.raises(StorytellerError) as error:  # 7 levels: an 8th mark has no place
        parse_sheet(f"{STORYTELLER}\nЗдоровье: летальные 5, поверхностные 3")
    assert error.value.code == "sheet_bad_health"


def test_the_storyteller_tables_and_json_have_the_same_bound() -> None:
    with pytest.raises(StorytellerError) as error:
        parse_weapon_rows(f"Дубина (Сила+{HUGE}, поверхностные)")
    assert refused(error.value)
    with pytest.raises(StorytellerError):
        parse_armor_rows(f"Латы {HUGE}, штраф 1")
    data = json.loads(json.dumps({"name": "Вероника", "willpower": HUGE}))
    with pytest.raises(StorytellerError) as error:
        storyteller_entry(data)
    assert error.value.params["field"] == "willpower" and refused(error.value)
    with pytest.raises(StorytellerError):
        storyteller_entry({"name": "Вероника", "attributes": {"strength": HUGE}})


@pytest.mark.parametrize(
    "text",
    [
        f"Бьорн\nАтака {HUGE}, Урон d8, Хп 20",
        f"Бьорн\nАтака -{HUGE}, Урон d8, Хп 20",
        f"Бьорн\nУрон d8, Хп {MAX + 1}",
        f"Бьорн\nУрон d8, Хп 20, Броня {HUGE}",
    ],
)
def test_a_duel_number_past_the_bound_is_refused(text: str) -> None:
    with pytest.raises(duel.DuelError) as error:
        duel.parse_sheet(text)
    assert refused(error.value)


def test_the_duel_json_and_classes_have_the_same_bound() -> None:
    fighter = duel.parse_sheet(DUEL).fighter
    assert duel.parse_sheet(f"Бьорн\nУрон d8, Хп {MAX}").fighter.stats.hp == MAX
    data: dict[str, Any] = fighter.to_dict()
    data["stats"]["hp"] = HUGE
    with pytest.raises(duel.DuelError) as error:
        parse_fighter(data, duel.BUILTIN)
    assert error.value.params["field"] == "stats.hp" and refused(error.value)
    plain = duel.FighterClass("plain2", "Боец").to_dict()
    plain["moves"][0]["sp"] = HUGE
    with pytest.raises(duel.DuelError) as error:
        duel.class_from_json(plain)
    assert error.value.params["field"] == "moves.0.sp" and refused(error.value)


def test_every_system_says_the_same_sentence() -> None:
    errors: list[CodedError] = []
    for parse, error_type, text in (
        (savage.parse_sheet, savage.RuleError, f"{SAVAGE}; Стойкость {HUGE}"),
        (parse_sheet, StorytellerError, f"{STORYTELLER}\nБроня: Кираса {HUGE}"),
        (duel.parse_sheet, duel.DuelError, f"Бьорн\nУрон d8, Хп {HUGE}"),
    ):
        with pytest.raises(error_type) as error:
            parse(text)
        errors.append(error.value)
    assert {refused(e) for e in errors} == {
        "Слишком большое число: {value}. Число в листе персонажа — не больше {max} по модулю."
    }
    assert {e.params["value"] for e in errors} == {str(HUGE)}
