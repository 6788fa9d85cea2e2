"""The Storyteller's roll command (engine/dice/commands.py), registered with the system."""

from __future__ import annotations

from engine.dice.commands import RollCommand
from engine.storyteller.preset_rolls import explain, pool_or_preset

from .odds import odds_of_pool

# seed 002: a pool, or a preset of the seed's actions (`/p прыжок 4`)
POOL = RollCommand(
    "p",
    "pool",
    ("p",),
    ("p", "п", "пул"),
    pool_or_preset,
    explain,
    odds=odds_of_pool,
    odds_words=("p", "п", "пул", "pool"),
)
ROLLS = (POOL,)
