"""The game's readings of the duel seed (`DuelOptions`, docs/rules/duel.md), kept in the
game's `options` under `RULES`: every duel the GM starts afterwards takes them; a running
duel keeps those it started with (its players agreed to them at the first turn)."""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

from engine.duel import DuelOptions
from engine.duel.options import DEFAULT_OPTIONS, NEW_GAME_OPTIONS
from engine.services.games import change_options
from engine.services.types import GameInfo

RULES = "duel_rules"
# A reading's value: a yes/no, a number, a choice's word, or None (no cap).
Reading = bool | int | str | None
# The values a GM steps through for the options that are numbers (None: no cap).
STEPS: dict[str, tuple[Reading, ...]] = {
    "series_bonus": (0, 1, 2),
    "sp_cap": (None, 4, 6, 8),
}


def choices(name: str) -> tuple[Reading, ...]:
    """The values option `name` may take, the default first (a new game's)."""
    if name in STEPS:
        return STEPS[name]
    kind = typing.get_type_hints(DuelOptions)[name]
    if kind is bool:
        values: tuple[Reading, ...] = (True, False)
    else:
        values = typing.get_args(kind)
    default = getattr(NEW_GAME_OPTIONS, name)
    return (default, *(v for v in values if v != default))


def new_game_rules() -> dict[str, Any]:
    """What a new duel game's `options` start with: every reading of `NEW_GAME_OPTIONS`
    (a game created before a default changed keeps the reading it had)."""
    return {RULES: dataclasses.asdict(NEW_GAME_OPTIONS)}


NAMES = tuple(f.name for f in dataclasses.fields(DuelOptions))


def is_choice(name: str, value: object) -> bool:
    """Whether `value` is one of option `name`'s values, of its type too (True is not 1)."""
    return name in NAMES and any(type(value) is type(c) and value == c for c in choices(name))


def game_rules(game: GameInfo) -> DuelOptions:
    """The game's readings (the engine's older defaults for what a game created before they
    were stored never had, or a stored value no longer valid)."""
    stored = game.options.get(RULES)
    if not isinstance(stored, dict):
        return DEFAULT_OPTIONS
    known = {k: v for k, v in stored.items() if is_choice(k, v)}
    return dataclasses.replace(DEFAULT_OPTIONS, **known)


def next_value(rules: DuelOptions, name: str) -> Reading:
    """The value after the current one of option `name` (round the choices)."""
    values = choices(name)
    current = getattr(rules, name)
    index = values.index(current) if current in values else -1
    return values[(index + 1) % len(values)]


async def set_rule(game_id: int, name: str, value: Reading, *, actor_id: int) -> DuelOptions:
    """The GM sets one reading for the game's next duels (`not_gm` for a player; ValueError
    for an option or value that does not exist)."""
    if not is_choice(name, value):
        raise ValueError(f"no duel option {name}={value!r}")
    rules = await change_options(
        game_id,
        RULES,
        lambda old: {**(old if isinstance(old, dict) else {}), name: value},
        actor_id=actor_id,
    )
    stored = {k: v for k, v in rules.items() if k in NAMES}
    return dataclasses.replace(DEFAULT_OPTIONS, **stored)
