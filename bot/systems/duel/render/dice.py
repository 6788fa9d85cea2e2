"""The duel's check (/d) in the chat: the d10, the modifiers, the criticals and the target;
registered with the system (bot/systems/duel/__init__.py)."""

from __future__ import annotations

from aiogram import html
from aiogram.utils.i18n import gettext as _

from bot.render.common import quoted
from bot.render.dice import DiceTexts, RollTexts, faces, modifiers_text
from engine.duel.roll import DuelCheckResult


# -- duel check ------------------------------------------------------------------------------
def duel_body(result: DuelCheckResult) -> str:
    text = f"d{result.die.sides} {faces([result.die])}"
    if result.modifiers:
        text += " " + modifiers_text(result.modifiers)
    text += f" = {html.bold(str(result.total))}"
    notes = []
    if result.critical == "success":
        notes.append(_("critical success"))
    elif result.critical == "failure":
        notes.append(_("critical failure"))
    if result.target is not None:
        verdict = _("success") if result.success else _("failure")
        notes.append(_("target {target}: {verdict}").format(target=result.target, verdict=verdict))
    return text + ("\n" + html.bold("; ".join(notes)) if notes else "")


def duel_header(result: DuelCheckResult) -> str:
    return _("duel check {expression}").format(expression=html.code(quoted(result.expression)))


TEXTS = DiceTexts(
    results={"duel": RollTexts(duel_header, duel_body)},
    usage={
        "duel": lambda: _(
            "<code>/d +2</code>, <code>/d +1 trick</code>, <code>/d -1 tn 7 dodge</code>"
        )
    },
)
