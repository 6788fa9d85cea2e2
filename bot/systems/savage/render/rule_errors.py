"""Refusals of the SWADE combat and chase engines (RuleError / ChaseError codes) as short
Russian sentences, plus the bot's own argument errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aiogram.utils.i18n import gettext as _

from bot.render.common import code, quoted

Params = dict[str, Any]


def _p(params: Params, key: str) -> str:
    return quoted(str(params.get(key, "?")))


def _plus_one(params: Params, key: str) -> str:
    """Card numbers: the engine counts from 0, people from 1."""
    value = params.get(key)
    return str(value + 1) if isinstance(value, int) else "?"


def _combat_messages() -> dict[str, Callable[[Params], str]]:
    return {
        "sheet_empty": lambda p: _("The character text is empty."),
        "sheet_no_name": lambda p: _("The character text must start with a name."),
        "sheet_bad_die": lambda p: _(
            "{fragment} is not a trait die: write d4, d6, d8, d10, d12 or d12+1."
        ).format(fragment=code(str(p.get("fragment", "")))),
        "sheet_bad_number": lambda p: _("A number is expected here: {fragment}").format(
            fragment=code(str(p.get("fragment", "")))
        ),
        "sheet_unknown_part": lambda p: _("I can't read this part: {fragment}").format(
            fragment=code(str(p.get("fragment", "")))
        ),
        "sheet_duplicate": lambda p: _("This is written twice: {fragment}").format(
            fragment=code(str(p.get("fragment", "")))
        ),
        "sheet_bad_json": lambda p: _("This JSON is not a character."),
        "bad_group_size": lambda p: _("A group of Extras has from 1 to {max} members.").format(
            max=_p(p, "max")
        ),
        "combatant_exists": lambda p: _("This fighter is already in the fight."),
        "unknown_combatant": lambda p: _("There is no such fighter in the fight: {id}").format(
            id=_p(p, "id")
        ),
        "no_round": lambda p: _("No round is running: deal the cards first (/deal or /next)."),
        "no_combatants": lambda p: _("Nobody to deal cards to: add fighters with /add."),
        "damage_pending": lambda p: _(
            "First settle the damage that waits: Soak with a benny (/soak) or take it (/take)."
        ),
        "no_damage_pending": lambda p: _("No damage waits for this character."),
        "deck_exhausted": lambda p: _("The action deck has run out of cards."),
        "not_your_character": lambda p: _(
            "This is not your character: you can act only for your own."
        ),
        "gm_only": lambda p: _("Only the GM can do that."),
        "nothing_to_reroll": lambda p: _(
            "There is no trait roll of this character to re-roll this turn."
        ),
        "reroll_not_allowed": lambda p: _(
            "A benny cannot re-roll this roll (damage, resisting a Test, the interrupt, "
            "Bleeding Out and Incapacitation rolls are not re-rolled)."
        ),
        "reroll_critical_failure": lambda p: _("A critical failure cannot be re-rolled."),
        "reroll_too_late": lambda p: _(
            "Too late to re-roll: the roll's result has already been used (the damage is "
            "rolled or the bonus is spent)."
        ),
        "not_your_turn": lambda p: _("It is not this character's turn."),
        "already_acted": lambda p: _("This character has already acted this round."),
        "on_hold_already": lambda p: _("This character is already on Hold."),
        "not_on_hold": lambda p: _("This character is not on Hold."),
        "cannot_hold": lambda p: _(
            "A Shaken, Stunned or Incapacitated character cannot go on Hold."
        ),
        "cannot_act_now": lambda p: _(
            "Only someone on Hold or with an unused Joker may act out of order."
        ),
        "nothing_to_interrupt": lambda p: _("Nobody is acting now: there is nothing to interrupt."),
        "cannot_interrupt_self": lambda p: _("A character cannot interrupt itself."),
        "no_card": lambda p: _("This fighter has no action card."),
        "no_bennies": lambda p: _("No bennies left."),
        "not_a_wild_card": lambda p: _("Only Wild Cards can do that."),
        "bad_amount": lambda p: _("The amount must be a positive number."),
        "not_shaken": lambda p: _("The character is not Shaken."),
        "incapacitated": lambda p: _("An Incapacitated character cannot act."),
        "dead": lambda p: _("The character is dead."),
        "stunned": lambda p: _("A Stunned character cannot act."),
        "shaken_free_actions_only": lambda p: _(
            "A Shaken character may take free actions only (a benny removes Shaken: /unshake)."
        ),
        "unknown_condition": lambda p: _("Unknown condition: {kind}").format(kind=_p(p, "kind")),
        "not_entangled": lambda p: _("The character is neither Entangled nor Bound."),
        "cannot_soak_shaken_only": lambda p: _(
            "Soak works against Wounds, not against Shaken alone."
        ),
        "too_many_actions": lambda p: _(
            "No actions left this turn (declared: {declared}, at most three)."
        ).format(declared=_p(p, "declared")),
        "actions_already_declared": lambda p: _("Actions are declared before the first roll."),
        "defend_no_other_actions": lambda p: _("Defend and Aim take the whole turn."),
        "cannot_support_self": lambda p: _("A character cannot Support itself."),
        "unknown_trait": lambda p: _("Unknown attribute or skill: {trait}").format(
            trait=_p(p, "trait")
        ),
        "bad_modifier": lambda p: _("This modifier cannot be used here."),
        "bad_target": lambda p: _("This target cannot be chosen."),
    }


def _chase_messages() -> dict[str, Callable[[Params], str]]:
    return {
        "not_started": lambda p: _("The chase has not been set up yet."),
        "already_started": lambda p: _("The chase has already been set up."),
        "chase_over": lambda p: _("The chase is over."),
        "bad_row_size": lambda p: _("A row has from {min} to {max} cards.").format(
            min=_p(p, "min"), max=_p(p, "max")
        ),
        "deck_exhausted": lambda p: _("The chase deck has only {left} cards left.").format(
            left=_p(p, "left")
        ),
        "bad_option": lambda p: _("This chase setting cannot have that value."),
        "bad_skill": lambda p: _("The maneuvering skill needs a die from d4 to d12."),
        "bad_movement": lambda p: _("Unknown way of moving."),
        "special_needs_skill": lambda p: _("A special way of moving needs a named skill."),
        "duplicate_participant": lambda p: _("{participant} is already in the chase.").format(
            participant=_p(p, "participant")
        ),
        "unknown_participant": lambda p: _("{participant} is not in the chase.").format(
            participant=_p(p, "participant")
        ),
        "bad_position": lambda p: _(
            "There is no card {position}: the row has {count} cards."
        ).format(position=_plus_one(p, "position"), count=_plus_one(p, "last")),
        "bad_leader": lambda p: _("This participant cannot lead that group."),
        "not_in_group": lambda p: _("This participant is not in a group."),
        "need_two_sides": lambda p: _("A chase needs participants on two sides."),
        "no_round": lambda p: _("No chase round has started."),
        "turn_in_progress": lambda p: _("{participant} is already taking a turn.").format(
            participant=_p(p, "participant")
        ),
        "no_turn": lambda p: _(
            "{participant} is not taking a turn now: wait for its action card."
        ).format(participant=_p(p, "participant")),
        "turn_lost": lambda p: _("{participant} has lost the rest of the turn.").format(
            participant=_p(p, "participant")
        ),
        "not_active": lambda p: _("{participant} is out of the chase.").format(
            participant=_p(p, "participant")
        ),
        "moved_by_leader": lambda p: _("{participant} moves with the group's leader.").format(
            participant=_p(p, "participant")
        ),
        "pending_choice": lambda p: _("The GM must first choose the critical failure's outcome."),
        "bad_modifier": lambda p: _("A modifier must be between −{max} and +{max}.").format(
            max=_p(p, "max")
        ),
        "bad_actions": lambda p: _("From 1 to 3 actions, at least as many as already taken."),
        "bad_health": lambda p: _("Wounds and Fatigue go from 0 to 3."),
        "bad_direction": lambda p: _("The direction is «вперёд» or «назад»."),
        "bad_cards": lambda p: _("From {min} to {max} cards.").format(
            min=_p(p, "min"), max=_p(p, "max")
        ),
        "already_changed_position": lambda p: _(
            "{participant} has already changed position this turn."
        ).format(participant=_p(p, "participant")),
        "dropped_back": lambda p: _(
            "{participant} dropped back this turn and cannot change position."
        ).format(participant=_p(p, "participant")),
        "not_linear": lambda p: _("Dropping back is possible only in a linear chase."),
        "bump_self": lambda p: _("Nobody can bump themselves."),
        "bump_own_side": lambda p: _("You can bump only an opponent."),
        "bump_limit": lambda p: _("This target has already been bumped by you this turn."),
        "unknown_pending": lambda p: _("That choice has already been made."),
        "not_opposing_side": lambda p: _("Only the opposing side chooses this direction."),
        "bad_choice": lambda p: _("There is no such choice."),
        "not_on_same_card": lambda p: _("Melee needs both on the same chase card."),
        "no_opponents": lambda p: _("There is no opponent left in the chase."),
        "flee_too_close": lambda p: _(
            "Flee needs at least {required} cards to the nearest opponent (now {distance})."
        ).format(required=_p(p, "required"), distance=_p(p, "distance")),
        "bad_end_reason": lambda p: _("The GM cannot end a chase for that reason."),
        "unknown_side": lambda p: _("There is no such side in the chase: {side}").format(
            side=_p(p, "side")
        ),
    }


def combat_error_text(error_code: str, params: Params) -> str:
    render = _combat_messages().get(error_code)
    return render(params) if render else _("The rules do not allow that.")


def chase_error_text(error_code: str, params: Params) -> str:
    render = _chase_messages().get(error_code)
    return render(params) if render else _("The rules do not allow that.")


def bad_word(word: str) -> str:
    return _("I don't understand {word} here.").format(word=f"«{code(word)}»")


def unknown_name(word: str) -> str:
    return _("Nobody in the fight is called {word}.").format(word=f"«{quoted(word)}»")


def which_one(name: str) -> str:
    return _("{name} is a group: name one of its members, e.g. «{name} 1».").format(
        name=quoted(name)
    )


def whose() -> str:
    return _("Whom do you mean? Name the character.")
