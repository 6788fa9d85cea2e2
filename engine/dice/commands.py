"""The roll commands: the code stored in the roll log, the name the Mini App's API uses, the
chat commands, and the function that rolls the argument text (a re-roll or a reveal calls the
same one again from the log). The plain roll is built in; a rule system brings its own in its
registration (``RuleSystem.rolls``, engine/services/systems.py), which adds them here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.describe import Description
from engine.dice.notation import roll
from engine.dice.results import OddsResult, Serializable
from engine.dice.rng import Rng

# (the argument text, its offset in the whole /odds text) -> the exact odds (DiceError)
Odds = Callable[[str, int], OddsResult]


@dataclass(frozen=True)
class RollCommand:
    code: str  # in the roll log
    name: str  # in the Mini App's API and its roll feed
    chat: tuple[str, ...]  # Telegram commands
    words: tuple[str, ...]  # words after /hr that pick it (`/hr t d8`), Latin and Russian
    roll: Callable[[str, Rng], Serializable]  # the system's own result class
    # what the result means beyond its outcome (a preset's successes), for the roll's message
    explain: Callable[[str, Serializable], Description | None] | None = None
    odds: Odds | None = None  # its exact odds before it is rolled (/odds)
    # the words after /odds that pick it; none: /odds without a word (one command at most)
    odds_words: tuple[str, ...] = ()
    # its text names dice with a letter (`d8+1`): a die written apart (`2 к 6`) gets a hint
    die_letters: bool = False


ROLL_COMMANDS: list[RollCommand] = []
BY_CODE: dict[str, RollCommand] = {}
BY_NAME: dict[str, RollCommand] = {}
BY_CHAT: dict[str, RollCommand] = {}
BY_WORD: dict[str, RollCommand] = {}
BY_ODDS_WORD: dict[str, RollCommand] = {}


def _keys(command: RollCommand) -> list[tuple[dict[str, RollCommand], str]]:
    """Where a command is found, and by what."""
    odds_words = (command.odds_words or ("",)) if command.odds is not None else ()
    return [
        (BY_CODE, command.code),
        (BY_NAME, command.name),
        *((BY_CHAT, chat) for chat in command.chat),
        *((BY_WORD, word) for word in command.words),
        *((BY_ODDS_WORD, word) for word in odds_words),
    ]


def register(*commands: RollCommand) -> None:
    """Add roll commands, all or none: each code, name, chat command and word is new."""
    keys = [(id(table), key) for command in commands for table, key in _keys(command)]
    taken = len(set(keys)) < len(keys) or any(
        key in table for command in commands for table, key in _keys(command)
    )
    if taken:
        codes = [command.code for command in commands]
        raise ValueError(f"roll commands {codes} take a code, name or word in use")
    for command in commands:
        ROLL_COMMANDS.append(command)
        for table, key in _keys(command):
            table[key] = command


register(RollCommand("r", "roll", ("r", "roll"), ("r", "roll"), roll, die_letters=True))


def spaced_die_matters(code: str) -> bool:
    """Whether a die written apart is a likely slip in this command's text."""
    found = BY_CODE.get(code)
    return found is not None and found.die_letters


def explain(code: str, args: str, result: Serializable) -> Description | None:
    found = BY_CODE[code].explain
    return None if found is None else found(args, result)


def make_roll(code: str, args: str, rng: Rng) -> Serializable:
    """Roll `args` with the engine behind the roll-log `code`; DiceError on bad notation."""
    return BY_CODE[code].roll(args, rng)
