"""engine/dice/commands.py: one table of roll commands for the chat, the Mini App and the
roll log."""

from __future__ import annotations

import random

import pytest

import engine.services.installed  # noqa: F401  (the installed systems register their rolls)
from engine.dice.commands import (
    BY_CHAT,
    BY_CODE,
    BY_NAME,
    BY_WORD,
    ROLL_COMMANDS,
    RollCommand,
    make_roll,
    register,
)
from engine.dice.notation import roll


def test_every_command_is_reachable_under_each_of_its_names() -> None:
    assert len({c.code for c in ROLL_COMMANDS}) == len({c.name for c in ROLL_COMMANDS}) == 5
    for command in ROLL_COMMANDS:
        assert BY_CODE[command.code] is BY_NAME[command.name] is command
        assert all(BY_CHAT[chat] is command for chat in command.chat)
        assert all(BY_WORD[word] is command for word in command.words)
    assert BY_CHAT["d"].code == "duel" and BY_WORD["урон"].code == "dmg"


def test_make_roll_rolls_with_the_commands_engine() -> None:
    kinds = {
        code: make_roll(code, args, random.Random(1)).kind
        for code, args in [
            ("r", "2к6+1"),
            ("t", "d8+1"),
            ("dmg", "2d6 vs 6"),
            ("p", "7 6"),
            ("duel", "+2"),
        ]
    }
    assert kinds == {"r": "roll", "t": "trait", "dmg": "damage", "p": "pool", "duel": "duel"}


def test_commands_whose_word_is_taken_are_refused_all_or_none() -> None:
    before = list(ROLL_COMMANDS)
    fresh = RollCommand("x1", "x1", ("x1",), ("x1",), roll)
    clash = RollCommand("x2", "x2", ("x2",), ("r",), roll)  # `/hr r …` is the plain roll's
    with pytest.raises(ValueError):
        register(fresh, clash)
    assert before == ROLL_COMMANDS and "x1" not in BY_CODE and "x1" not in BY_CHAT
