"""The health track (DESIGN.md's default levels; seed «Типы повреждений»)."""

from __future__ import annotations

from engine.storyteller.health import heal, incapacitated, mark, wound_penalty
from engine.storyteller.options import DEFAULT_HEALTH

SIZE = len(DEFAULT_HEALTH)


def test_each_level_is_one_mark_worst_first() -> None:
    # «Каждый успешный балл ... наносит жертве один уровень повреждений.»
    done = mark(("bashing",), "lethal", 2, SIZE)
    assert done.marks == ("lethal", "lethal", "bashing") and not done.dead


def test_wound_penalties_follow_the_worst_level() -> None:
    # Bruised 0, Hurt −1, Injured −1, Wounded −2, Mauled −2, Crippled −5
    penalties = [wound_penalty(("bashing",) * n, DEFAULT_HEALTH) for n in range(7)]
    assert penalties == [0, 0, 1, 1, 2, 2, 5]


def test_bashing_overflowing_the_track_turns_lethal() -> None:
    full = ("lethal",) + ("bashing",) * (SIZE - 1)
    assert incapacitated(full, DEFAULT_HEALTH)
    done = mark(full, "bashing", 2, SIZE)
    assert done.marks == ("lethal",) * 3 + ("bashing",) * (SIZE - 3)
    assert done.converted == 2 and not done.dead


def test_no_room_left_kills() -> None:
    done = mark(("lethal",) * SIZE, "bashing", 1, SIZE)
    assert done.dead


def test_heal_removes_marks_of_a_type() -> None:
    assert heal(("lethal", "bashing", "bashing"), "bashing", 5) == ("lethal",)
