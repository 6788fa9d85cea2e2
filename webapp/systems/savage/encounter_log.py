"""The encounter's public log: the latest steps of the stream as descriptions (code and
params, engine/savage/describe.py), so every viewer of the initiative board sees what just
happened in the sentence the chat posts for the same steps (bot/render/combat_events.py):
the page translates the template of each code (webapp/i18n.py ``descriptions``) and fills it.

Each step is ``{"step", "items": [...], "names": {id: name}}``, oldest first; an item is
``{"kind", "code", "params"}`` (``kind``: the event's type in snake case). Params name fighters
by id; ``names`` has the names of those a step mentions (the encounter's, and those added in
the steps, since removed). A trait roll keeps its total, TN, outcome, raises and labelled
modifiers; damage its total against the Toughness it met (seed 000 lines 60-62: below
Toughness nothing, Toughness to +3 Shaken, each full 4 over it a Wound). Nothing here is
secret: the chat shows every one of these rolls to the table. Not sent: the dice faces (the
die types of a sheet), the damage dice text (the attacker's Strength die), the deck's order
and drawn cards.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from engine import describe
from engine.savage import Encounter
from engine.savage import describe as d
from engine.savage import events as ev

LOG_STEPS = 8  # steps shown
STEP_ITEMS = 12  # items per step at most (a deal of many fighters stays short)
# event types read from the stream (the rest — deck, cards, turn ends — the board shows)
LOGGED = frozenset(
    cls.__name__ for cls in d.DESCRIBED if cls not in (ev.DeckShuffled, ev.CardDealt)
)
NAMED = frozenset({describe.NAME, d.STRONG_NAME})

_SNAKE = re.compile(r"(?<=[a-z])(?=[A-Z])")
Item = dict[str, Any]


def names_of(state: Encounter, steps: Iterable[Iterable[ev.Event]]) -> dict[str, str]:
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
    return known


def _trait_roll(r: dict[str, Any]) -> Item:
    mods = [[m["label"], m["value"]] for m in r.get("modifiers", ()) if m.get("value")]
    keys = ("total", "tn", "outcome", "raises")
    return {key: r.get(key) for key in keys} | {"mods": mods}


def _damage_roll(r: dict[str, Any]) -> Item:
    outcome = r.get("outcome") or {}
    return {
        "total": r.get("total"),
        "toughness": r.get("effective_toughness", r.get("toughness")),
        "ap": r.get("ap", 0),
        "outcome": outcome.get("kind"),
        "wounds": outcome.get("wounds", 0),
    }


def _public(code: str, key: str, value: Any) -> Any:
    """A param as the page gets it: the rolls without their dice."""
    kind = describe.kind_of(code, key)
    if kind == d.TRAIT_ROLL:
        return _trait_roll(value)
    if kind == d.TRAIT_ROLLS:
        return [_trait_roll(r) for r in value]
    if kind == d.DAMAGE_ROLL:
        return _damage_roll(value)
    return value


def kind_of(e: ev.Event) -> str:
    """The event's type in snake case: "rolled", "damage_rolled", "turn_started", …"""
    return _SNAKE.sub("_", type(e).__name__).lower()


def _item(e: ev.Event) -> Item | None:
    description = d.describe_event(e)
    if description is None:
        return None
    code = description.code
    params = {k: _public(code, k, v) for k, v in description.params.items()}
    return {"kind": kind_of(e), "code": code, "params": params}


def _mentioned(items: list[Item]) -> set[str]:
    ids: set[str] = set()
    for item in items:
        for key, value in item["params"].items():
            kind = describe.kind_of(item["code"], key)
            if kind in NAMED:
                ids.add(value)
            elif kind == d.NAMES:
                ids.update(value)
    return ids - {""}


def encounter_log(state: Encounter, steps: list[list[ev.Event]]) -> list[dict[str, Any]]:
    """The latest ``LOG_STEPS`` steps that say something, oldest first."""
    known = names_of(state, steps)
    out: list[dict[str, Any]] = []
    for events in steps:
        items = [item for e in events if (item := _item(e))][:STEP_ITEMS]
        if items:
            names = {i: known.get(i, i) for i in sorted(_mentioned(items))}
            out.append({"step": events[0].step, "items": items, "names": names})
    return out[-LOG_STEPS:]
