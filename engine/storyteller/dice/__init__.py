"""The Storyteller's d10 pools (seed 002): the pool roll (/p), its result and exact odds. The
roll command, with the presets of the seed's actions, is in ``commands`` (registered with
the system, engine/services/storyteller)."""

from __future__ import annotations

from .odds import odds_of_pool, pool_odds
from .results import PoolResult
from .rolls import DIFFICULTY_WORDS, PoolSpec, parse_pool, pool, roll_pool

__all__ = [
    "DIFFICULTY_WORDS",
    "PoolResult",
    "PoolSpec",
    "odds_of_pool",
    "parse_pool",
    "pool",
    "pool_odds",
    "roll_pool",
]
