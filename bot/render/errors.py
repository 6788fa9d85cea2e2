"""Errors as short Russian (or English) sentences: dice notation errors point at the
offending fragment; service refusals explain what to do; the rest is «Что-то пошло не так»."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aiogram.utils.i18n import gettext as _

from bot.render.common import code, quoted
from bot.render.games import system_title, systems_list
from bot.systems import registry
from engine.dice import DiceError
from engine.services.errors import ServiceError


def unexpected_error_text() -> str:
    return _("Something went wrong. Please try again a bit later.")


# -- service refusals ------------------------------------------------------------------------
def _service_messages() -> dict[str, Callable[[dict[str, Any]], str]]:
    return {
        "not_gm": lambda p: _("Only the game's GM can do that."),
        "game_exists": lambda p: _(
            "This chat already has a game: {name}. The GM can end it with /endgame."
        ).format(name=f"<b>{quoted(str(p.get('name', '')))}</b>"),
        "no_game": lambda p: _(
            "There is no such game here. Create one with "
            "<code>/newgame &lt;system&gt; &lt;name&gt;</code>."
        ),
        "game_ended": lambda p: _("That game is over."),
        "not_member": lambda p: _("You are not in that game: join it in its chat with /join."),
        "no_user": lambda p: _(
            "I don't know that person yet: they should write in the chat first."
        ),
        "bad_system": lambda p: _("Unknown system. Choose one of: {systems}.").format(
            systems=systems_list()
        ),
        "bad_name": lambda p: _("The game needs a name of at most {max} characters.").format(
            max=p.get("max", 100)
        ),
        "no_roll": lambda p: _("There is no roll #{id}.").format(id=p.get("roll_id", "?")),
        "not_hidden": lambda p: _("Roll #{id} is not hidden: everyone has already seen it.").format(
            id=p.get("roll_id", "?")
        ),
        "already_revealed": lambda p: _("Roll #{id} has already been revealed.").format(
            id=p.get("roll_id", "?")
        ),
        "event_conflict": lambda p: _(
            "Someone changed the game at the same moment. Please repeat the command."
        ),
        "stale_state": lambda p: _("The board has changed since: look at it again."),
        "unknown_scene": lambda p: _("There is no such scene in this game."),
        "scene_active": lambda p: _("This is already going on in this game."),
        "nothing_to_undo": lambda p: _("There is nothing to undo."),
        "stream_closed": lambda p: _("That part of the game is already closed."),
        "wrong_aggregate": lambda p: _("This action does not fit that part of the game."),
        "wrong_system": lambda p: _("This game is played by another system: {system}.").format(
            system=system_title(str(p.get("system", "")))
        ),
        "no_character": lambda p: _("There is no character or template with that name."),
        "not_your_character": lambda p: _("You can change only your own characters."),
    }


def service_error_text(error: ServiceError) -> str:
    render = _service_messages().get(error.code)
    for system in registry.installed():
        render = render or system.service_errors().get(error.code)
    return render(error.params) if render else unexpected_error_text()


# -- dice notation ---------------------------------------------------------------------------
def _dice_messages() -> dict[str, Callable[[dict[str, Any]], str]]:
    return {
        "empty": lambda p: _("Nothing to roll: write, for example, <code>/r 2d6+1</code>"),
        "too_long": lambda p: _("The text is too long: at most {limit} characters").format(
            limit=p.get("limit", "?")
        ),
        "unexpected": lambda p: _("I don't understand this character or word"),
        "incomplete": lambda p: _("The roll ends too early"),
        "unclosed_paren": lambda p: _("A parenthesis is not closed"),
        "number_too_large": lambda p: _("The number is too large: at most {limit}").format(
            limit=p.get("limit", "?")
        ),
        "too_deep": lambda p: _("Too many nested parentheses or signs: at most {limit}").format(
            limit=p.get("limit", "?")
        ),
        "too_many_dice": lambda p: _("Too many dice: at most {limit}").format(
            limit=p.get("limit", "?")
        ),
        "too_many_sides": lambda p: _("Too many sides on a die: at most {limit}").format(
            limit=p.get("limit", "?")
        ),
        "too_many_repeats": lambda p: _("Too many repeats: at most {limit}").format(
            limit=p.get("limit", "?")
        ),
        "bad_count": lambda p: _("There must be at least one die and at least one repeat"),
        "bad_sides": lambda p: _("A die needs at least one side"),
        "bad_modifier": lambda p: _("This modifier cannot be used here"),
        "endless_dice": lambda p: _("These dice would explode or reroll forever"),
        "division_by_zero": lambda p: _("Division by zero"),
        "result_too_large": lambda p: _("The value is too large: at most {limit}").format(
            limit=p.get("limit", "?")
        ),
        "out_of_range": lambda p: _("{what} must be from {min} to {max}").format(
            what=range_subject(str(p.get("what", ""))), min=p.get("min", "?"), max=p.get("max", "?")
        ),
        "bad_die": lambda p: _("A SWADE trait die is d4, d6, d8, d10 or d12"),
    }


def range_subject(what: str) -> str:
    """The thing an `out_of_range` error is about, as the dice engine names it."""
    subjects = {
        "difficulty": _("Difficulty"),
        "dice": _("The number of dice"),
        "tn": _("The target number"),
        "target": _("The target number"),
        "toughness": _("Toughness"),
        "modifier": _("A modifier"),
        "armor": _("Armor"),
        "fatigue": _("Fatigue"),
    }
    return subjects.get(what, _("The value"))


def dice_error_text(error: DiceError) -> str:
    render = _dice_messages().get(error.code)
    sentence = render(dict(error.params or {})) if render else _("I can't read this roll.")
    if error.fragment:
        return _("{sentence} (in {fragment})").format(
            sentence=sentence, fragment=f"«{code(error.fragment)}»"
        )
    return sentence
