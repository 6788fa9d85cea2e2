"""Guesses for commands the bot did not understand (bot/suggest.py)."""

from __future__ import annotations

import pytest

from bot.suggest import glued_die, guess_command

KNOWN = ["r", "roll", "t", "dmg", "p", "d", "hr", "odds", "next", "hold", "help", "attack", "add"]


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("nxt", ("next", "")),
        ("nexy", ("next", "")),
        ("atack", ("attack", "")),
        ("r2d6", ("r", "2d6")),
        ("r2к6+1", ("r", "2к6+1")),
        ("dmg2d6", ("dmg", "2d6")),  # the longest command first, not /d
        ("td8", ("t", "d8")),
        ("р", ("r", "")),  # a Cyrillic р
        ("хелп", ("help", "")),
        ("xyzzy", None),
        ("ban", None),
    ],
)
def test_guess_command(word: str, expected: tuple[str, str] | None) -> None:
    assert guess_command(word, KNOWN) == expected


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ("2 к 6", "2к6"),
        ("2к 6 удар", "2к6 удар"),
        ("3 d6+1", "3d6+1"),
        ("d 8", "d8"),
        ("2d6", None),
        ("2d6+1 к 6 врагам", None),
        ("7 6", None),
        ("2 к", None),
    ],
)
def test_glued_die(args: str, expected: str | None) -> None:
    assert glued_die(args) == expected
