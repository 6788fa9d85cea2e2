"""The Storyteller's d10 pools in the chat (/p): the dice, the successes and what cancels
them, the names of the pool's odds (/odds p 7 6); registered with the system
(bot/systems/storyteller/__init__.py)."""

from __future__ import annotations

from aiogram import html
from aiogram.utils.i18n import gettext as _
from aiogram.utils.i18n import ngettext

from bot.render.common import quoted
from bot.render.dice import DiceTexts, OddsTexts, RollTexts, capped_note, faces
from engine.storyteller.dice.results import PoolResult


# -- /p --------------------------------------------------------------------------------------
def pool_title(result: PoolResult) -> str:
    flags = []
    if result.mode == "damage":
        flags.append(_("damage"))
    elif result.mode == "soak":
        flags.append(_("soak"))
    if result.specialty:
        flags.append(_("specialty"))
    if result.willpower:
        flags.append(_("Willpower"))
    title = ngettext(
        "pool of {count} die, difficulty {difficulty}",
        "pool of {count} dice, difficulty {difficulty}",
        result.dice_count,
    ).format(count=result.dice_count, difficulty=result.difficulty)
    return title + (f" ({', '.join(flags)})" if flags else "")


def pool_failure() -> str:
    """A pool with no net success. The seed's word is «неудача»; «провал» is its botch
    («Неудача не меняет ничего, а провал означает…», seed 002), whatever word other systems'
    rolls use for a plain failure."""
    return _("failure (no successes)")


def pool_outcome(result: PoolResult) -> str:
    if result.botch:
        return html.bold(_("Critical failure (botch)"))
    if result.net <= 0:
        return html.bold(pool_failure())
    return _("successes: {count}").format(count=html.bold(str(result.net)))


def pool_body(result: PoolResult) -> str:
    dice = faces(result.dice)
    if result.bonus_dice:
        dice += " + " + _("specialty {dice}").format(dice=faces(result.bonus_dice))
    lines = [dice]
    details = [
        ngettext("{count} success", "{count} successes", result.successes).format(
            count=result.successes
        )
    ]
    if result.ones:
        details.append(
            ngettext("{count} one cancels", "{count} ones cancel", result.ones).format(
                count=result.ones
            )
        )
    if result.auto_successes:
        details.append(_("+{count} for Willpower").format(count=result.auto_successes))
    lines.append(", ".join(details) + " → " + pool_outcome(result))
    if result.capped:
        lines.append(capped_note())
    return "\n".join(lines)


# -- /odds -----------------------------------------------------------------------------------
def outcome_name(name: str) -> str:
    names = {"botch": _("botch"), "failure": pool_failure(), "success": _("success")}
    return names.get(name, quoted(name))


def threshold_name(at_least: int) -> str:
    return ngettext("at least {count} success", "at least {count} successes", at_least).format(
        count=at_least
    )


TEXTS = DiceTexts(
    results={"pool": RollTexts(pool_title, pool_body)},
    odds={"storyteller": OddsTexts(outcome_name, threshold_name)},
    usage={"p": lambda: _("<code>/p 7 6</code>, <code>/p 7 diff 6 spec wp</code>")},
    odds_usage="<code>/odds p 7 6</code>",
    hidden_example="<code>/hr p 7 6</code>",
    hidden_usage=lambda: _("<code>/hr p 7 6</code> (pool)"),
)
