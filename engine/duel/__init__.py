"""The forum duel (seed 003), pure: fighters and classes as data, sheets, hidden turn
submissions with their checks, the proposed resolution of a turn and its application, and
the descriptions of a resolved turn. See docs/rules/duel.md."""

from __future__ import annotations

from .actions import DIRECTIONS, Action, Attack, Block, Direction, Dodge, FullDefense, Trick
from .adjust import set_roll, set_value
from .check import SubmissionCheck, allowed_actions, check_submission, plan, submit
from .classes import BUILTIN, KENSEI, OROCHI, RAIDER, class_table, find_class, validate_class
from .combatant import FighterState
from .commands import (
    Adjust,
    Command,
    Configure,
    DefaultTurn,
    PassDeadline,
    Publish,
    SetDeadline,
    Stop,
    Submit,
)
from .deadline import default_defense, is_overdue
from .decide import decide, evolve, propose, replay
from .describe import describe_fighter, describe_step, describe_submission, post
from .dice import dice_hash, verify_dice
from .errors import ERROR_CODES, DuelError
from .events import (
    EVENTS,
    Adjusted,
    Configured,
    DeadlinePassed,
    DeadlineSet,
    DiceDrawn,
    Event,
    Stopped,
    Submitted,
    TurnPublished,
    event_from_dict,
)
from .export import export_text
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
from .observe import audience, gm_reviews, observe
from .options import (
    DEFAULT_OPTIONS,
    MAX_DEADLINE_HOURS,
    POLICIES,
    Deadline,
    DuelOptions,
    Policy,
)
from .proposal import Proposal, Published, Reveal, Sealed, Step
from .resolve import apply, resolve_turn
from .rules import RULES
from .sheet import ParsedSheet, class_from_json, fighter_from_json, format_sheet, parse_sheet
from .state import DuelState, new_duel
from .submission import ActionRoll, Bonus, Submission

__all__ = [
    "BASE_MOVE",
    "BUILTIN",
    "DEFAULT_OPTIONS",
    "DIRECTIONS",
    "ERROR_CODES",
    "EVENTS",
    "KENSEI",
    "MAX_AP_PER_ACTION",
    "MAX_DEADLINE_HOURS",
    "OROCHI",
    "PLAIN",
    "POLICIES",
    "RAIDER",
    "RULES",
    "START_SP",
    "TURN_AP",
    "Action",
    "ActionRoll",
    "Adjust",
    "Adjusted",
    "Attack",
    "Block",
    "Bonus",
    "Command",
    "Configure",
    "Configured",
    "Deadline",
    "DeadlinePassed",
    "DeadlineSet",
    "DefaultTurn",
    "DiceDrawn",
    "Direction",
    "Dodge",
    "DuelError",
    "DuelOptions",
    "DuelState",
    "Event",
    "Fighter",
    "FighterClass",
    "FighterState",
    "FullDefense",
    "Move",
    "ParsedSheet",
    "PassDeadline",
    "Policy",
    "Proposal",
    "Publish",
    "Published",
    "Reveal",
    "Sealed",
    "SetDeadline",
    "Stats",
    "Step",
    "Stop",
    "Stopped",
    "Submission",
    "SubmissionCheck",
    "Submit",
    "Submitted",
    "Trick",
    "TrickEffect",
    "TurnPublished",
    "allowed_actions",
    "apply",
    "audience",
    "check_submission",
    "class_from_json",
    "class_table",
    "decide",
    "default_defense",
    "describe_fighter",
    "describe_step",
    "describe_submission",
    "dice_hash",
    "event_from_dict",
    "evolve",
    "export_text",
    "fighter_from_json",
    "find_class",
    "format_sheet",
    "gm_reviews",
    "is_overdue",
    "new_duel",
    "observe",
    "parse_sheet",
    "plan",
    "post",
    "propose",
    "replay",
    "resolve_turn",
    "set_roll",
    "set_value",
    "submit",
    "validate_class",
    "verify_dice",
]
