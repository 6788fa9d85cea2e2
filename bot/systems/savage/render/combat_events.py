"""What just happened in an encounter, line by line: cards, turns, every roll with each
modifier («d8=5 +2 Джокер −1 Рана = 6 против 4 → успех»), damage and states."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from aiogram import html
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup
from aiogram.utils.i18n import gettext as _
from aiogram.utils.i18n import ngettext

from bot.render.common import quoted
from bot.render.dice import damage_outcome, expression_text
from bot.systems.savage.callbacks import BennyRerollCallback
from bot.systems.savage.render.combat_labels import (
    card_text,
    condition_label,
    injury_label,
    modifier_label,
    outcome_label,
    rule_label,
    signed,
    trait_label,
)
from engine.dice.results import DamageResult, DiceGroup, Modifier, TraitResult
from engine.savage import Encounter, RuleError, rerollable
from engine.savage import events as ev

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


def _purpose(purpose: str, trait: str) -> str:
    labels = {
        "attack": _("attack"),
        "support": _("Support"),
        "test": _("Test"),
        "resist": _("resists"),
        "escape": _("breaks free"),
        "spirit": _("Spirit vs Shaken"),
        "stunned": _("recovers from Stunned"),
        "bleeding_out": _("Bleeding Out"),
        "soak": _("Soak"),
        "incapacitation": _("Incapacitation"),
        "interrupt": _("Athletics for the interrupt"),
    }
    text = labels.get(purpose)
    return f"{text}, {trait_label(trait)}" if text else trait_label(trait)


def _rolled(e: ev.Rolled, name: Names) -> str:
    head = f"🎲 {name(e.character)} — {_purpose(e.purpose, e.trait)}"
    if e.target and e.purpose in ("attack", "support", "test"):
        head += f" → {name(e.target)}"
    return f"{head}: {trait_text(e.result)}"


def _rerolled(e: ev.Rerolled, name: Names) -> str:
    head = _("🎲 {name} re-rolls with a benny — {purpose}").format(
        name=name(e.character), purpose=_purpose(e.purpose, e.trait)
    )
    if e.target and e.purpose in ("attack", "support", "test"):
        head += f" → {name(e.target)}"
    if e.kept == "new":
        kept = _("the new result {total} is kept").format(total=html.bold(str(e.result.total)))
    else:
        kept = _("the earlier result {total} stays").format(total=html.bold(str(e.previous.total)))
    return f"{head}: {trait_text(e.result)}; {kept}."


def _turn_started(e: ev.TurnStarted, name: Names) -> str:
    via = {
        "hold": _("from Hold"),
        "joker": _("with the Joker, out of order"),
        "interrupt": _("interrupting"),
        "queued": _("after the interrupter"),
        "resume": _("the interrupted turn goes on"),
    }.get(e.via)
    text = _("▶️ Turn: <b>{name}</b>").format(name=name(e.combatant))
    return f"{text} ({via})" if via else text


def _interrupted(e: ev.Interrupted, name: Names) -> str:
    if not e.rolls:
        return _("✋ {name} interrupts {target} with the Joker.").format(
            name=name(e.combatant), target=name(e.target)
        )
    rolls = " / ".join(f"{trait_text(r)}" for r in e.rolls)
    if e.simultaneous:
        result = _("a tie: the actions are simultaneous")
    else:
        result = _("{name} acts first").format(name=name(e.winner))
    return _("✋ {name} interrupts {target}: Athletics {rolls}; {result}.").format(
        name=name(e.combatant), target=name(e.target), rolls=rolls, result=result
    )


def _card_dealt(e: ev.CardDealt, name: Names) -> str | None:
    if len(e.drawn) < 2 and not e.rules:
        return None
    return _("🃏 {name}: drew {cards}, keeps {card} ({rules})").format(
        name=name(e.combatant),
        cards=" ".join(card_text(c) for c in e.drawn),
        card=card_text(e.kept),
        rules=", ".join(rule_label(r) for r in e.rules),
    )


def _incapacitated(e: ev.Incapacitated, name: Names) -> str:
    outcome = {
        "out": _("is out of the fight"),
        "dead": _("dies"),
        "bleeding_out": _("is Incapacitated and Bleeding Out"),
        "injured": _("is Incapacitated, injured until the Wounds heal"),
        "injured_24h": _("is Incapacitated, injured for 24 hours"),
        "exhausted": _("is Incapacitated by fatigue"),
    }.get(e.outcome, quoted(e.outcome))
    text = f"☠️ {name(e.character)} {outcome}"
    if e.injury is not None:
        text += " — " + _("injury: {injury}").format(injury=injury_label(e.injury.kind))
    return text


def _condition_removed(e: ev.ConditionRemoved, name: Names) -> str | None:
    if e.reason == "used":
        return None
    return _("{name}: {condition} is over").format(
        name=name(e.character), condition=condition_label(e.kind)
    )


def _line(e: ev.Event, name: Names) -> str | None:
    if isinstance(e, ev.CombatantAdded):
        c = e.combatant
        members = ", ".join(quoted(m.name) for m in c.members) if len(c.members) > 1 else ""
        text = _("➕ {name} joins the fight").format(name=quoted(c.name))
        return f"{text}: {members}" if members else text
    if isinstance(e, ev.CombatantRemoved):
        return _("➖ {name} leaves the fight").format(name=name(e.combatant))
    if isinstance(e, ev.DeckShuffled):
        return {
            "joker": _("🔀 A Joker was dealt: the deck is reshuffled."),
            "empty": _("🔀 The deck ran out: the discards are shuffled in."),
        }.get(e.reason, _("🔀 The deck is shuffled."))
    if isinstance(e, ev.RoundStarted):
        return _("<b>Round {round}</b>: cards are dealt.").format(round=e.round)
    if isinstance(e, ev.CardDealt):
        return _card_dealt(e, name)
    if isinstance(e, ev.TurnStarted):
        return _turn_started(e, name)
    if isinstance(e, ev.HoldTaken):
        return _("⏸ {name} goes on Hold.").format(name=name(e.combatant))
    if isinstance(e, ev.TurnQueued):
        return _("⏭ {name} acts right after the current turn.").format(name=name(e.combatant))
    if isinstance(e, ev.HoldLost):
        return _("{name} loses Hold ({reason}).").format(
            name=name(e.combatant), reason=condition_label(e.reason)
        )
    if isinstance(e, ev.Interrupted):
        return _interrupted(e, name)
    if isinstance(e, ev.ActionsDeclared):
        return ngettext(
            "{name} declares {count} action.",
            "{name} declares {count} actions.",
            e.count,
        ).format(name=name(e.character), count=e.count)
    if isinstance(e, ev.Rolled):
        return _rolled(e, name)
    if isinstance(e, ev.Rerolled):
        return _rerolled(e, name)
    if isinstance(e, ev.DamageRolled):
        return _("💥 Damage to {name}: {damage}").format(
            name=name(e.character), damage=damage_text(e.result)
        )
    if isinstance(e, ev.DamagePending):
        return ngettext(
            "⏳ {name}: {count} Wound waits — Soak with a benny or take it.",
            "⏳ {name}: {count} Wounds wait — Soak with a benny or take them.",
            e.wounds,
        ).format(name=name(e.character), count=e.wounds)
    if isinstance(e, ev.DamageSoaked):
        return ngettext(
            "🛡 {name} soaks {count} Wound.", "🛡 {name} soaks {count} Wounds.", e.soaked
        ).format(name=name(e.character), count=e.soaked)
    if isinstance(e, ev.DamageApplied):
        if e.clear_shaken:
            return _("🛡 {name}: every Wound soaked, no longer Shaken.").format(
                name=name(e.character)
            )
        if e.wounds:
            return ngettext(
                "🩸 {name} takes {count} Wound.", "🩸 {name} takes {count} Wounds.", e.wounds
            ).format(name=name(e.character), count=e.wounds)
        if e.shaken:
            return _("💫 {name} is Shaken.").format(name=name(e.character))
        return None
    if isinstance(e, ev.Incapacitated):
        return _incapacitated(e, name)
    if isinstance(e, ev.BleedingOutResolved):
        return {
            "dead": _("☠️ {name} bleeds out and dies."),
            "stable": _("{name} is stable."),
        }.get(e.outcome, _("🩸 {name} is still Bleeding Out.")).format(name=name(e.character))
    if isinstance(e, ev.ShakenSet):
        return _("💫 {name} is Shaken.").format(name=name(e.character))
    if isinstance(e, ev.ShakenRemoved):
        return _("{name} is no longer Shaken.").format(name=name(e.character))
    if isinstance(e, ev.FreeActionsOnly):
        return _("{name} stays Shaken: free actions only this turn.").format(name=name(e.character))
    if isinstance(e, ev.StunnedSet):
        return _("{name} is Stunned.").format(name=name(e.character))
    if isinstance(e, ev.StunnedRemoved):
        return _("{name} is no longer Stunned.").format(name=name(e.character))
    if isinstance(e, ev.ConditionAdded):
        if e.condition.kind == "support":
            return _("{name}: Support {value} in total.").format(
                name=name(e.character), value=signed(e.condition.value)
            )
        return _("{name} is now {condition}.").format(
            name=name(e.character), condition=condition_label(e.condition.kind)
        )
    if isinstance(e, ev.ConditionRemoved):
        return _condition_removed(e, name)
    if isinstance(e, ev.FatigueChanged):
        return _("{name}: Fatigue {level}.").format(name=name(e.character), level=e.level)
    if isinstance(e, ev.BennySpent):
        if e.purpose == "reroll":
            return None  # the re-roll line says it
        return _("🎲 {name} spends a benny.").format(name=name(e.character))
    if isinstance(e, ev.BenniesGiven):
        return ngettext(
            "🎲 {name} gets {count} benny.", "🎲 {name} gets {count} bennies.", e.count
        ).format(name=name(e.character), count=e.count)
    if isinstance(e, ev.StatusSet):
        return _("✏️ {name}: state corrected by the GM.").format(name=name(e.character))
    return None  # TurnEnded, RoundEnded, FullTurnTaken: the board shows them


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
