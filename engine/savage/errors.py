"""Rule violations of the SWADE combat engine: a stable ``code`` and ``params``; each code's
sentence is its English template below (the msgid of the ``engine`` catalog)."""

from __future__ import annotations

from engine import sheet_numbers
from engine.describe import Template
from engine.errors import RuleViolation

ERROR_CODES: dict[str, Template] = {
    # character sheets (params: fragment = the offending part of the text, position)
    "sheet_empty": "The character text is empty.",
    "sheet_no_name": "The character text must start with a name.",
    "sheet_bad_die": "Not a trait die: write d4, d6, d8, d10, d12 or d12+1.",
    "sheet_bad_number": "A number is expected here.",
    "sheet_unknown_part": "This part cannot be read.",
    "sheet_duplicate": "This is written twice.",
    "sheet_bad_json": "This JSON is not a character.",
    # params: value (as written), max; the same sentence on every sheet
    sheet_numbers.CODE: sheet_numbers.TEMPLATE,
    "bad_group_size": "A group of Extras has from 1 to {max} members.",
    "sheet_unknown_owner": "No player of this game is called {name}.",
    # a sheet's warnings (saved anyway; params: name = the part as written)
    "sheet_unknown_trait": "{name} is not a trait I know: kept as a skill of its own.",
    "sheet_unknown_edge": "{name} is not an edge or hindrance I know: kept as written.",
    # encounter set-up
    "combatant_exists": "This fighter is already in the fight.",
    "unknown_combatant": "There is no such fighter in the fight (any more).",
    "no_round": "No round is running: deal the cards first.",
    "no_combatants": "Nobody to deal cards to: add fighters first.",
    "damage_pending": "First settle the damage that waits: Soak it with a benny or take it.",
    "no_damage_pending": "No damage waits for this character.",
    # turns and initiative
    "not_your_character": "This is not your character: you can act only for your own.",
    "gm_only": "Only the GM can do that.",
    "not_your_turn": "It is not this character's turn.",
    "already_acted": "This character has already acted this round.",
    "on_hold_already": "This character is already on Hold.",
    "not_on_hold": "This character is not on Hold.",
    "cannot_hold": "A Shaken, Stunned or Incapacitated character cannot go on Hold.",
    "cannot_act_now": "Only someone on Hold or with an unused Joker may act out of order.",
    "nothing_to_interrupt": "Nobody is acting now: there is nothing to interrupt.",
    "cannot_interrupt_self": "A character cannot interrupt itself.",
    "no_card": "This fighter has no action card.",
    # bennies
    "no_bennies": "No bennies left.",
    "not_a_wild_card": "Only Wild Cards can do that.",
    "nothing_to_reroll": "There is no trait roll of this character to re-roll this turn.",
    "reroll_not_allowed": (
        "A benny cannot re-roll this roll (damage, resisting a Test, the interrupt, "
        "Bleeding Out and Incapacitation rolls are not re-rolled)."
    ),
    "reroll_critical_failure": "A critical failure cannot be re-rolled.",
    "reroll_too_late": (
        "Too late to re-roll: the roll's result has already been used (the damage is "
        "rolled or the bonus is spent)."
    ),
    "bad_amount": "The amount must be a positive number.",
    # states
    "not_shaken": "The character is not Shaken.",
    "incapacitated": "An Incapacitated character cannot act.",
    "dead": "The character is dead.",
    "stunned": "A Stunned character cannot act.",
    "shaken_free_actions_only": (
        "A Shaken character may take free actions only (a benny removes Shaken)."
    ),
    "unknown_condition": "Unknown condition: {kind}",
    "bound": "A Bound character cannot attack or aim: first escape the bonds.",
    "not_entangled": "The character is neither Entangled nor Bound.",
    "cannot_soak_shaken_only": "Soak works against Wounds, not against Shaken alone.",
    # actions
    "too_many_actions": "No actions left this turn (declared: {declared}, at most three).",
    "actions_already_declared": "Actions are declared before the first roll.",
    "defend_no_other_actions": "Defend and Aim take the whole turn.",
    "cannot_support_self": "A character cannot Support itself.",
    "unknown_trait": "Unknown attribute or skill: {trait}",
    "bad_modifier": "This modifier cannot be used here.",
    # who may set what (engine/savage/authority.py)
    "gm_sets_modifier": (
        "Only the GM adds a free modifier to a roll. A player declares the situation: "
        "range, cover, a called shot, Gang Up, Wild Attack, Aim, several actions."
    ),
    "gm_sets_tn": "Only the GM sets another target number: a player rolls against 4.",
    "gm_sets_attribute": "Only the GM picks another attribute to resist a Test.",
    "gm_sets_scene": "In this game the GM sets the light and The Drop.",
    "modifier_out_of_range": "The free modifiers of one roll come to at most ±{max} in all.",
    "bad_tn": "The target number is from 1 to {max}.",
    "bad_target": "This target cannot be chosen.",
}


class RuleError(RuleViolation, family="rule", codes=ERROR_CODES):
    """A refused command: ``code`` (see ERROR_CODES) and ``params`` for the message."""
