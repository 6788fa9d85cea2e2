"""The forum duel (seed 003), pure: fighters and classes as data, sheets, hidden turn
submissions with their checks, the proposed resolution of a turn and its application, and
the descriptions of a resolved turn. See docs/rules/duel.md."""

from __future__ import annotations

from .actions import DIRECTIONS, Action, Attack, Block, Direction, Dodge, FullDefense, Trick
from .check import SubmissionCheck, allowed_actions, check_submission, plan, submit
from .classes import BUILTIN, KENSEI, OROCHI, RAIDER, class_table, find_class, validate_class
from .describe import describe_fighter, describe_step, describe_submission, post
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
from .options import DEFAULT_OPTIONS, DuelOptions
from .proposal import Proposal, Step
from .resolve import apply, resolve_turn
from .rules import RULES
from .sheet import ParsedSheet, class_from_json, fighter_from_json, format_sheet, parse_sheet
from .state import DuelState, FighterState, new_duel
from .submission import ActionRoll, Bonus, Submission

__all__ = [
    "BASE_MOVE",
    "BUILTIN",
    "DEFAULT_OPTIONS",
    "DIRECTIONS",
    "ERROR_CODES",
    "KENSEI",
    "MAX_AP_PER_ACTION",
    "OROCHI",
    "PLAIN",
    "RAIDER",
    "RULES",
    "START_SP",
    "TURN_AP",
    "Action",
    "ActionRoll",
    "Attack",
    "Block",
    "Bonus",
    "Direction",
    "Dodge",
    "DuelError",
    "DuelOptions",
    "DuelState",
    "Fighter",
    "FighterClass",
    "FighterState",
    "FullDefense",
    "Move",
    "ParsedSheet",
    "Proposal",
    "Stats",
    "Step",
    "Submission",
    "SubmissionCheck",
    "Trick",
    "TrickEffect",
    "allowed_actions",
    "apply",
    "check_submission",
    "class_from_json",
    "class_table",
    "describe_fighter",
    "describe_step",
    "describe_submission",
    "fighter_from_json",
    "find_class",
    "format_sheet",
    "new_duel",
    "parse_sheet",
    "plan",
    "post",
    "resolve_turn",
    "submit",
    "validate_class",
]
