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
from bot.render.dice import expression_text
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
from bot.systems.savage.render.dice import damage_outcome
from engine.dice import result_from_dict
from engine.dice.results import DiceGroup, Modifier
from engine.savage import Encounter, RuleError, replay, rerollable
from engine.savage import describe as d
from engine.savage import events as ev
from engine.savage.cards import Card
from engine.savage.describe import describe_event
from engine.savage.dice.results import DamageResult, TraitResult
from engine.savage.encounter import Combatant
from engine.savage.observe import table_sees_dice

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


def trait_result_text(result: TraitResult) -> str:
    """A trait roll without its dice (an NPC's in the group: its die types are its sheet):
    «+2 Джокер = 9 против 8 → успех», «9 против 8 → успех»."""
    values = {
        "total": html.bold(str(result.total)),
        "tn": result.tn,
        "outcome": html.bold(outcome_label(result.outcome, result.raises)),
    }
    mods = modifiers_text(result.modifiers)
    if not mods:
        return _("{total} vs {tn} → {outcome}").format(**values)
    return f"{mods} " + _("= {total} vs {tn} → {outcome}").format(**values)


def damage_text(result: DamageResult, *, dice: bool = True) -> str:
    """``dice`` False: without the dice (an NPC attacker's damage dice hold its Strength)."""
    parts = [expression_text(result.roll)] if dice else []
    if result.raise_die is not None and dice:
        parts.append("+ " + _("raise {die}").format(die=die_text(result.raise_die)))
    if result.modifiers:
        parts.append(modifiers_text(result.modifiers))
    toughness = str(result.effective_toughness)
    if result.effective_toughness != result.toughness:
        toughness = _("{effective} (AP {ap})").format(effective=toughness, ap=result.ap)
    if not parts:
        return _("{total} vs Toughness {toughness} → {outcome}").format(
            total=html.bold(str(result.total)), toughness=toughness, outcome=damage_outcome(result)
        )
    return _("{dice} = {total} vs Toughness {toughness} → {outcome}").format(
        dice=" ".join(parts),
        total=html.bold(str(result.total)),
        toughness=toughness,
        outcome=damage_outcome(result),
    )


def _trait_roll(data: dict[str, Any], *, dice: bool = True) -> str:
    result = result_from_dict(data)
    assert isinstance(result, TraitResult)
    return trait_text(result) if dice else trait_result_text(result)


def _damage_roll(data: dict[str, Any], *, dice: bool = True) -> str:
    result = result_from_dict(data)
    assert isinstance(result, DamageResult)
    return damage_text(result, dice=dice)


def _card(code: str) -> str:
    return card_text(Card.parse(code))


def renderers(name: Names, *, dice: bool = True) -> dict[str, Callable[[Any], str]]:
    """The chat's way with each kind of param of the encounter's descriptions; ``dice``
    False: the rolls without their dice."""
    return {
        d.NAMES: lambda ids: ", ".join(name(i) for i in ids),
        d.STRONG_NAME: lambda some_id: html.bold(name(some_id)),
        d.STRONG: lambda value: html.bold(str(value)),
        d.TRAIT_ROLL: lambda r: _trait_roll(r, dice=dice),
        d.TRAIT_ROLLS: lambda rolls: " / ".join(_trait_roll(r, dice=dice) for r in rolls),
        d.DAMAGE_ROLL: lambda r: _damage_roll(r, dice=dice),
        d.CARD_FACE: _card,
        d.CARD_FACES: lambda codes: " ".join(_card(c) for c in codes),
        d.DEAL_RULES: lambda rules: ", ".join(rule_label(r) for r in rules),
        d.TRAIT: trait_label,
        d.CONDITION: condition_label,
        d.SIGNED: signed,
    }


def rollers(e: ev.Event) -> tuple[str, ...]:
    """Whose dice an event shows: the roller of a trait roll, the attacker of damage (its
    dice hold the Strength die; none for the GM's own damage dice), both sides of an
    interrupt."""
    if isinstance(e, ev.Rolled | ev.Rerolled):
        return (e.character,)
    if isinstance(e, ev.DamageRolled):
        return (e.attacker,) if e.attacker else ()
    if isinstance(e, ev.Interrupted):
        return (e.combatant, e.target) if e.rolls else ()
    return ()


def _line(e: ev.Event, name: Names, *, dice: bool = True) -> str | None:
    description = describe_event(e)
    if description is None:
        return None
    line = texts.text(description, name, renderers(name, dice=dice))
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


Shown = Callable[[str], bool]  # may the group see the dice of this character's rolls?


def events_text(events: Iterable[ev.Event], name: Names, shown: Shown | None = None) -> str:
    """The events line by line; ``shown``: whose dice the group may see (None: everyone's,
    the GM's private copy), the rest without their dice (`group_texts`)."""
    lines = []
    for e in events:
        dice = shown is None or all(shown(who) for who in rollers(e))
        if line := _line(e, name, dice=dice):
            lines.append(line)
    return "\n".join(lines)


def group_texts(
    events: Iterable[ev.Event], name: Names, *states: Encounter
) -> tuple[str, str | None]:
    """The events for the group, and the full text for the GM when the group's leaves out
    dice (None: nothing left out). Whose dice the group sees: `table_sees_dice` of the
    first state that knows the character (engine/savage/observe.py, the one rule)."""
    events = tuple(events)

    def shown(some_id: str) -> bool:
        known = [s for s in states if any(some_id in _ids(c) for c in s.combatants)]
        return bool(known) and table_sees_dice(known[0], some_id)

    hidden = any(not shown(who) for e in events for who in rollers(e))
    group = events_text(events, name, shown)
    return group, (events_text(events, name) if hidden else None)


def gm_dice_copy(game_name: str, text: str) -> str:
    """The GM's private copy of a step whose NPC dice the group did not get."""
    return _("🎲 With the dice, for the GM only ({game}):").format(game=quoted(game_name)) + (
        "\n" + text
    )


def _ids(c: Combatant) -> set[str]:
    return {c.id, *(m.id for m in c.members)}


def undone_text(events: tuple[ev.Event, ...], after: Encounter) -> str | None:
    """«↩️ Отменено: …» — the first sentence of the undone step, with the names of the state
    the step had made (an undone /add still names who it added: never an id); an NPC's roll
    without its dice (`group_texts`)."""
    made = replay(events, after)
    name = names_of(made, after)
    lines = group_texts(events, name, made, after)[0].splitlines()
    return _("↩️ Undone: {what}").format(what=lines[0]) if lines else None
