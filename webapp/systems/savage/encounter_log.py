"""The encounter's public log: the latest steps of the stream as structured JSON items, so
every viewer of the initiative board sees what just happened (the chat posts the same
steps as text, bot/render/combat_events.py).

Each step is ``{"step", "items": [...]}``, oldest first; an item is ``{"kind", "who", ...}``
with names resolved from the encounter. A trait roll keeps its total, TN, outcome, raises
and labelled modifiers; damage its total against the Toughness it met (seed 000 lines
60-62: below Toughness nothing, Toughness to +3 Shaken, each full 4 over it a Wound).
Nothing here is secret: the chat shows every one of these rolls to the table. Not sent:
the dice faces (the die types of a sheet), the damage dice text (the attacker's Strength
die), the deck's order and drawn cards.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from engine import savage
from engine.dice.results import TraitResult
from engine.savage import events as ev

LOG_STEPS = 8  # steps shown
STEP_ITEMS = 12  # items per step at most (a deal of many fighters stays short)
# event types read from the stream (the rest — deck, cards, turn ends — the board shows)
LOGGED = frozenset(
    cls.__name__
    for cls in (
        ev.CombatantAdded,
        ev.CombatantRemoved,
        ev.RoundStarted,
        ev.TurnStarted,
        ev.HoldTaken,
        ev.TurnQueued,
        ev.HoldLost,
        ev.Interrupted,
        ev.ActionsDeclared,
        ev.Rolled,
        ev.Rerolled,
        ev.DamageRolled,
        ev.DamagePending,
        ev.DamageSoaked,
        ev.DamageApplied,
        ev.Incapacitated,
        ev.BleedingOutResolved,
        ev.ShakenSet,
        ev.ShakenRemoved,
        ev.FreeActionsOnly,
        ev.StunnedSet,
        ev.StunnedRemoved,
        ev.ConditionAdded,
        ev.ConditionRemoved,
        ev.FatigueChanged,
        ev.BennySpent,
        ev.BenniesGiven,
        ev.StatusSet,
    )
)

_SNAKE = re.compile(r"(?<=[a-z])(?=[A-Z])")
Names = Callable[[str], str]
Item = dict[str, Any]


def names_of(state: savage.Encounter, steps: Iterable[Iterable[ev.Event]]) -> Names:
    """id -> name: the encounter's fighters, and those added in the steps (since removed)."""
    known: dict[str, str] = {}
    for step in steps:
        for e in step:
            if isinstance(e, ev.CombatantAdded):
                known[e.combatant.id] = e.combatant.name
                known.update((m.id, m.name) for m in e.combatant.members)
    for c in state.combatants:
        known[c.id] = c.name
        known.update((m.id, m.name) for m in c.members)
    return lambda some_id: known.get(some_id, some_id)


def _roll(r: TraitResult) -> Item:
    return {
        "total": r.total,
        "tn": r.tn,
        "outcome": r.outcome,
        "raises": r.raises,
        "mods": [[m.label, m.value] for m in r.modifiers if m.value],
    }


def _rolled(base: Item, e: ev.Rolled | ev.Rerolled, name: Names) -> Item:
    target = name(e.target) if e.target else None
    item = base | {"purpose": e.purpose, "trait": e.trait, "target": target, **_roll(e.result)}
    if isinstance(e, ev.Rerolled):
        item |= {"kept": e.kept, "previous": e.previous.total}
    return item


def _damage(base: Item, e: ev.DamageRolled, name: Names) -> Item:
    r, out = e.result, e.result.outcome
    return base | {
        "by": name(e.attacker),
        "total": r.total,
        "toughness": r.effective_toughness,
        "ap": r.ap,
        "outcome": out.kind if out else None,
        "wounds": out.wounds if out else 0,
    }


# the one field a simple event adds to "kind" and "who"
_EXTRA: dict[type[ev.Event], str] = {
    ev.ActionsDeclared: "count",
    ev.DamagePending: "wounds",
    ev.DamageSoaked: "soaked",
    ev.BleedingOutResolved: "outcome",
    ev.HoldLost: "reason",
    ev.FatigueChanged: "level",
    ev.BenniesGiven: "count",
    ev.ShakenRemoved: "reason",
}


def kind_of(e: ev.Event) -> str:
    """The event's type in snake case: "rolled", "damage_rolled", "turn_started", …"""
    return _SNAKE.sub("_", type(e).__name__).lower()


def _item(e: ev.Event, name: Names) -> Item | None:
    who = getattr(e, "character", None) or getattr(e, "combatant", None)
    base: Item = {"kind": kind_of(e), "who": name(who) if isinstance(who, str) else None}
    if isinstance(e, ev.Rolled | ev.Rerolled):
        return _rolled(base, e, name)
    if isinstance(e, ev.DamageRolled):
        return _damage(base, e, name)
    if isinstance(e, ev.CombatantAdded):
        return base | {"who": e.combatant.name}
    if isinstance(e, ev.RoundStarted):
        return base | {"round": e.round}
    if isinstance(e, ev.TurnStarted):
        return base | {"via": e.via}
    if isinstance(e, ev.Interrupted):
        return base | {"target": name(e.target), "winner": name(e.winner), "tie": e.simultaneous}
    if isinstance(e, ev.DamageApplied):
        if not (e.wounds or e.shaken or e.clear_shaken):
            return None
        return base | {"wounds": e.wounds, "shaken": e.shaken, "soaked_all": e.clear_shaken}
    if isinstance(e, ev.ConditionAdded):
        return base | {"condition": e.condition.kind, "value": e.condition.value}
    if isinstance(e, ev.ConditionRemoved):
        return None if e.reason == "used" else base | {"condition": e.kind}
    if isinstance(e, ev.BennySpent):
        return None if e.purpose == "reroll" else base | {"purpose": e.purpose}
    if isinstance(e, ev.Incapacitated):
        injury = e.injury.kind if e.injury else None
        return base | {"outcome": e.outcome, "injury": injury}
    if isinstance(e, ev.StatusSet):
        return base | {"changes": dict(e.changes)}
    extra = _EXTRA.get(type(e))
    return base | ({extra: getattr(e, extra)} if extra else {})


def encounter_log(state: savage.Encounter, steps: list[list[ev.Event]]) -> list[dict[str, Any]]:
    """The latest ``LOG_STEPS`` steps that say something, oldest first."""
    name = names_of(state, steps)
    out: list[dict[str, Any]] = []
    for events in steps:
        items = [item for e in events if (item := _item(e, name))]
        if items:
            out.append({"step": events[0].step, "items": items[:STEP_ITEMS]})
    return out[-LOG_STEPS:]
