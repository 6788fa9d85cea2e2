"""Refusals of the Storyteller rules (seed 002): a stable ``code`` and ``params``; each
code's sentence is its English template below (the msgid of the ``engine`` catalog)."""

from __future__ import annotations

from engine import sheet_numbers
from engine.describe import Template
from engine.errors import RuleViolation

FAMILY = "st_rule"

ERROR_CODES: dict[str, Template] = {
    # sheets (params: fragment = the offending part of the text)
    "sheet_empty": "The character text is empty.",
    "sheet_no_name": "The character text must start with «Имя: …».",
    "sheet_bad_number": "A number from 0 to 10 is expected: {fragment}",
    "sheet_bad_weapon": "This weapon cannot be read: {fragment}",
    "sheet_bad_armor": "This armor cannot be read: {fragment}",
    "sheet_bad_health": "These wounds cannot be read: {fragment}",
    "sheet_bad_json": "This JSON is not a Storyteller character.",
    # params: value (as written), max; the same sentence on every sheet
    sheet_numbers.CODE: sheet_numbers.TEMPLATE,
    # pools
    "no_ability": "Without {ability} this action is impossible (the game's option).",
    "bad_actions": "From 1 to {max} actions can be declared.",
    # the fight
    "gm_only": "Only the GM can do that.",
    "not_your_character": "This is not your character: you can act only for your own.",
    "fighter_exists": "This fighter is already in the fight.",
    "unknown_fighter": "There is no such fighter in the fight: {id}",
    "no_round": "No turn is running: roll initiative first.",
    "no_fighters": "Nobody to roll initiative for: add fighters first.",
    "not_your_turn": "It is not this fighter's turn.",
    "already_acted": "This fighter has already acted this turn.",
    "not_delayed": "This fighter has not delayed their action.",
    "incapacitated": "An Incapacitated fighter cannot act.",
    "no_willpower": "No Willpower points left.",
    "cannot_interrupt": "Only a fighter who has not acted this turn may interrupt to defend.",
    "cannot_defend": "This fighter cannot defend against this attack now.",
    "no_block_lethal": "Lethal attacks cannot be blocked without soaking lethal damage.",
    "no_block_aggravated": "Aggravated attacks cannot be blocked: nobody soaks them.",
    "no_block_ranged": "Ranged attacks cannot be blocked.",
    "no_dodge_space": "There is no room to dodge.",
    "no_parry_weapon": "A parry needs a melee weapon.",
    "no_defense_dice": "No dice are left for another defense this turn.",
    "no_aim_blind": "Aimed attacks are impossible when fighting blind.",
    "ambush_in_fight": "An ambush is impossible against someone already in the fight.",
    "unknown_weapon": "This fighter has no such weapon: {weapon}",
    "unknown_target": "Unknown aim target size: {size}",
    "unknown_preset": "Unknown action: {name}",
    "cannot_attack_self": "A fighter cannot attack themselves.",
    "proposal_pending": "The GM is reviewing an attack: wait until it is published.",
    "bad_copies": "From 1 to {max} copies, and only of an NPC template.",
    "no_proposal": "There is no attack waiting for the GM's review.",
    "not_asking": "This attack no longer waits for a defense.",
    # the GM's tables (tables.py)
    "bad_duration": "This time cannot be read: {fragment} (write 12ч, 3д, 2нед or 1мес).",
    "heal_time_range": "A healing time is from 1 hour to 5 years: {fragment}",
    "unknown_damage_type": "There is no such damage type: {fragment}",
    "unknown_level": "There is no such health level: {fragment}",
    "aim_difficulty_range": "An aimed attack adds {low} to {high} to the difficulty, not {value}.",
    "aim_damage_range": "An aimed attack adds {low} to {high} damage dice, not {value}.",
}


class StorytellerError(RuleViolation, family=FAMILY, codes=ERROR_CODES):
    """A refused command of the Storyteller rules: ``code`` (ERROR_CODES) and ``params``."""
