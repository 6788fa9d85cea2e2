"""Which dice-engine function each roll command calls (the roll log stores the command and
its argument text, so a re-roll or a reveal calls the same one again)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.dice import damage, duel, pool, roll, trait

ROLLERS: dict[str, Callable[[str, Any], Any]] = {
    "r": roll,
    "t": trait,
    "dmg": damage,
    "p": pool,
    "duel": duel,  # seed 003: d10 + modifiers, natural 10 / 1 criticals
}


def make_roll(command: str, args: str, rng: Any) -> Any:
    """Roll `args` with the engine behind `command`; raises DiceError on bad notation."""
    return ROLLERS[command](args, rng)
