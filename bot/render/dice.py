"""Dice results as chat text: every die shown (aces 💥, dropped and re-rolled dice struck
through, counted successes in bold), the modifiers, the total and the outcome in words.

The plain roll (/r) is shown here; a rule system's rolls by the texts it registers (its
`ChatSystem.dice`, bot/systems/registry.py): a header and a body per result kind, the names
of its odds' outcomes and thresholds, the examples of its commands."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic, TypeVar

from aiogram import html
from aiogram.utils.i18n import I18n
from aiogram.utils.i18n import gettext as _
from babel.numbers import format_decimal

from bot.render.common import bold_name, quoted
from engine.dice.results import (
    DiceGroup,
    Die,
    ExpressionResult,
    Modifier,
    OddsResult,
    RollResult,
    Serializable,
)

ACE = "💥"
# A whole message may have 4096 characters; a result body stays well below, leaving room for
# the header, a receipt or the reveal around it.
MAX_BODY_CHARS = 3000


R = TypeVar("R")  # a kind's result class


@dataclass(frozen=True)
class RollTexts(Generic[R]):
    """How the chat shows one kind of result: `header` — what was rolled («2d6+1»),
    before the comment; `body` — the dice and the outcome (both of the kind's own result
    class, checked where the texts are made)."""

    header: Callable[[R], str]
    body: Callable[[R], str]


@dataclass(frozen=True)
class OddsTexts:
    """The names of one system's odds (``OddsResult.system``) in /odds."""

    outcome: Callable[[str], str]  # an outcome's name
    threshold: Callable[[int], str]  # «at least N raises»


@dataclass(frozen=True)
class DiceTexts:
    """A rule system's rolls in the chat."""

    # by the result's kind (Any: each kind its own result class)
    results: Mapping[str, RollTexts[Any]] = field(default_factory=dict)
    odds: Mapping[str, OddsTexts] = field(default_factory=dict)  # by OddsResult.system
    # roll code -> its examples (HTML), in the user's language (their words are the parser's)
    usage: Mapping[str, Callable[[], str]] = field(default_factory=dict)
    odds_usage: str = ""  # examples of its /odds (HTML)
    # modifier label -> its name (Modifier.label; "modifier" is the user's own number)
    modifier_labels: Mapping[str, Callable[[], str]] = field(default_factory=dict)
    hidden_example: str = ""  # a hidden roll of its own, for /help: «<code>/hr t d8</code>»
    hidden_usage: Callable[[], str] | None = None  # … with what it is, for /hr's usage


_TEXTS: dict[str, DiceTexts] = {}


def register_texts(system: str, texts: DiceTexts) -> None:
    """Install a system's dice texts (bot/systems/registry.py does, once per system)."""
    kinds = {kind for other in _TEXTS.values() for kind in other.results}
    if system in _TEXTS or kinds & set(texts.results):
        raise ValueError(f"the dice texts of {system!r} are registered already")
    _TEXTS[system] = texts


def _result_texts(result: Serializable) -> RollTexts[Any] | None:
    kind = getattr(result, "kind", None)
    if not isinstance(kind, str):
        return None
    return next((t.results[kind] for t in _TEXTS.values() if kind in t.results), None)


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
    if label == "modifier":  # typed by the user: the number says it all
        return ""
    for texts in _TEXTS.values():
        if label in texts.modifier_labels:
            return texts.modifier_labels[label]()
    return quoted(label)


def modifiers_text(modifiers: Iterable[Modifier]) -> str:
    items = []
    for mod in modifiers:
        label = modifier_label(mod.label)
        items.append(f"{signed(mod.value)} ({label})" if label else signed(mod.value))
    return " ".join(items)


def percent(probability: Fraction | float) -> str:
    i18n = I18n.get_current()
    locale = i18n.current_locale if i18n is not None else "ru"
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


# -- whole messages --------------------------------------------------------------------------
def render_result(result: Serializable) -> str:
    """The body of any roll result (no header): used in chats, private copies and reveals."""
    header = result_header(result)
    texts = _result_texts(result)
    if texts is not None:
        body = texts.body(result)
    elif isinstance(result, RollResult):
        body = roll_body(result)
    else:
        raise TypeError(f"cannot render {type(result).__name__}")
    return header + "\n" + body


def result_header(result: Serializable) -> str:
    comment = comment_text(getattr(result, "comment", ""))
    texts = _result_texts(result)
    if texts is not None:
        what = texts.header(result)
    elif isinstance(result, RollResult):
        what = html.code(quoted(result.expression))
    else:
        raise TypeError(f"cannot render {type(result).__name__}")
    return f"{what}{comment}"


def roll_message(roller: str, result: Serializable) -> str:
    return f"🎲 {bold_name(roller)}: {render_result(result)}"


def app_roll_message(roller: str, result: Serializable) -> str:
    """A roll made in the Mini App, posted to the game's chat."""
    return _("🎲 {name} (from the Mini App): {result}").format(
        name=bold_name(roller), result=render_result(result)
    )


def reroll_message(roller: str, result: Serializable) -> str:
    return _("🔁 {name} rerolls: {result}").format(
        name=bold_name(roller), result=render_result(result)
    )


def not_your_roll() -> str:
    return _("Only the one who rolled can reroll.")


def hidden_examples() -> str:
    """The systems' hidden rolls, for /help: «<code>/hr t d8</code>, <code>/hr p 7 6</code>»."""
    return ", ".join(t.hidden_example for t in _TEXTS.values() if t.hidden_example)


def hidden_usage() -> str:
    """/hr's examples: the plain roll's, then each system's with what it is."""
    found = [t.hidden_usage() for t in _TEXTS.values() if t.hidden_usage is not None]
    return ", ".join([_("<code>/hr 2d6+1</code>"), *found])


def usage(command: str) -> str:
    if command == "odds":
        found = ", ".join(t.odds_usage for t in _TEXTS.values() if t.odds_usage)
    elif command == "r":
        found = _("<code>/r 2d6+1</code>, <code>/r 4d6kh3</code>, <code>/r d20+5 attack</code>")
    else:
        found = next(t.usage[command]() for t in _TEXTS.values() if command in t.usage)
    return _("Write what to roll, for example: {examples}").format(examples=found)


# -- /odds -----------------------------------------------------------------------------------
def _odds_texts(system: str) -> OddsTexts | None:
    return next((t.odds[system] for t in _TEXTS.values() if system in t.odds), None)


def outcome_name(system: str, name: str) -> str:
    texts = _odds_texts(system)
    return texts.outcome(name) if texts is not None else quoted(name)


def threshold_name(system: str, at_least: int) -> str:
    texts = _odds_texts(system)
    return texts.threshold(at_least) if texts is not None else f"≥ {at_least}"


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
