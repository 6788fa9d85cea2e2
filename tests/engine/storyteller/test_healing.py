"""Healing times: the seed's contents name «Время излечения» but the text holds no table,
so the times are a default (docs/rules/storyteller.md) the game may replace."""

from __future__ import annotations

import dataclasses

import pytest

from engine.storyteller.healing import healing_hours, total_hours, track_healing
from engine.storyteller.options import (
    AGGRAVATED,
    BASHING,
    DEFAULT_OPTIONS,
    LETHAL,
    HealTime,
)

DAY = 24


def test_each_damage_type_and_level_has_a_time_and_lethal_takes_longer_than_bashing() -> None:
    for level in DEFAULT_OPTIONS.health:
        bashing = healing_hours(BASHING, level.code)
        lethal = healing_hours(LETHAL, level.code)
        assert 0 < bashing < lethal, level.code
    assert healing_hours(BASHING, "bruised") == 1
    assert healing_hours(LETHAL, "injured") == 7 * DAY
    # deeper levels never heal faster
    lethal = [healing_hours(LETHAL, lv.code) for lv in DEFAULT_OPTIONS.health]
    assert lethal == sorted(lethal)


def test_aggravated_damage_heals_at_the_speed_of_lethal() -> None:
    # seed 002, «Усиливающиеся повреждения»: «Эти повреждения заживают с такой же скоростью,
    # что и летальные повреждения.» (the audit: the default table gave aggravated twice)
    for level in DEFAULT_OPTIONS.health:
        assert healing_hours(AGGRAVATED, level.code) == healing_hours(LETHAL, level.code)
    assert total_hours((AGGRAVATED, AGGRAVATED)) == total_hours((LETHAL, LETHAL)) == 4 * DAY


def test_an_unknown_row_is_refused() -> None:
    with pytest.raises(KeyError):
        healing_hours("fire", "bruised")


def test_the_track_heals_from_its_deepest_mark() -> None:
    # «Каждый успешный балл, полученный при броске, наносит жертве один уровень повреждений»:
    # three levels, worst first on the track — lethal at Bruised, bashing at Hurt and Injured
    marks = (LETHAL, BASHING, BASHING)
    mends = track_healing(marks)
    assert [(m.level, m.damage_type) for m in mends] == [
        ("injured", BASHING),
        ("hurt", BASHING),
        ("bruised", LETHAL),
    ]
    assert total_hours(marks) == 1 + 1 + 1 * DAY
    assert track_healing(()) == ()


def test_the_game_may_replace_the_table() -> None:
    slow = dataclasses.replace(
        DEFAULT_OPTIONS,
        healing=tuple(
            HealTime(r.damage_type, r.level, r.hours * 2) for r in DEFAULT_OPTIONS.healing
        ),
    )
    assert healing_hours(LETHAL, "wounded", slow) == 2 * healing_hours(LETHAL, "wounded")
    assert total_hours((BASHING,), slow) == 2
