"""Savage Worlds' rolls in the chat: the trait roll (/t) with its Wild Die, the damage roll
(/dmg) against Toughness, the names of their odds (/odds d8+1) and of their modifiers;
registered with the system (bot/systems/savage/__init__.py)."""

from __future__ import annotations

from aiogram import html
from aiogram.utils.i18n import gettext as _
from aiogram.utils.i18n import ngettext

from bot.render.common import quoted
from bot.render.dice import (
    DiceTexts,
    OddsTexts,
    RollTexts,
    capped_note,
    expression_text,
    group_text,
    modifiers_text,
)
from bot.systems.savage.render.combat_labels import outcome_label
from engine.savage.dice.results import DamageResult, TraitResult


# -- /t --------------------------------------------------------------------------------------
def trait_outcome(outcome: str, raises: int) -> str:
    if outcome == "raise":
        text = _("raise") if raises <= 1 else _("raise ×{count}").format(count=raises)
    else:
        text = {
            "critical_failure": _("critical failure"),
            "failure": _("failure"),
            "success": _("success"),
        }.get(outcome, quoted(outcome))
    return html.bold(text)


def trait_body(result: TraitResult) -> str:
    used = " ✓"
    dice = [
        _("Trait die {dice} = {value}").format(
            dice=group_text(result.trait_die), value=result.trait_die.value
        )
        + (used if result.wild_die is not None and result.used == "trait" else "")
    ]
    if result.wild_die is not None:
        dice.append(
            _("Wild Die {dice} = {value}").format(
                dice=group_text(result.wild_die), value=result.wild_die.value
            )
            + (used if result.used == "wild" else "")
        )
    lines = ["\n".join(dice)]
    if result.modifiers:
        lines.append(_("Modifiers: {list}").format(list=modifiers_text(result.modifiers)))
    lines.append(
        _("Total {total} vs TN {tn}: {outcome}").format(
            total=html.bold(str(result.total)),
            tn=result.tn,
            outcome=trait_outcome(result.outcome, result.raises),
        )
    )
    return "\n".join(lines)


# -- /dmg ------------------------------------------------------------------------------------
def damage_outcome(result: DamageResult) -> str:
    outcome = result.outcome
    if outcome is None:
        return ""
    if outcome.kind == "wounds":
        text = ngettext("{count} Wound", "{count} Wounds", outcome.wounds).format(
            count=outcome.wounds
        )
        if outcome.shaken:
            text = _("{wounds} + Shaken").format(wounds=text)
    elif outcome.kind == "shaken":
        text = _("Shaken")
    else:
        text = _("no effect")
    return html.bold(text)


def damage_body(result: DamageResult) -> str:
    parts = [expression_text(result.roll)]
    if result.raise_die is not None:
        parts.append("+ " + _("raise {dice}").format(dice=group_text(result.raise_die)))
    if result.modifiers:
        parts.append(modifiers_text(result.modifiers))
    lines = [
        _("Damage: {dice} = {total}").format(
            dice=" ".join(parts), total=html.bold(str(result.total))
        )
    ]
    if result.roll.capped:
        lines.append(capped_note())
    if result.toughness is not None:
        toughness = str(result.toughness)
        if (
            result.effective_toughness is not None
            and result.effective_toughness != result.toughness
        ):
            toughness = _("{toughness} (AP {ap}: {effective})").format(
                toughness=result.toughness, ap=result.ap, effective=result.effective_toughness
            )
        lines.append(
            _("vs Toughness {toughness}: {outcome}").format(
                toughness=toughness, outcome=damage_outcome(result)
            )
        )
    return "\n".join(lines)


def trait_header(result: TraitResult) -> str:
    # The modifiers are listed, translated, in the body: the header names the die only.
    die = html.code(f"d{result.trait_die.sides}")
    what = _("trait roll {expression}").format(expression=die)
    if not result.wild_card:
        what += " " + _("(Extra, no Wild Die)")
    return what


def damage_header(result: DamageResult) -> str:
    return _("damage {expression}").format(expression=html.code(quoted(result.expression)))


# -- /odds -----------------------------------------------------------------------------------
def outcome_name(name: str) -> str:
    return outcome_label(name)  # the same words as a fight's cards


def threshold_name(at_least: int) -> str:
    return ngettext("at least {count} raise", "at least {count} raises", at_least).format(
        count=at_least
    )


TEXTS = DiceTexts(
    results={
        "trait": RollTexts(trait_header, trait_body),
        "damage": RollTexts(damage_header, damage_body),
    },
    odds={"swade": OddsTexts(outcome_name, threshold_name)},
    usage={
        "t": lambda: _("<code>/t d8+1</code>, <code>/t d12+2 -2 tn 6</code>"),
        "dmg": lambda: _("<code>/dmg 2d6+1 vs 6</code>"),
    },
    odds_usage="<code>/odds d8+1</code>",
    hidden_example="<code>/hr t d8</code>",
    hidden_usage=lambda: _("<code>/hr t d8</code> (trait)"),
    modifier_labels={
        "trait_bonus": lambda: _("trait bonus"),
        "unskilled": lambda: _("unskilled"),
        "joker": lambda: _("Joker"),
        "wounds": lambda: _("wounds"),
        "fatigue": lambda: _("fatigue"),
        "distracted": lambda: _("Distracted"),
        "multi_action": lambda: _("multi-action"),
    },
)
