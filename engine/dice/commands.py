"""The roll commands, in one place: the code stored in the roll log, the name the Mini App's
API uses, the chat commands, and the dice-engine function that rolls the argument text (a
re-roll or a reveal calls the same one again from the log)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.describe import Description
from engine.dice.duel import duel
from engine.dice.notation import roll
from engine.dice.rng import Rng
from engine.dice.swade import damage, trait
from engine.storyteller.preset_rolls import explain as explain_preset
from engine.storyteller.preset_rolls import pool_or_preset


@dataclass(frozen=True)
class RollCommand:
    code: str  # in the roll log
    name: str  # in the Mini App's API and its roll feed
    chat: tuple[str, ...]  # Telegram commands
    words: tuple[str, ...]  # words after /hr that pick it (`/hr t d8`), Latin and Russian
    roll: Callable[[str, Rng], Any]
    # what the result means beyond its outcome (a preset's successes), for the roll's message
    explain: Callable[[str, Any], Description | None] | None = None


ROLL_COMMANDS: tuple[RollCommand, ...] = (
    RollCommand("r", "roll", ("r", "roll"), ("r", "roll"), roll),
    RollCommand("t", "trait", ("t",), ("t", "т"), trait),
    RollCommand("dmg", "damage", ("dmg",), ("dmg", "урон"), damage),
    # seed 002: a pool, or a preset of the seed's actions (`/p прыжок 4`)
    RollCommand("p", "pool", ("p",), ("p", "п", "пул"), pool_or_preset, explain_preset),
    # seed 003: d10 + modifiers, natural 10 / 1 criticals
    RollCommand("duel", "duel", ("d",), ("d", "duel", "дуэль"), duel),
)
BY_CODE = {c.code: c for c in ROLL_COMMANDS}
BY_NAME = {c.name: c for c in ROLL_COMMANDS}
BY_CHAT = {chat: c for c in ROLL_COMMANDS for chat in c.chat}
BY_WORD = {word: c for c in ROLL_COMMANDS for word in c.words}


def explain(code: str, args: str, result: Any) -> Description | None:
    found = BY_CODE[code].explain
    return None if found is None else found(args, result)


def make_roll(code: str, args: str, rng: Rng) -> Any:
    """Roll `args` with the engine behind the roll-log `code`; DiceError on bad notation."""
    return BY_CODE[code].roll(args, rng)
