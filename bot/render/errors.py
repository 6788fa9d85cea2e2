"""Errors as short Russian (or English) sentences: dice notation errors point at the
offending fragment; service refusals explain what to do; the rest is «Что-то пошло не так»."""

from __future__ import annotations

from aiogram.utils.i18n import gettext as _

from bot.render import texts
from bot.render.common import code, quoted
from bot.render.games import system_title, systems_list
from engine.dice import DiceError
from engine.services.errors import ServiceError


def unexpected_error_text() -> str:
    return _("Something went wrong. Please try again a bit later.")


def database_unreachable_text() -> str:
    return _("The database is out of reach: nothing was stored. Try again in a minute.")


# -- service refusals ------------------------------------------------------------------------
# The chat's additions to a shared sentence (engine/services/errors.py): its commands.
def _service_hints() -> dict[str, str]:
    return {
        "game_exists": _("{sentence} The GM can end it with /endgame."),
        "no_game": _(
            "{sentence} Create one with <code>/newgame &lt;system&gt; &lt;name&gt;</code>."
        ),
        "not_member": _("{sentence} Join it in its chat with /join."),
        "bad_system": _("{sentence} Choose one of: {systems}."),
    }


def _service_params(error: ServiceError) -> dict[str, str]:
    if error.code == "game_exists":
        return {"name": f"<b>{quoted(str(error.params.get('name', '')))}</b>"}
    if error.code == "wrong_system":
        return {"system": system_title(str(error.params.get("system", "")))}
    return {}


def service_error_text(error: ServiceError) -> str:
    sentence = texts.error_text(error, _service_params(error))
    if sentence is None:
        return unexpected_error_text()
    hint = _service_hints().get(error.code)
    return hint.format(sentence=sentence, systems=systems_list()) if hint else sentence


# -- dice notation ---------------------------------------------------------------------------
def dice_error_text(error: DiceError) -> str:
    sentence = texts.error_text(error) or _("I can't read this roll.")
    if error.code == "empty":
        sentence = _("{sentence}: write, for example, <code>/r 2d6+1</code>").format(
            sentence=sentence
        )
    if error.fragment:
        return _("{sentence} (in {fragment})").format(
            sentence=sentence, fragment=f"«{code(error.fragment)}»"
        )
    return sentence
