"""Refusals of the forum duel engine (seed 003): a stable ``code`` and ``params``; each code's
sentence is its English template below (the msgid of the ``engine`` catalog)."""

from __future__ import annotations

from engine import sheet_numbers
from engine.describe import Template
from engine.errors import RuleViolation

FAMILY = "duel_rule"

ERROR_CODES: dict[str, Template] = {
    # sheets and classes (params: line = the line number counted from 1, text = the line)
    "sheet_empty": "The fighter text is empty.",
    "sheet_bad_value": "Line {line}: «{text}» — a number is expected here.",
    "sheet_bad_die": "Line {line}: «{text}» — a damage die is written dX, e.g. d8.",
    "sheet_missing": "The fighter text lacks: {stat}.",
    "sheet_bad_json": "This JSON is not a duel fighter.",
    # params: value (as written), max; the same sentence on every sheet
    sheet_numbers.CODE: sheet_numbers.TEMPLATE,
    "unknown_class": "There is no such fighter class: {text}",
    "bad_class": "A class must have at least one move, and each move a positive SP cost.",
    # submissions
    "duel_over": "The duel is over.",
    "unknown_fighter": "There is no such fighter in this duel: {fighter}",
    "dead": "A dead fighter cannot act.",
    "wrong_turn": "This submission is for turn {got}, the duel is at turn {turn}.",
    "too_many_actions": "Too many actions: {declared} declared, {allowed} allowed this turn.",
    "too_many_defenses": (
        "Only {count} defense action is allowed this turn.",
        "Only {count} defense actions are allowed this turn.",
    ),
    "one_trick": "Only one trick per turn.",
    "trick_first": "A trick is the first action of a turn.",
    "exhausted_defense_only": "An exhausted fighter has one defense action only.",
    "exhausted_no_ap": "An exhausted fighter cannot use AP.",
    "ap_per_action": "At most {max} AP on one action.",
    "ap_total": "Only {max} AP per turn ({spent} spread).",
    "ap_negative": "AP cannot be negative.",
    "bad_situational": "A situational bonus is from −{max} to +{max}.",
    "no_ap_to_damage": "AP cannot raise damage (only a class that allows it).",
    "no_full_dodge": "Only a class that allows it may take full defense by dodging.",
    "full_defense_alone": "Full defense takes both actions: no other defense with it.",
    "unknown_move": "This fighter has no such move: {move}",
    "duel_bad_side": "There is no side «{direction}»: left, right or top.",
    "bad_dice": "The dice of this submission do not match its actions.",
    "not_your_fighter": "This is not your fighter: you can submit only for your own.",
    "gm_only": "Only the GM publishes a turn.",
    "both_in": "Both fighters have submitted: the turn waits for the GM.",
    "bad_adjustment": "This cannot be set: {field}",
    "options_between_turns": "The readings change between turns, not while submissions wait.",
    "missing_submission": "Both fighters must submit before the turn is resolved.",
    "stale_proposal": "This proposal is for turn {got}, the duel is at turn {turn}.",
    # the deadline
    "bad_deadline": "A turn's deadline is from 1 to {max} hours.",
    "deadline_not_due": "This turn's deadline has not come (or has been dealt with).",
    "deadline_not_passed": "A default defense is sealed only once the turn's deadline passed.",
    "deadline_waits": "This duel waits for the fighters at the deadline: no default defense.",
    "already_sent": "This fighter has sent the turn already.",
    "sealed_at_deadline": "The turn's deadline has passed: a sealed turn is not changed now.",
}


class DuelError(RuleViolation, family=FAMILY, codes=ERROR_CODES):
    """A refused sheet, submission or resolution: ``code`` (ERROR_CODES) and ``params``."""
