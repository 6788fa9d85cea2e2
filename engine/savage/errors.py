"""Rule violations. `code` is stable; the bot renders it in Russian through gettext."""

from __future__ import annotations

from typing import Any


class RuleError(ValueError):
    """A refused command: ``code`` (see ERROR_CODES) and ``params`` for the message."""

    def __init__(self, code: str, params: dict[str, Any] | None = None) -> None:
        if code not in ERROR_CODES:
            raise KeyError(f"unknown rule error code {code!r}")
        self.code = code
        self.params: dict[str, Any] = dict(params or {})
        super().__init__(code, self.params)


ERROR_CODES: dict[str, str] = {
    # character sheets (params: fragment = the offending part of the text)
    "sheet_empty": "The character text is empty.",
    "sheet_no_name": "The text does not start with a name.",
    "sheet_bad_die": "Not a trait die (d4, d6, d8, d10, d12, d12+N): {fragment}",
    "sheet_bad_number": "Expected a number: {fragment}",
    "sheet_unknown_part": "Cannot read this part: {fragment}",
    "sheet_duplicate": "Given twice: {fragment}",
    "sheet_bad_json": "The JSON is not a character: {detail}",
    "bad_group_size": "A group of Extras needs 1 to {max} members.",
    # encounter set-up
    "combatant_exists": "A combatant with this id already exists: {id}",
    "unknown_combatant": "No such combatant or character: {id}",
    "no_round": "No round is running: deal the cards first.",
    "no_combatants": "Nobody to deal cards to.",
    "damage_pending": "Damage to {target} waits for Soak or acceptance.",
    "no_damage_pending": "No damage waits for {target}.",
    # turns and initiative
    "not_your_character": "This character belongs to another player.",
    "gm_only": "Only the GM may do this.",
    "deck_exhausted": "Not enough cards left in the deck and the discard pile.",
    "not_your_turn": "It is not this character's turn.",
    "already_acted": "This character has already acted this round.",
    "on_hold_already": "This character is already on Hold.",
    "not_on_hold": "This character is not on Hold.",
    "cannot_hold": "A Shaken or Stunned character cannot go on Hold.",
    "cannot_act_now": "Only a Joker holder or a character on Hold may act out of order.",
    "nothing_to_interrupt": "Nobody is acting now.",
    "cannot_interrupt_self": "A character cannot interrupt itself.",
    "no_card": "This combatant has no action card.",
    # bennies
    "no_bennies": "No bennies left.",
    "not_a_wild_card": "Only Wild Cards may do this.",
    "nothing_to_reroll": "{id} has no trait roll to re-roll this turn.",
    "reroll_not_allowed": "This roll cannot be re-rolled with a benny.",
    "reroll_critical_failure": "A critical failure cannot be re-rolled.",
    "reroll_too_late": "Too late to re-roll: the roll's effect was already used.",
    "bad_amount": "The amount must be a positive number.",
    # states
    "not_shaken": "The character is not Shaken.",
    "incapacitated": "An Incapacitated character cannot act.",
    "dead": "The character is dead.",
    "stunned": "A Stunned character cannot act.",
    "shaken_free_actions_only": "A Shaken character may take free actions only.",
    "unknown_condition": "Unknown condition: {kind}",
    "not_entangled": "The character is neither Entangled nor Bound.",
    "cannot_soak_shaken_only": "Soak works against Wounds, not against Shaken alone.",
    # actions
    "too_many_actions": "At most three actions a turn (declared {declared}).",
    "actions_already_declared": "Actions must be declared before the first roll.",
    "defend_no_other_actions": "Defend and Aim take the whole turn: no other actions.",
    "cannot_support_self": "A character cannot Support itself.",
    "unknown_trait": "Unknown attribute or skill: {trait}",
    "bad_modifier": "A modifier is out of range: {label}",
    "bad_target": "This target cannot be chosen: {id}",
}
