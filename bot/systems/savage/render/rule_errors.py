"""Refusals of the SWADE combat and chase engines (RuleError / ChaseError codes) in the chat:
the shared sentence of the code (engine catalog) with the chat's command hints, plus the bot's
own argument errors."""

from __future__ import annotations

from typing import Any

from aiogram.utils.i18n import gettext as _

from bot.render import texts
from bot.render.common import code, quoted
from engine.savage import RuleError
from engine.savage.chase import ChaseError

Params = dict[str, Any]


# The chat's additions to a shared sentence (engine/savage/errors.py): its commands.
def _combat_hints() -> dict[str, str]:
    return {
        "no_round": _("{sentence} Commands: /deal or /next."),
        "no_combatants": _("{sentence} Command: /add."),
        "damage_pending": _("{sentence} Commands: /soak or /take."),
        "shaken_free_actions_only": _("{sentence} Command: /unshake."),
        "gm_sets_scene": _("{sentence} The GM may let the players: /scene игроки."),
    }


# a character sheet's refusals about one part of the text point at it
POINTED = frozenset({"sheet_bad_die", "sheet_bad_number", "sheet_unknown_part", "sheet_duplicate"})


def _pointed(sentence: str, params: Params) -> str:
    """«… (in «d7»).», as a notation error points at its fragment."""
    fragment = params.get("fragment")
    if not fragment:
        return sentence
    stop = "." if sentence.endswith(".") else ""
    pointed = _("{sentence} (in {fragment})").format(
        sentence=sentence.removesuffix("."), fragment=f"«{code(str(fragment))}»"
    )
    return pointed + stop


def combat_error_text(error_code: str, params: Params) -> str:
    if error_code not in RuleError.codes:
        return _("The rules do not allow that.")
    sentence = texts.text(RuleError(error_code, params).description)
    hint = _combat_hints().get(error_code)
    sentence = hint.format(sentence=sentence) if hint else sentence
    return _pointed(sentence, params) if error_code in POINTED else sentence


def chase_error_text(error_code: str, params: Params, name: texts.Names | None = None) -> str:
    """The refusal; ``name`` names the participants (their ids else)."""
    if error_code not in ChaseError.codes:
        return _("The rules do not allow that.")
    return texts.text(ChaseError(error_code, params).description, name)


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
