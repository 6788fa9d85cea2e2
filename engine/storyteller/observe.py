"""What each viewer sees of a Storyteller fight (the initiative board), JSON-safe.

Public at the table: the turn, the order with its ties (groups of equal totals), who is up,
the delayed / yielded / acted marks, every fighter's name, and the player characters'
health track, wound penalty and Willpower. The GM's and the owner's only: a character's
sheet (attributes, abilities, armor, weapons). With ``options.hide_npcs`` (the default) an
NPC's health, Willpower and initiative roll are the GM's too — the table sees only whether
it still fights — and an NPC's roll shows what it did (net successes, outcome), never its
pool: no die count, no faces, no difficulty (``observe_roll``).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from engine.describe import Description
from engine.observe import GM, Observer, private_audience
from engine.storyteller.dice.results import PoolResult

from . import events as ev
from .events import AttackResolved
from .fight import Fight, Fighter
from .traits import trait_name


def audience(fight: Fight, observer: Observer) -> Hashable:
    """Equal views share a key: the GM's own, each owner's (their sheets), the rest public."""
    owns = any(f.owner is not None and f.owner == observer.user_id for f in fight.fighters)
    return private_audience(observer, owns)


def _sees_all(fight: Fight, f: Fighter, viewer: Observer) -> bool:
    return viewer.role == GM or not (f.npc and fight.options.hide_npcs)


def hides(fight: Fight, fid: str | None, viewer: Observer) -> bool:
    """Whether ``viewer`` may not see fighter ``fid``'s numbers (pools, health, wounds,
    Willpower): an NPC while the game hides NPCs, for anyone but the GM."""
    if fid is None:
        return False
    f = next((x for x in fight.fighters if x.id == fid), None)
    return f is not None and not _sees_all(fight, f, viewer)


def _owns(f: Fighter, viewer: Observer) -> bool:
    return viewer.role == GM or (f.owner is not None and f.owner == viewer.user_id)


def _mark(fight: Fight, fid: str) -> str:
    turn = fight.turn
    if turn is None:
        return "waiting"
    if fid in turn.gave_up:
        return "gave_up"
    if fid in turn.acted:
        return "acted"
    if fid in turn.delayed:
        return "delayed"
    if fid in turn.yielded:
        return "yielded"
    return "up" if fid in turn.up() else "waiting"


def _fighter(fight: Fight, f: Fighter, viewer: Observer) -> dict[str, Any]:
    c = f.character
    track = fight.options.health
    out: dict[str, Any] = {
        "id": f.id,
        "name": c.name,
        "npc": f.npc,
        "mark": _mark(fight, f.id),
        "out": f.dead or c.incapacitated(track),
        "dead": f.dead,
        "full_defense": f.full_defense,
    }
    if _sees_all(fight, f, viewer):
        total = None
        if fight.turn is not None and any(r.fighter == f.id for r in fight.turn.rolls):
            total = fight.turn.total(f.id)
        out |= {
            "initiative": total,
            "health": list(c.health),
            "levels": len(track),
            "penalty": c.penalty(track),
            "willpower": [c.willpower_points, c.willpower],
        }
    if _owns(f, viewer):
        out["sheet"] = {
            "attributes": {trait_name(k): v for k, v in c.attributes.items()},
            "abilities": {trait_name(k): v for k, v in c.abilities.items()},
            "specialties": {trait_name(k): list(v) for k, v in c.specialties.items()},
            "armor": None if c.armor is None else [c.armor.name, c.armor.rating],
            "weapons": [w.name for w in c.weapons],
            "soaks_lethal": c.soaks_lethal,
        }
    return out


def observe(fight: Fight, viewer: Observer) -> dict[str, Any]:
    """The board as ``viewer`` sees it."""
    turn = fight.turn
    by_id = {f.id: f for f in fight.fighters}
    groups: list[list[str]] = []
    if turn is not None:
        groups = [[fid for fid in g if fid in by_id] for g in turn.simultaneous()]
    return {
        "round": fight.round,
        "up": list(turn.up()) if turn is not None else [],
        "groups": [g for g in groups if g],
        "fighters": [_fighter(fight, f, viewer) for f in fight.fighters],
    }


def observe_roll(roll: PoolResult | None, hidden: bool) -> dict[str, Any] | None:
    """A roll as a viewer sees it; a hidden one says only what it did."""
    if roll is None:
        return None
    if hidden:
        return {"hidden": True, "net": roll.net, "outcome": roll.outcome}
    return roll.to_dict()


def observe_attack(fight: Fight, e: AttackResolved, viewer: Observer) -> dict[str, Any]:
    """The current attack's steps as ``viewer`` sees them: each roll hidden when it is an
    NPC's and the viewer may not see that NPC."""

    def hidden(fid: str) -> bool:
        return hides(fight, fid, viewer)

    out: dict[str, Any] = {
        "attacker": e.attacker,
        "target": e.target,
        "weapon": e.weapon,
        "attack": observe_roll(e.attack, hidden(e.attacker)),
        "defense": None if e.defense is None else e.defense.kind,
        "defense_roll": observe_roll(e.defense_roll, hidden(e.target)),
        "hit": e.hit,
    }
    for key, step, roller in (("damage", e.damage, e.attacker), ("counter", e.counter, e.target)):
        if step is None:
            out[key] = None
            continue
        victim_hidden = hidden(step.victim)
        out[key] = {
            "victim": step.victim,
            "roll": observe_roll(step.roll, hidden(roller)),
            # a hidden NPC's soak is the GM's: its successes would tell its Stamina and armor
            "soak": None if victim_hidden else observe_roll(step.soak, False),
            "levels": None if victim_hidden else step.levels,
            "damage_type": step.damage_type,
            "armor_destroyed": step.armor_destroyed,
        }
    return out


def _roller(d: Description, e: ev.Event) -> str | None:
    """Whose dice a description's roll is (a damage roll is the striker's)."""
    code = d.code.rsplit(".", 1)[-1]
    name = d.params.get("name")
    if not isinstance(e, ev.AttackResolved):
        return name if isinstance(name, str) else None
    if code == "attack":
        return e.attacker
    if code == "defense":
        return e.target
    if code == "damage":
        return e.attacker if name == e.target else e.target
    return name if isinstance(name, str) else None


def observe_description(
    fight: Fight, e: ev.Event, d: Description, viewer: Observer
) -> Description | None:
    """One sentence of an event (describe.describe_event) as ``viewer`` may read it — the
    chat's counterpart of ``observe_attack``: a hidden NPC's roll says only what it did, the
    wound levels an NPC takes become «is hurt», its soak and its track's overflow are not told
    (None)."""
    code = d.code.rsplit(".", 1)[-1]
    victim = d.params.get("name")
    if (
        code in ("wounded", "overflow", "soak")
        and isinstance(victim, str)
        and hides(fight, victim, viewer)
    ):
        if code in ("overflow", "soak"):  # its soak's successes would tell its levels
            return None
        return Description(d.code.replace(".wounded", ".wounded_hidden"), {"name": victim})
    params = dict(d.params)
    rollers = {"roll": _roller(d, e), "stealth": params.get("name"), "notice": params.get("target")}
    for key, roller in rollers.items():
        roll = params.get(key)
        if isinstance(roll, dict) and isinstance(roller, str) and hides(fight, roller, viewer):
            params[key] = {"hidden": True, "net": roll["net"], "outcome": roll["outcome"]}
    return Description(d.code, params)
