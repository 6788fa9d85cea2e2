"""Dice engine: notation parser, SWADE / Storyteller / duel rolls and exact odds.

Pure Python: text -> tokens (lexer) -> AST (parser, syntax) -> compiled evaluation with an
injected RNG (evaluate) -> frozen result dataclasses keeping every face (results).
See docs/rules/dice.md for the notation, the limits and the rule readings.
"""

from __future__ import annotations

from .duel import duel
from .errors import ERROR_CODES, DiceError
from .notation import roll
from .odds import odds
from .results import (
    DamageOutcome,
    DamageResult,
    DiceGroup,
    Die,
    DuelCheckResult,
    ExpressionResult,
    Literal,
    Modifier,
    OddsResult,
    OutcomeOdds,
    PoolResult,
    RollResult,
    ThresholdOdds,
    Token,
    TraitResult,
)
from .rng import Rng, ScriptedRng, ScriptExhausted, system_rng
from .serialize import result_from_dict
from .storyteller import pool
from .swade import damage, damage_outcome, trait

__all__ = [
    "ERROR_CODES",
    "DamageOutcome",
    "DamageResult",
    "DiceError",
    "DiceGroup",
    "Die",
    "DuelCheckResult",
    "ExpressionResult",
    "Literal",
    "Modifier",
    "OddsResult",
    "OutcomeOdds",
    "PoolResult",
    "Rng",
    "RollResult",
    "ScriptExhausted",
    "ScriptedRng",
    "ThresholdOdds",
    "Token",
    "TraitResult",
    "damage",
    "damage_outcome",
    "duel",
    "odds",
    "pool",
    "result_from_dict",
    "roll",
    "system_rng",
    "trait",
]
