"""Dice engine: the notation (parse -> evaluate -> result), the roll commands and /odds.

Pure Python: text -> tokens (lexer) -> AST (parser, syntax) -> compiled evaluation with an
injected RNG (evaluate) -> frozen result dataclasses keeping every face (results).
The plain roll (/r) is built in; each rule system registers its own rolls, their results
and their odds (engine/<system>/, ``RuleSystem.rolls``).
See docs/rules/dice.md for the notation, the limits and the rule readings.
"""

from __future__ import annotations

from .errors import ERROR_CODES, DiceError
from .notation import roll
from .odds import odds
from .results import (
    DiceGroup,
    Die,
    ExpressionResult,
    Literal,
    Modifier,
    OddsResult,
    OutcomeOdds,
    RollResult,
    ThresholdOdds,
    Token,
)
from .rng import Rng, ScriptedRng, ScriptExhausted, system_rng
from .serialize import result_from_dict

__all__ = [
    "ERROR_CODES",
    "DiceError",
    "DiceGroup",
    "Die",
    "ExpressionResult",
    "Literal",
    "Modifier",
    "OddsResult",
    "OutcomeOdds",
    "Rng",
    "RollResult",
    "ScriptExhausted",
    "ScriptedRng",
    "ThresholdOdds",
    "Token",
    "odds",
    "result_from_dict",
    "roll",
    "system_rng",
]
