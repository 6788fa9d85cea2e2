"""What each encounter event says: ``describe(event) -> Description | None`` (None: this event
says nothing — the board shows it). One English template per code (the msgid of the
``engine`` catalog); the chat (bot/systems/savage/render/combat_events.py) and the Mini App
log (webapp/systems/savage/encounter_log.py and the page) fill the same sentence.

Params are JSON-safe: combatant ids (``NAME``: the surface names them), numbers, a trait
roll's or a damage roll's ``to_dict()``, cards as codes ("KS"), labels as codes. The kinds
of the params the surfaces render their own way are declared below (``describe.kinds``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import describe
from engine.describe import NAME, Description, Template, label
from engine.savage import events as ev

FAMILY = "encounter"
# surface kinds (engine/describe.py has NAME, CARD and labels)
NAMES = "names"  # a list of ids
TRAIT_ROLL = "trait_roll"  # a TraitResult's to_dict()
TRAIT_ROLLS = "trait_rolls"  # a list of them
DAMAGE_ROLL = "damage_roll"  # a DamageResult's to_dict()
CARD_FACE = "card_face"  # a card's code ("KS", "JokerR")
CARD_FACES = "card_faces"
DEAL_RULES = "deal_rules"  # edge codes that changed a deal (level_headed, quick)
TRAIT = "trait"  # an attribute's or a skill's code
CONDITION = "condition"  # a condition's or a state's code (distracted, shaken)
SIGNED = "signed"  # a number shown with its sign
STRONG = "strong"  # a number shown strong (bold): a roll's total
STRONG_NAME = "strong_name"  # an id, named strong: who takes the turn

TEMPLATES: dict[str, Template] = {
    "joined": "➕ {name} joins the fight",
    "joined_group": "➕ {name} joins the fight: {members}",
    "left": "➖ {name} leaves the fight",
    "shuffled": "🔀 The deck is shuffled.",
    "shuffled_joker": "🔀 A Joker was dealt: the deck is reshuffled.",
    "shuffled_empty": "🔀 The deck ran out: the discards are shuffled in.",
    "shuffled_another_deck": "🔀 One deck is not enough for everyone: another deck is added.",
    "round_started": "Round {round}: cards are dealt.",
    "card_dealt": "{name} ({rules}): {cards} → {card}",
    "joker_dealt": (
        "🃏 JOKER — {name}: +2 to every trait and damage roll this round, and may act at any "
        "moment."
    ),
    "turn_started": "▶️ Turn: {acting}",
    "turn_started_hold": "▶️ Turn: {acting} (from Hold)",
    "turn_started_joker": "▶️ Turn: {acting} (with the Joker, out of order)",
    "turn_started_interrupt": "▶️ Turn: {acting} (interrupting)",
    "turn_started_queued": "▶️ Turn: {acting} (the turn waited for the previous one to end)",
    "turn_started_resume": "▶️ Turn: {acting} (the interrupted turn goes on)",
    "hold_taken": "⏸ {name} goes on Hold.",
    "turn_queued": "⏭ {name} acts right after the current turn.",
    "hold_lost": "{name} loses Hold ({reason}).",
    "interrupted_joker": "✋ {name} interrupts {target} with the Joker.",
    "interrupted_won": (
        "✋ {name}: Athletics {name_total} — {target}: {target_total} → {winner} acts first."
    ),
    "interrupted_tie": (
        "✋ {name}: Athletics {name_total} — {target}: {target_total} → a tie: the actions "
        "are simultaneous."
    ),
    "actions_declared": ("{name} declares {count} action.", "{name} declares {count} actions."),
    "rolled": "🎲 {name} — {trait}: {roll}",
    "rolled_for": "🎲 {name} — {purpose}, {trait}: {roll}",
    "rolled_at": "🎲 {name} — {purpose}, {trait} → {target}: {roll}",
    "rerolled_new": (
        "🎲 {name} re-rolls with a benny — {trait}: {roll}; the new result {total} is kept."
    ),
    "rerolled_new_for": (
        "🎲 {name} re-rolls with a benny — {purpose}, {trait}: {roll}; "
        "the new result {total} is kept."
    ),
    "rerolled_new_at": (
        "🎲 {name} re-rolls with a benny — {purpose}, {trait} → {target}: {roll}; "
        "the new result {total} is kept."
    ),
    "rerolled_old": (
        "🎲 {name} re-rolls with a benny — {trait}: {roll}; the earlier result {total} stays."
    ),
    "rerolled_old_for": (
        "🎲 {name} re-rolls with a benny — {purpose}, {trait}: {roll}; "
        "the earlier result {total} stays."
    ),
    "rerolled_old_at": (
        "🎲 {name} re-rolls with a benny — {purpose}, {trait} → {target}: {roll}; "
        "the earlier result {total} stays."
    ),
    "damage_rolled": "💥 Damage to {name}: {damage}",
    "damage_pending": (
        "⏳ {name}: {count} Wound waits — Soak with a benny or take it.",
        "⏳ {name}: {count} Wounds wait — Soak with a benny or take them.",
    ),
    "damage_soaked": ("🛡 {name} soaks {count} Wound.", "🛡 {name} soaks {count} Wounds."),
    "damage_soaked_all": "🛡 {name}: every Wound soaked, no longer Shaken.",
    "wounded": ("🩸 {name} takes {count} Wound.", "🩸 {name} takes {count} Wounds."),
    "shaken": "💫 {name} is Shaken.",
    "incapacitated": "☠️ {name} {outcome}",
    "incapacitated_injured": "☠️ {name} {outcome} — injury: {injury}",
    "bled_out": "☠️ {name} bleeds out and dies.",
    "stable": "{name} is stable.",
    "bleeding_out": "🩸 {name} is still Bleeding Out.",
    "unshaken": "{name} is no longer Shaken.",
    "free_actions_only": "{name} stays Shaken: free actions only this turn.",
    "stunned": "{name} is Stunned.",
    "unstunned": "{name} is no longer Stunned.",
    "supported": "{name}: Support {value} in total.",
    "condition_added": "{name} is now {condition}.",
    "condition_removed": "{name}: {condition} is over",
    "fatigue_changed": "{name}: Fatigue {level}.",
    "benny_spent": "🎲 {name} spends a benny.",
    "bennies_given": ("🎲 {name} gets {count} benny.", "🎲 {name} gets {count} bennies."),
    "status_set": "✏️ {name}: state corrected by the GM.",
}

# what a trait roll was for (the purposes without one say only the trait)
PURPOSES: dict[str, Template] = {
    "attack": "attack",
    "support": "Support",
    "test": "Test",
    "resist": "resists",
    "escape": "breaks free",
    "spirit": "Spirit vs Shaken",
    "stunned": "recovers from Stunned",
    "bleeding_out": "Bleeding Out",
    "soak": "Soak",
    "incapacitation": "Incapacitation",
    "interrupt": "Athletics for the interrupt",
}
AIMED = frozenset({"attack", "support", "test"})  # these name their target

# what an Incapacitation comes to (``Incapacitated.outcome``)
OUTCOMES: dict[str, Template] = {
    "out": "is out of the fight",
    "dead": "dies",
    "bleeding_out": "is Incapacitated and Bleeding Out",
    "injured": "is Incapacitated, injured until the Wounds heal",
    "injured_24h": "is Incapacitated, injured for 24 hours",
    "exhausted": "is Incapacitated by fatigue",
    "other": "is Incapacitated",
}

# a lasting injury of an Incapacitation (``Injury.kind``)
INJURIES: dict[str, Template] = {
    "unmentionables": "unmentionables",
    "arm": "arm",
    "leg": "leg",
    "guts_broken": "guts: broken",
    "guts_battered": "guts: battered",
    "guts_busted": "guts: busted",
    "head_scar": "head: hideous scar",
    "head_blinded": "head: blinded",
    "head_brain_damage": "head: brain damage",
    "other": "an injury",
}

describe.register(FAMILY, TEMPLATES)
describe.register("injury", INJURIES)
describe.register("purpose", PURPOSES)
describe.register("incapacitation", OUTCOMES)
describe.kinds(
    FAMILY,
    name=NAME,
    acting=STRONG_NAME,
    target=NAME,
    winner=NAME,
    members=NAMES,
    roll=TRAIT_ROLL,
    rolls=TRAIT_ROLLS,
    damage=DAMAGE_ROLL,
    cards=CARD_FACES,
    card=CARD_FACE,
    rules=DEAL_RULES,
    trait=TRAIT,
    reason=CONDITION,
    condition=CONDITION,
    injury=label("injury"),
    value=SIGNED,
    total=STRONG,
    name_total=STRONG,
    target_total=STRONG,
    purpose=label("purpose"),
    outcome=label("incapacitation"),
)

# event types that never say anything (the board shows them)
SILENT: frozenset[type[ev.Event]] = frozenset(
    {ev.TurnEnded, ev.RoundEnded, ev.FullTurnTaken, ev.ChaseActionsCounted}
)


def _d(key: str, **params: object) -> Description:
    return Description(f"{FAMILY}.{key}", params)


def _roll_key(base: str, purpose: str, target: str) -> str:
    if purpose not in PURPOSES:
        return base
    return f"{base}_at" if target and purpose in AIMED else f"{base}_for"


def _rolled(e: ev.Rolled) -> Description:
    key = _roll_key("rolled", e.purpose, e.target)
    params = {"name": e.character, "purpose": e.purpose, "trait": e.trait}
    return _d(key, **params, target=e.target, roll=e.result.to_dict())


def _rerolled(e: ev.Rerolled) -> Description:
    kept = "new" if e.kept == "new" else "old"
    key = _roll_key(f"rerolled_{kept}", e.purpose, e.target)
    total = e.result.total if kept == "new" else e.previous.total
    params = {"name": e.character, "purpose": e.purpose, "trait": e.trait, "total": total}
    params |= {"kept": kept, "previous": e.previous.total}
    return _d(key, **params, target=e.target, roll=e.result.to_dict())


def _joined(e: ev.CombatantAdded) -> Description:
    c = e.combatant
    if len(c.members) > 1:
        return _d("joined_group", name=c.id, members=[m.id for m in c.members])
    return _d("joined", name=c.id)


def _card_dealt(e: ev.CardDealt) -> Description | None:
    """A Joker is announced (seed 000 lines 13-14); a Level Headed, Hesitant or Quick draw
    told in one short line; an ordinary card says nothing (the board shows it)."""
    if e.kept.is_joker:
        return _d("joker_dealt", name=e.combatant)
    if len(e.drawn) < 2 and not e.rules:
        return None
    cards = [c.code for c in e.drawn]
    return _d("card_dealt", name=e.combatant, cards=cards, card=e.kept.code, rules=list(e.rules))


def _turn_started(e: ev.TurnStarted) -> Description:
    via = e.via if f"turn_started_{e.via}" in TEMPLATES else ""
    return _d(f"turn_started_{via}" if via else "turn_started", acting=e.combatant)


def _interrupted(e: ev.Interrupted) -> Description:
    params: dict[str, Any] = {"name": e.combatant, "target": e.target}
    if not e.rolls:
        return _d("interrupted_joker", **params)
    rolls = [r.to_dict() for r in e.rolls]
    params |= {"name_total": e.rolls[0].total, "target_total": e.rolls[1].total}
    if e.simultaneous:
        return _d("interrupted_tie", **params, rolls=rolls)
    return _d("interrupted_won", **params, rolls=rolls, winner=e.winner)


def _damage_applied(e: ev.DamageApplied) -> Description | None:
    if e.clear_shaken:
        return _d("damage_soaked_all", name=e.character)
    if e.wounds:
        return _d("wounded", name=e.character, count=e.wounds)
    return _d("shaken", name=e.character) if e.shaken else None


def _incapacitated(e: ev.Incapacitated) -> Description:
    if e.injury is not None:
        return _d(
            "incapacitated_injured", name=e.character, outcome=e.outcome, injury=e.injury.kind
        )
    return _d("incapacitated", name=e.character, outcome=e.outcome)


def _bleeding(e: ev.BleedingOutResolved) -> Description:
    key = {"dead": "bled_out", "stable": "stable"}.get(e.outcome, "bleeding_out")
    return _d(key, name=e.character)


def _condition_added(e: ev.ConditionAdded) -> Description:
    if e.condition.kind == "support":
        return _d("supported", name=e.character, value=e.condition.value)
    return _d("condition_added", name=e.character, condition=e.condition.kind)


def _shuffled(e: ev.DeckShuffled) -> Description:
    keys = {"joker": "shuffled_joker", "empty": "shuffled_empty"}
    keys["another_deck"] = "shuffled_another_deck"
    return _d(keys.get(e.reason, "shuffled"))


_BY_TYPE: dict[type[ev.Event], Callable[[Any], Description | None]] = {
    ev.CombatantAdded: _joined,
    ev.CombatantRemoved: lambda e: _d("left", name=e.member or e.combatant),
    ev.DeckShuffled: _shuffled,
    ev.RoundStarted: lambda e: _d("round_started", round=e.round),
    ev.CardDealt: _card_dealt,
    ev.TurnStarted: _turn_started,
    ev.HoldTaken: lambda e: _d("hold_taken", name=e.combatant),
    ev.TurnQueued: lambda e: _d("turn_queued", name=e.combatant),
    ev.HoldLost: lambda e: _d("hold_lost", name=e.combatant, reason=e.reason),
    ev.Interrupted: _interrupted,
    ev.ActionsDeclared: lambda e: _d("actions_declared", name=e.character, count=e.count),
    ev.Rolled: _rolled,
    ev.Rerolled: _rerolled,
    ev.DamageRolled: lambda e: _d("damage_rolled", name=e.character, damage=e.result.to_dict()),
    ev.DamagePending: lambda e: _d("damage_pending", name=e.character, count=e.wounds),
    ev.DamageSoaked: lambda e: _d("damage_soaked", name=e.character, count=e.soaked),
    ev.DamageApplied: _damage_applied,
    ev.Incapacitated: _incapacitated,
    ev.BleedingOutResolved: _bleeding,
    ev.ShakenSet: lambda e: _d("shaken", name=e.character),
    ev.ShakenRemoved: lambda e: _d("unshaken", name=e.character),
    ev.FreeActionsOnly: lambda e: _d("free_actions_only", name=e.character),
    ev.StunnedSet: lambda e: _d("stunned", name=e.character),
    ev.StunnedRemoved: lambda e: _d("unstunned", name=e.character),
    ev.ConditionAdded: _condition_added,
    ev.ConditionRemoved: lambda e: (
        None if e.reason == "used" else _d("condition_removed", name=e.character, condition=e.kind)
    ),
    ev.FatigueChanged: lambda e: _d("fatigue_changed", name=e.character, level=e.level),
    ev.BennySpent: lambda e: (
        None if e.purpose == "reroll" else _d("benny_spent", name=e.character)
    ),  # the re-roll's line says it
    ev.BenniesGiven: lambda e: _d("bennies_given", name=e.character, count=e.count),
    ev.StatusSet: lambda e: _d("status_set", name=e.character, changes=dict(e.changes)),
}
DESCRIBED = frozenset(_BY_TYPE)
HEADINGS = frozenset({f"{FAMILY}.round_started"})  # lines that open a part of the log


def describe_event(e: ev.Event) -> Description | None:
    """The event's description, or None when it says nothing."""
    render = _BY_TYPE.get(type(e))
    return render(e) if render is not None else None
