"""What each fight event says: ``describe_event(event) -> tuple[Description, ...]`` (empty:
it says nothing — the board shows it). One English template per code (the msgid of the
``engine`` catalog); an attack says its steps one line each.

Params are JSON-safe: fighter ids (``NAME``), numbers, a pool roll's ``to_dict()``
(``POOL_ROLL``), labels as codes (defenses, damage types).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import describe
from engine.describe import NAME, Description, Template, label

from . import events as ev
from .combat import DamageStep

FAMILY = "st_fight"
DEFENSES = "st_defense"
DAMAGE_TYPES = "st_damage"
POOL_ROLL = "pool_roll"  # a PoolResult's to_dict()

TEMPLATES: dict[str, Template] = {
    "fighter_added": "➕ {name} joins the fight",
    "fighter_removed": "➖ {name} leaves the fight",
    "ambush_won": (
        "🥷 {name} ambushes {target}: {stealth} against {notice} — attacks first, {target} "
        "cannot defend, +{count} die to the attack.",
        "🥷 {name} ambushes {target}: {stealth} against {notice} — attacks first, {target} "
        "cannot defend, +{count} dice to the attack.",
    ),
    "ambush_tie": (
        "🥷 {name} ambushes {target}: {stealth} against {notice} — a tie: attacks first, "
        "but {target} may defend."
    ),
    "ambush_spotted": (
        "👀 {target} notices {name}: {stealth} against {notice} — the usual initiative."
    ),
    "turn_started": "Turn {round}: initiative is rolled.",
    "turn_ended_nothing": "Everyone yielded: nothing happens this turn.",
    "actions_declared": ("{name} declares {count} action.", "{name} declares {count} actions."),
    "delayed": "⏸ {name} delays the action.",
    "yielded": "⏭ {name} yields the turn.",
    "full_defense": "🛡 {name} only defends this turn.",
    "acted_from_delay": "▶️ {name} acts now, after delaying.",
    "interrupt_point": "✋ {name} spends a Willpower point to defend.",
    "interrupt_success": "✋ {name} interrupts to defend — Willpower: {roll}",
    "interrupt_failed": (
        "✋ {name} fails to interrupt — Willpower: {roll}; the planned action goes on."
    ),
    "willpower_success": "✨ {name} spends a Willpower point: one automatic success.",
    "attack": "⚔️ {name} attacks {target} ({weapon}): {roll}",
    "defense": "🛡 {name} {defense}: {roll}",
    "missed": "The attack misses {target}.",
    "hit": (
        "The attack hits {target}: +{count} damage die.",
        "The attack hits {target}: +{count} damage dice.",
    ),
    "counter": "↩️ {name}'s parry strikes back at {target}.",
    "damage": "💥 Damage to {name}: {roll}",
    "soak": "🛡 {name} soaks: {roll}",
    "wounded": (
        "🩸 {name} takes {count} level of {damage_type} damage.",
        "🩸 {name} takes {count} levels of {damage_type} damage.",
    ),
    "wounded_hidden": "🩸 {name} is hurt.",  # an NPC's levels, for a viewer who may not see them
    "unhurt": "{name} takes no damage.",
    "armor_destroyed": "💔 The armor of {name} is destroyed.",
    "overflow": (
        "{name}: the track is full, {count} bashing level turns lethal.",
        "{name}: the track is full, {count} bashing levels turn lethal.",
    ),
    "incapacitated": "☠️ {name} is Incapacitated.",
    "died": "☠️ {name} dies.",
}
DEFENSE_LABELS: dict[str, Template] = {
    "block": "blocks",
    "dodge": "dodges",
    "parry": "parries",
    "other": "defends",
}
DAMAGE_LABELS: dict[str, Template] = {
    "bashing": "bashing",
    "lethal": "lethal",
    "aggravated": "aggravated",
    "other": "other",
}

describe.register(FAMILY, TEMPLATES)
describe.register(DEFENSES, DEFENSE_LABELS)
describe.register(DAMAGE_TYPES, DAMAGE_LABELS)
describe.kinds(
    FAMILY,
    name=NAME,
    target=NAME,
    roll=POOL_ROLL,
    stealth=POOL_ROLL,
    notice=POOL_ROLL,
    defense=label(DEFENSES),
    damage_type=label(DAMAGE_TYPES),
)


def _d(key: str, **params: object) -> Description:
    return Description(f"{FAMILY}.{key}", params)


Render = Callable[[Any], tuple[Description, ...]]
_BY_TYPE: dict[type[ev.Event], Render] = {}


def _on(cls: type[ev.Event]) -> Callable[[Render], Render]:
    def register(fn: Render) -> Render:
        _BY_TYPE[cls] = fn
        return fn

    return register


_SIMPLE: dict[type[ev.Event], tuple[str, Callable[[Any], dict[str, Any]]]] = {
    ev.FighterAdded: ("fighter_added", lambda e: {"name": e.fighter.id}),
    ev.FighterRemoved: ("fighter_removed", lambda e: {"name": e.fighter}),
    ev.TurnStarted: ("turn_started", lambda e: {"round": e.round}),
    ev.ActionsDeclared: ("actions_declared", lambda e: {"name": e.fighter, "count": e.count}),
    ev.Delayed: ("delayed", lambda e: {"name": e.fighter}),
    ev.Yielded: ("yielded", lambda e: {"name": e.fighter}),
    ev.FullDefenseDeclared: ("full_defense", lambda e: {"name": e.fighter}),
    ev.Incapacitated: ("incapacitated", lambda e: {"name": e.fighter}),
    ev.Died: ("died", lambda e: {"name": e.fighter}),
}


def describe_event(e: ev.Event) -> tuple[Description, ...]:
    simple = _SIMPLE.get(type(e))
    if simple is not None:
        key, params = simple
        return (_d(key, **params(e)),)
    render = _BY_TYPE.get(type(e))
    return render(e) if render is not None else ()


@_on(ev.TurnEnded)
def _turn_ended(e: ev.TurnEnded) -> tuple[Description, ...]:
    return (_d("turn_ended_nothing"),) if e.nothing_happened else ()


@_on(ev.Acted)
def _acted(e: ev.Acted) -> tuple[Description, ...]:
    return (_d("acted_from_delay", name=e.fighter),) if e.from_delay else ()


@_on(ev.AmbushRolled)
def _ambush(e: ev.AmbushRolled) -> tuple[Description, ...]:
    params = {
        "name": e.attacker,
        "target": e.victim,
        "stealth": e.stealth.to_dict(),
        "notice": e.notice.to_dict(),
    }
    if e.outcome == "won":
        return (_d("ambush_won", count=e.bonus, **params),)
    return (_d(f"ambush_{e.outcome}", **params),)


@_on(ev.InterruptRolled)
def _interrupt(e: ev.InterruptRolled) -> tuple[Description, ...]:
    if e.roll is None:
        return (_d("interrupt_point", name=e.fighter),)
    key = "interrupt_success" if e.success else "interrupt_failed"
    return (_d(key, name=e.fighter, roll=e.roll.to_dict()),)


@_on(ev.WillpowerSpent)
def _willpower(e: ev.WillpowerSpent) -> tuple[Description, ...]:
    # an interrupt's point is said by its InterruptRolled
    return (_d("willpower_success", name=e.fighter),) if e.purpose == "success" else ()


def _damage(step: DamageStep) -> list[Description]:
    out = [_d("damage", name=step.victim, roll=step.roll.to_dict())]
    if step.soak is not None:
        out.append(_d("soak", name=step.victim, roll=step.soak.to_dict()))
    if step.armor_destroyed:
        out.append(_d("armor_destroyed", name=step.victim))
    if step.levels:
        out.append(_d("wounded", name=step.victim, count=step.levels, damage_type=step.damage_type))
    else:
        out.append(_d("unhurt", name=step.victim))
    if step.converted:
        out.append(_d("overflow", name=step.victim, count=step.converted))
    return out


@_on(ev.AttackResolved)
def _attack(e: ev.AttackResolved) -> tuple[Description, ...]:
    out = [_d("attack", name=e.attacker, target=e.target, weapon=e.weapon, roll=e.attack.to_dict())]
    if e.defense is not None and e.defense_roll is not None:
        out.append(
            _d("defense", name=e.target, defense=e.defense.kind, roll=e.defense_roll.to_dict())
        )
    if e.hit:
        out.append(_d("hit", target=e.target, count=e.extra))
    else:
        out.append(_d("missed", target=e.target))
    if e.damage is not None:
        out.extend(_damage(e.damage))
    if e.counter is not None:
        out.append(_d("counter", name=e.target, target=e.attacker))
        out.extend(_damage(e.counter))
    return tuple(out)
