"""The forum duel (seed 003), pure: fighters and classes as data, sheets, hidden turn
submissions with their checks, the proposed resolution of a turn and its application, and
the descriptions of a resolved turn. See docs/rules/duel.md."""

from __future__ import annotations

from .classes import BUILTIN, KENSEI, OROCHI, RAIDER, class_table, find_class, validate_class
from .errors import ERROR_CODES, DuelError
from .fighter import (
    BASE_MOVE,
    MAX_AP_PER_ACTION,
    PLAIN,
    START_SP,
    TURN_AP,
    Fighter,
    FighterClass,
    Move,
    Stats,
    TrickEffect,
)
from .sheet import ParsedSheet, class_from_json, fighter_from_json, format_sheet, parse_sheet

__all__ = [
    "BASE_MOVE",
    "BUILTIN",
    "ERROR_CODES",
    "KENSEI",
    "MAX_AP_PER_ACTION",
    "OROCHI",
    "PLAIN",
    "RAIDER",
    "START_SP",
    "TURN_AP",
    "DuelError",
    "Fighter",
    "FighterClass",
    "Move",
    "ParsedSheet",
    "Stats",
    "TrickEffect",
    "class_from_json",
    "class_table",
    "fighter_from_json",
    "find_class",
    "format_sheet",
    "parse_sheet",
    "validate_class",
]
