"""What just happened in an encounter, line by line: cards, turns, every roll with each
modifier («d8=5 +2 Джокер −1 Рана = 6 против 4 → успех»), damage and states. The sentence
of each event is its description's (engine/savage/describe.py, shared with the Mini App
log); the chat renders the params its way: quoted names, the dice of a roll with the unused
die struck through, bold totals."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from aiogram import html
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup
from aiogram.utils.i18n import gettext as _

from bot.render import texts
from bot.render.common import quoted
from bot.render.dice import damage_outcome, expression_text
from bot.systems.savage.callbacks import BennyRerollCallback
from bot.systems.savage.render.combat_labels import (
    card_text,
    condition_label,
    modifier_label,
    outcome_label,
    rule_label,
    signed,
    trait_label,
)
from engine.dice import result_from_dict
from engine.dice.results import DamageResult, DiceGroup, Modifier, TraitResult
from engine.savage import Encounter, RuleError, replay, rerollable
from engine.savage import describe as d
from engine.savage import events as ev
from engine.savage.cards import Card
from engine.savage.describe import describe_event

Names = Callable[[str], str]


def names_of(*states: Encounter) -> Names:
    """id -> the HTML-quoted name, looked up in the given states (the first that knows)."""
    known: dict[str, str] = {}
    for state in reversed(states):
        for c in state.combatants:
            known[c.id] = c.name
            for m in c.members:
                known[m.id] = m.name
    return lambda some_id: quoted(known.get(some_id, some_id))


def die_text(group: DiceGroup) -> str:
    """«d8=5», an ace «d8=8💥+3=11»."""
    faces = [f"{d.value}💥" if d.exploded else str(d.value) for d in group.dice if d.counted]
    text = f"d{group.sides}=" + "+".join(faces)
    return text + (f"={group.value}" if len(faces) > 1 else "")


def modifiers_text(modifiers: Iterable[Modifier]) -> str:
    return " ".join(f"{signed(m.value)} {modifier_label(m.label)}" for m in modifiers if m.value)


def trait_text(result: TraitResult) -> str:
    dice = die_text(result.trait_die)
    if result.wild_die is not None:
        wild = _("Wild {die}").format(die=die_text(result.wild_die))
        used_wild = result.used == "wild"
        dice = f"<s>{dice}</s> {wild}" if used_wild else f"{dice} <s>{wild}</s>"
    mods = modifiers_text(result.modifiers)
    total = _("= {total} vs {tn} → {outcome}").format(
        total=html.bold(str(result.total)),
        tn=result.tn,
        outcome=html.bold(outcome_label(result.outcome, result.raises)),
    )
    return " ".join(part for part in (dice, mods, total) if part)


def damage_text(result: DamageResult) -> str:
    parts = [expression_text(result.roll)]
    if result.raise_die is not None:
        parts.append("+ " + _("raise {die}").format(die=die_text(result.raise_die)))
    if result.modifiers:
        parts.append(modifiers_text(result.modifiers))
    toughness = result.effective_toughness
    if result.effective_toughness != result.toughness:
        toughness = _("{effective} (AP {ap})").format(effective=toughness, ap=result.ap)
    return _("{dice} = {total} vs Toughness {toughness} → {outcome}").format(
        dice=" ".join(parts),
        total=html.bold(str(result.total)),
        toughness=toughness,
        outcome=damage_outcome(result),
    )


def _trait_roll(data: dict[str, Any]) -> str:
    result = result_from_dict(data)
    assert isinstance(result, TraitResult)
    return trait_text(result)


def _damage_roll(data: dict[str, Any]) -> str:
    result = result_from_dict(data)
    assert isinstance(result, DamageResult)
    return damage_text(result)


def _card(code: str) -> str:
    return card_text(Card.parse(code))


def renderers(name: Names) -> dict[str, Callable[[Any], str]]:
    """The chat's way with each kind of param of the encounter's descriptions."""
    return {
        d.NAMES: lambda ids: ", ".join(name(i) for i in ids),
        d.STRONG_NAME: lambda some_id: html.bold(name(some_id)),
        d.STRONG: lambda value: html.bold(str(value)),
        d.TRAIT_ROLL: _trait_roll,
        d.TRAIT_ROLLS: lambda rolls: " / ".join(_trait_roll(r) for r in rolls),
        d.DAMAGE_ROLL: _damage_roll,
        d.CARD_FACE: _card,
        d.CARD_FACES: lambda codes: " ".join(_card(c) for c in codes),
        d.DEAL_RULES: lambda rules: ", ".join(rule_label(r) for r in rules),
        d.TRAIT: trait_label,
        d.CONDITION: condition_label,
        d.SIGNED: signed,
    }


def _line(e: ev.Event, name: Names) -> str | None:
    description = describe_event(e)
    if description is None:
        return None
    line = texts.text(description, name, renderers(name))
    return html.bold(line) if description.code in d.HEADINGS else line


def reroll_keyboard(
    events: Iterable[ev.Event], state: Encounter, game_id: int
) -> InlineKeyboardMarkup | None:
    """«🎲 Бенни: перебросить» under the message of a trait roll that a benny may still
    re-roll: the last roll of these events, if it is its character's last roll and the
    character has a benny."""
    rolls = [e for e in events if isinstance(e, ev.Rolled | ev.Rerolled)]
    if not rolls:
        return None
    last = rolls[-1]
    record = state.last_roll(last.character)
    if record is None or record.step != last.step:
        return None
    try:
        rerollable(state, last.character)
    except RuleError:
        return None
    if state.character(last.character).bennies <= 0:
        return None
    data = BennyRerollCallback(game_id=game_id, step=record.step, character=last.character)
    button = InlineKeyboardButton(text=_("🎲 Benny: re-roll"), callback_data=data.pack())
    return InlineKeyboardMarkup(inline_keyboard=[[button]])


def events_text(events: Iterable[ev.Event], name: Names) -> str:
    lines = [line for e in events if (line := _line(e, name))]
    return "\n".join(lines)


def undone_text(events: tuple[ev.Event, ...], after: Encounter) -> str | None:
    """«↩️ Отменено: …» — the first sentence of the undone step, with the names of the state
    the step had made (an undone /add still names who it added: never an id)."""
    name = names_of(replay(events, after), after)
    lines = events_text(events, name).splitlines()
    return _("↩️ Undone: {what}").format(what=lines[0]) if lines else None
