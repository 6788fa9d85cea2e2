"""Dice results as chat text: every die shown (aces 💥, dropped and re-rolled dice struck
through, counted successes in bold), the modifiers, the total and the outcome in words."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from aiogram import html
from aiogram.utils.i18n import I18n, ngettext
from aiogram.utils.i18n import gettext as _
from babel.numbers import format_decimal

from bot.render.common import bold_name, quoted
from engine.dice.results import (
    DamageResult,
    DiceGroup,
    Die,
    DuelCheckResult,
    ExpressionResult,
    Modifier,
    OddsResult,
    PoolResult,
    RollResult,
    TraitResult,
)

ACE = "💥"
# A whole message may have 4096 characters; a result body stays well below, leaving room for
# the header, a receipt or the reveal around it.
MAX_BODY_CHARS = 3000


# -- building blocks -------------------------------------------------------------------------
def die_face(die: Die) -> str:
    text = str(die.value) + (ACE if die.exploded else "")
    if not die.counted:  # dropped by keep/drop, or replaced by a re-roll
        return html.strikethrough(text)
    if die.success:
        return html.bold(text)
    return text


def faces(dice: Iterable[Die]) -> str:
    return "[" + ", ".join(die_face(d) for d in dice) + "]"


def group_text(group: DiceGroup) -> str:
    return f"{quoted(group.notation)} {faces(group.dice)}"


def signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"


def expression_text(result: ExpressionResult) -> str:
    parts: list[str] = []
    for token in result.tokens:
        if isinstance(token, DiceGroup):
            parts.append(group_text(token))
        else:
            parts.append(quoted(token.text.replace("-", "−")))
    text = " ".join(parts).replace("( ", "(").replace(" )", ")")
    return text


def comment_text(comment: str) -> str:
    return f" — {html.italic(quoted(comment))}" if comment else ""


def capped_note() -> str:
    return _("(the dice stopped exploding at the limit)")


def modifier_label(label: str) -> str:
    labels = {
        "modifier": "",
        "trait_bonus": _("trait bonus"),
        "unskilled": _("unskilled"),
        "joker": _("Joker"),
        "wounds": _("wounds"),
        "fatigue": _("fatigue"),
        "distracted": _("Distracted"),
        "multi_action": _("multi-action"),
    }
    return labels.get(label, quoted(label))


def modifiers_text(modifiers: Iterable[Modifier]) -> str:
    items = []
    for mod in modifiers:
        label = modifier_label(mod.label)
        items.append(f"{signed(mod.value)} ({label})" if label else signed(mod.value))
    return " ".join(items)


def percent(probability: Any) -> str:
    locale = I18n.get_current().current_locale
    value = float(probability) * 100
    return format_decimal(value, format="0.0#", locale=locale) + "%"


# -- /r --------------------------------------------------------------------------------------
def expression_outcome(result: ExpressionResult) -> str:
    if not result.counts_successes:
        return html.bold(str(result.total))
    if result.botch:
        return html.bold(_("Critical failure (botch)"))
    return _("successes: {count}").format(count=html.bold(str(result.total)))


def roll_body(result: RollResult) -> str:
    numbered = len(result.results) > 1
    lines = []
    for index, item in enumerate(result.results, start=1):
        prefix = f"{index}) " if numbered else ""
        line = f"{prefix}{expression_text(item)} = {expression_outcome(item)}"
        if item.capped:
            line += " " + capped_note()
        lines.append(line)
    if sum(len(line) for line in lines) > MAX_BODY_CHARS:
        # Telegram refuses messages over 4096 characters: keep every total, drop the faces.
        lines = [_("(too many dice to show each one)")] + [
            f"{index}) {expression_outcome(item)}" if numbered else expression_outcome(item)
            for index, item in enumerate(result.results, start=1)
        ]
    return "\n".join(lines)


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


# -- whole messages --------------------------------------------------------------------------
def render_result(result: Any) -> str:
    """The body of any roll result (no header): used in chats, private copies and reveals."""
    header = result_header(result)
    if isinstance(result, RollResult):
        body = roll_body(result)
    elif isinstance(result, TraitResult):
        body = trait_body(result)
    elif isinstance(result, DamageResult):
        body = damage_body(result)
    elif isinstance(result, PoolResult):
        body = pool_body(result)
    elif isinstance(result, DuelCheckResult):
        body = duel_body(result)
    else:
        raise TypeError(f"cannot render {type(result).__name__}")
    return header + "\n" + body


def result_header(result: Any) -> str:
    comment = comment_text(getattr(result, "comment", ""))
    if isinstance(result, TraitResult):
        # The modifiers are listed, translated, in the body: the header names the die only.
        die = html.code(f"d{result.trait_die.sides}")
        what = _("trait roll {expression}").format(expression=die)
        if not result.wild_card:
            what += " " + _("(Extra, no Wild Die)")
    elif isinstance(result, DamageResult):
        what = _("damage {expression}").format(expression=html.code(quoted(result.expression)))
    elif isinstance(result, PoolResult):
        what = pool_title(result)
    elif isinstance(result, DuelCheckResult):
        what = _("duel check {expression}").format(expression=html.code(quoted(result.expression)))
    else:
        what = html.code(quoted(result.expression))
    return f"{what}{comment}"


def roll_message(roller: str, result: Any) -> str:
    return f"🎲 {bold_name(roller)}: {render_result(result)}"


def app_roll_message(roller: str, result: Any) -> str:
    """A roll made in the Mini App, posted to the game's chat."""
    return _("🎲 {name} (from the Mini App): {result}").format(
        name=bold_name(roller), result=render_result(result)
    )


def reroll_message(roller: str, result: Any) -> str:
    return _("🔁 {name} rerolls: {result}").format(
        name=bold_name(roller), result=render_result(result)
    )


def not_your_roll() -> str:
    return _("Only the one who rolled can reroll.")


def usage(command: str) -> str:
    examples = {
        "r": "<code>/r 2к6+1</code>, <code>/r 4d6kh3</code>, <code>/r d20+5 атака</code>",
        "t": "<code>/t d8+1</code>, <code>/t d12+2 -2 цн 6</code>",
        "dmg": "<code>/dmg 2d6+1 vs 6</code>, <code>/dmg 2к6+1 против 6</code>",
        "p": "<code>/p 7 6</code>, <code>/p 7 сл 6 спец вс</code>",
        "duel": "<code>/d +2</code>, <code>/d +1 трюк</code>, <code>/d -1 цн 7 уклонение</code>",
        "odds": "<code>/odds d8+1</code>, <code>/odds p 7 6</code>",
    }
    return _("Write what to roll, for example: {examples}").format(examples=examples[command])


# -- /odds -----------------------------------------------------------------------------------
def outcome_name(system: str, name: str) -> str:
    names = {
        "critical_failure": _("critical failure"),
        "failure": pool_failure() if system == "storyteller" else _("failure"),
        "success": _("success"),
        "raise": _("raise"),
        "botch": _("botch"),
    }
    return names.get(name, quoted(name))


def threshold_name(system: str, at_least: int) -> str:
    if system == "storyteller":
        return ngettext("at least {count} success", "at least {count} successes", at_least).format(
            count=at_least
        )
    return ngettext("at least {count} raise", "at least {count} raises", at_least).format(
        count=at_least
    )


def odds_message(result: OddsResult, args: str) -> str:
    """`args` as the user wrote them (the engine's normalised form has English words)."""
    lines = [_("📊 Exact odds of {expression}").format(expression=html.code(quoted(args)))]
    for item in result.outcomes:
        lines.append(
            f"{outcome_name(result.system, item.name)}: {html.bold(percent(item.probability))}"
            f" ({item.probability})"
        )
    for threshold in result.thresholds:
        lines.append(
            f"{threshold_name(result.system, threshold.at_least)}: "
            f"{html.bold(percent(threshold.probability))}"
        )
    return "\n".join(lines)
