"""The GM's rows of the healing table and the aimed attacks' targets: read, checked (absurd
values refused with their code), and each table back to its default."""

from __future__ import annotations

import pytest

from engine.storyteller.errors import StorytellerError
from engine.storyteller.healing import healing_hours, total_hours
from engine.storyteller.maneuvers import Situation, attack_modifiers
from engine.storyteller.options import (
    AGGRAVATED,
    BASHING,
    DEFAULT_HEALING,
    DEFAULT_OPTIONS,
    LETHAL,
    SEED_AIM_TARGETS,
)
from engine.storyteller.tables import (
    DAY,
    MAX_HEAL_HOURS,
    MONTH,
    WEEK,
    aim_code,
    aim_is_default,
    damage_type_of,
    default_aim,
    default_healing,
    format_duration,
    healing_is_default,
    level_of,
    parse_duration,
    set_aim,
    set_heal_time,
)


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("12ч", 12),
        ("12 часов", 12),
        ("3д", 3 * DAY),
        ("3 дня", 3 * DAY),
        ("2нед", 2 * WEEK),
        ("1 неделя", WEEK),
        ("2мес", 2 * MONTH),
        ("1 месяц", MONTH),
        ("2м", 2 * MONTH),
        ("5d", 5 * DAY),
    ],
)
def test_a_time_is_a_number_and_its_unit(text: str, hours: int) -> None:
    assert parse_duration(text) == hours


@pytest.mark.parametrize("hours", [1, 5, 24, 3 * DAY, WEEK, 10 * DAY, MONTH, 90 * DAY, 2160])
def test_a_time_reads_back_as_written(hours: int) -> None:
    assert parse_duration(format_duration(hours)) == hours


@pytest.mark.parametrize(("text", "code"), [("3", "bad_duration"), ("три дня", "bad_duration"),
    ("3 лет", "bad_duration"), ("-3д", "heal_time_range"), ("0ч", "heal_time_range"),
    ("100мес", "heal_time_range")])  # fmt: skip
def test_an_absurd_time_is_refused(text: str, code: str) -> None:
    with pytest.raises(StorytellerError) as caught:
        parse_duration(text)
    assert caught.value.code == code
    assert caught.value.params["fragment"] == text


def test_words_name_the_damage_types_and_the_levels() -> None:
    assert damage_type_of("летальные") == LETHAL
    assert damage_type_of("Поверхностные") == BASHING
    assert damage_type_of("усиливающиеся") == AGGRAVATED
    assert damage_type_of("летал") == LETHAL
    with pytest.raises(StorytellerError) as caught:
        damage_type_of("огненные")
    assert caught.value.code == "unknown_damage_type"
    assert level_of(DEFAULT_OPTIONS, "Тяжело ранен") == "wounded"
    assert level_of(DEFAULT_OPTIONS, "ушиблен") == "bruised"
    assert level_of(DEFAULT_OPTIONS, "7") == "incapacitated"
    for word in ("8", "0", "мёртв"):
        with pytest.raises(StorytellerError) as caught:
            level_of(DEFAULT_OPTIONS, word)
        assert caught.value.code == "unknown_level"


def test_one_healing_row_changes_and_the_table_goes_back() -> None:
    o = set_heal_time(DEFAULT_OPTIONS, LETHAL, "injured", 10 * DAY)
    assert healing_hours(LETHAL, "injured", o) == 10 * DAY
    assert healing_hours(BASHING, "injured", o) == healing_hours(BASHING, "injured")  # untouched
    assert len(o.healing) == len(DEFAULT_HEALING) and not healing_is_default(o)
    # a track with a lethal mark at Injured takes the new time
    marks = ("lethal", "lethal", "lethal")
    assert total_hours(marks, o) - total_hours(marks) == 3 * DAY
    back = default_healing(o)
    assert back.healing == DEFAULT_HEALING and healing_is_default(back)


@pytest.mark.parametrize(
    ("args", "code"),
    [
        ((LETHAL, "injured", -24), "heal_time_range"),
        ((LETHAL, "injured", 0), "heal_time_range"),
        ((LETHAL, "injured", MAX_HEAL_HOURS + 1), "heal_time_range"),
        (("fire", "injured", 24), "unknown_damage_type"),
        ((LETHAL, "dead", 24), "unknown_level"),
    ],
)
def test_an_absurd_healing_row_is_refused(args: tuple[str, str, int], code: str) -> None:
    with pytest.raises(StorytellerError) as caught:
        set_heal_time(DEFAULT_OPTIONS, *args)
    assert caught.value.code == code


def test_a_target_row_changes_the_aimed_attack_and_the_table_goes_back() -> None:
    # the seed's «Маленькая (кисть руки, голова, оружие): +2 // +1», here +4 // +3
    assert aim_code(DEFAULT_OPTIONS, "маленькая") == "small"
    assert aim_code(DEFAULT_OPTIONS, "Очень маленькая") == "tiny"
    o = set_aim(DEFAULT_OPTIONS, "small", 4, 3)
    mods = attack_modifiers(Situation(aim="small"), o)
    assert [p.value for p in mods.difficulty] == [4] and mods.damage == 3 and mods.ignores_armor
    assert o.aim_target("tiny") == DEFAULT_OPTIONS.aim_target("tiny")
    assert not aim_is_default(o)
    back = default_aim(o)
    assert back.aim_targets == SEED_AIM_TARGETS and aim_is_default(back)


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (("small", 0, 1), "aim_difficulty_range"),
        (("small", 11, 1), "aim_difficulty_range"),
        (("small", 2, -1), "aim_damage_range"),
        (("small", 2, 11), "aim_damage_range"),
        (("huge", 2, 1), "unknown_target"),
    ],
)
def test_an_absurd_target_row_is_refused(args: tuple[str, int, int], code: str) -> None:
    with pytest.raises(StorytellerError) as caught:
        set_aim(DEFAULT_OPTIONS, *args)
    assert caught.value.code == code
    with pytest.raises(StorytellerError):
        aim_code(DEFAULT_OPTIONS, "огромная")
