"""Fighters, classes and the sheet (seed 003: «Атака X, Блок X, Уклонение X, Урон dX, Хп X,
Броня X, где X - число»)."""

from __future__ import annotations

import pytest

from engine import codec
from engine.duel import (
    KENSEI,
    OROCHI,
    RAIDER,
    DuelError,
    Fighter,
    FighterClass,
    Move,
    Stats,
    TrickEffect,
    class_from_json,
    class_table,
    fighter_from_json,
    format_sheet,
    parse_sheet,
)

SEED_LINE = "Атака 2, Блок 1, Уклонение 0, Урон d8, Хп 20, Броня 1"


def test_the_seed_stats_line_pasted_as_is() -> None:
    parsed = parse_sheet(f"Бьорн\nКласс: Рейдер\n{SEED_LINE}")
    assert parsed.warnings == ()
    assert parsed.fighter == Fighter("Бьорн", Stats(2, 1, 0, 8, 20, 1), RAIDER)
    # the seed's «Хп» is read; the block is written back with «ХП», as every other text has it
    assert format_sheet(parsed.fighter).endswith("Урон d8, ХП 20, Броня 1")


def test_items_one_a_line_with_colons_and_other_spellings() -> None:
    text = "Имя: Такеда\nкласс: kensei\nАтака: 3\nБлок: 0\nУклонение: 2\nУрон: к6\nХП: 14\n"
    f = parse_sheet(text).fighter
    assert (f.name, f.fighter_class.code) == ("Такеда", "kensei")
    assert f.stats == Stats(3, 0, 2, 6, 14, 0)


def test_unknown_lines_are_warnings_naming_them() -> None:
    text = f"Бьорн\n{SEED_LINE}\nЛюбит мёд\nМана 5, Броня 2"
    parsed = parse_sheet(text)
    assert parsed.fighter.stats.armor == 2
    assert [w.code for w in parsed.warnings] == ["duel_sheet.unknown_line"] * 2
    assert [dict(w.params) for w in parsed.warnings] == [
        {"line": 3, "text": "Любит мёд"},
        {"line": 4, "text": "Мана 5"},
    ]


@pytest.mark.parametrize(
    ("text", "code", "params"),
    [
        ("", "sheet_empty", {}),
        ("Бьорн\nАтака 2, Хп 10", "sheet_missing", {"stat": "Урон"}),
        ("Атака 2, Урон d8, Хп 10", "sheet_missing", {"stat": "Имя"}),
        ("Бьорн\nАтака два, Урон d8, Хп 10", "sheet_bad_value", {"line": 2, "text": "Атака два"}),
        ("Бьорн\nУрон 8, Хп 10", "sheet_bad_die", {"line": 2, "text": "Урон 8"}),
        ("Бьорн\nКласс: паладин\nУрон d8, Хп 10", "unknown_class", {"text": "паладин"}),
    ],
)
def test_refusals_name_what_is_wrong(text: str, code: str, params: dict[str, object]) -> None:
    with pytest.raises(DuelError) as caught:
        parse_sheet(text)
    assert caught.value.code == code
    assert caught.value.params == params


@pytest.mark.parametrize("cls", [RAIDER, KENSEI, OROCHI])
def test_format_reads_back_to_the_same_fighter(cls: FighterClass) -> None:
    fighter = Fighter("Ёж, сын Ужа", Stats(-1, 4, 3, 10, 25, 2), cls)
    assert parse_sheet(format_sheet(fighter)).fighter == fighter


def test_fighters_and_classes_go_through_the_codec() -> None:
    fighter = parse_sheet(f"Мико\nКласс: орочи\n{SEED_LINE}").fighter
    data = codec.to_data(fighter)
    assert data["fighter_class"]["ap_to_damage"] is True
    assert fighter_from_json(data) == fighter
    assert class_from_json(codec.to_data(KENSEI)) == KENSEI
    with pytest.raises(DuelError, match="sheet_bad_json"):
        fighter_from_json({"name": "x"})


def test_seed_class_exceptions_are_data() -> None:
    # «исключение - кенсей, он может уйти в глухую защиту уклонением»
    assert KENSEI.full_dodge and not RAIDER.full_dodge and not OROCHI.full_dodge
    # «За счет АП нельзя увеличивать урон (есть исключение - орочи)»
    assert OROCHI.ap_to_damage and not KENSEI.ap_to_damage and not RAIDER.ap_to_damage


def test_a_gm_class_is_plain_data_and_is_checked() -> None:
    berserk = FighterClass(
        "berserk",
        "Берсерк",
        moves=(Move("attack", "Атака"), Move("frenzy", "Ярость", sp=3, hits=3, bleeding=True)),
        trick=TrickEffect("lose_action", 1),
        extra_attacks=1,
    )
    table = class_table([berserk])
    with pytest.raises(DuelError, match="unknown_class"):
        parse_sheet(f"Улаф\nКласс: берсерк\n{SEED_LINE}")
    assert parse_sheet(f"Улаф\nКласс: берсерк\n{SEED_LINE}", table).fighter.fighter_class == berserk
    with pytest.raises(DuelError, match="bad_class"):
        class_table([FighterClass("x", "X", moves=(Move("a", "A", sp=0),))])
    with pytest.raises(DuelError, match="bad_class"):
        class_table([FighterClass("x", "X", moves=())])


def test_a_misspelt_stat_is_a_warning_naming_it_and_nothing_is_silently_zero() -> None:
    # issue 26 item 6: «Брня 1» was saved as Броня 0 without a word; the seed's line is
    # «Атака X, Блок X, Уклонение X, Урон dX, Хп X, Броня X»
    parsed = parse_sheet("Бьорн\nАтака 2, Блок 1, Уклонение 0, Урон d8, Хп 20, Брня 1")
    assert [(w.code, dict(w.params)) for w in parsed.warnings] == [
        ("duel_sheet.typo", {"line": 2, "text": "Брня 1", "key": "Броня"}),
        ("duel_sheet.not_given", {"stat": "Броня"}),
    ]
    # a name that looks like a label is still the name (no number after it)
    parsed = parse_sheet(f"Брон Железный\n{SEED_LINE}")
    assert parsed.fighter.name == "Брон Железный" and parsed.warnings == ()
