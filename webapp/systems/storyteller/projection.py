"""Per-viewer JSON of a Storyteller fight (the initiative board): the engine's observation
(engine/storyteller/observe.py — the order with its ties, the marks, the public tracks, an
NPC's health, Willpower and pools the GM's), the current attack's steps as each viewer may
see them (a hidden NPC roll says only what it did, never its pool size), and the proposal:
its dice for the GM, only «an attack waits for the GM» for everyone else."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.observe import GM
from engine.services.scenes import SceneView
from engine.services.storyteller.options import game_options
from engine.storyteller import events as ev
from engine.storyteller.decide import default_defense, defense_choices, preview
from engine.storyteller.fight import Fight
from engine.storyteller.observe import observe, observe_attack
from webapp.projection import Viewer


@dataclass(frozen=True)
class FightScene(SceneView[Fight]):
    """A fight as read once for all viewers, with its latest published attack."""

    attack: ev.AttackResolved | None = None
    undone_attacks: tuple[ev.AttackResolved, ...] = ()  # newer than `attack`, newest first


def _proposal(fight: Fight, viewer: Viewer) -> dict[str, Any] | None:
    p = fight.proposal
    if p is None:
        return None
    out: dict[str, Any] = {"attacker": p.attack.attacker, "target": p.attack.target}
    if p.asking:
        out["asking"] = _asking(fight, viewer)
    if viewer.role != GM:
        return out
    shown = next(e for e in preview(fight) if isinstance(e, ev.AttackResolved))
    o = p.attack.overrides
    return out | {
        "steps": observe_attack(fight, shown, viewer),
        "difficulty": shown.attack_pool.difficulty,
        "dice": shown.attack_pool.dice,
        "changes": {
            "difficulty": o.difficulty,
            "dice": o.dice,
            "defense": "none" if o.no_defense else (o.defense.kind if o.defense else None),
            "damage_type": o.damage_type,
        },
    }


def _asking(fight: Fight, viewer: Viewer) -> dict[str, Any]:
    """The defender's choice pending: its deadline for everyone; the choices with their
    pools for the target's player and the GM (the same list as the chat's buttons)."""
    p = fight.proposal
    assert p is not None
    target = fight.fighter(p.attack.target)
    out: dict[str, Any] = {"until": p.until, "choices": []}
    if viewer.role == GM or target.owner == viewer.user_id:
        default = default_defense(fight)
        out["choices"] = [
            {
                "index": i,
                "kind": c.kind,
                "interrupt": c.interrupt,
                "weapon": c.weapon,
                "dice": c.dice,
                "default": c == default,
            }
            for i, c in enumerate(defense_choices(fight))
        ]
    return out


def project_fight(scene: FightScene | None, viewer: Viewer) -> dict[str, Any] | None:
    if scene is None:
        return None
    fight = scene.state
    board = observe(fight, viewer)
    attack = None if scene.attack is None else observe_attack(fight, scene.attack, viewer)
    return board | {
        "stream": scene.stream,
        "seq": scene.seq,
        "closed": scene.closed,
        "attack": attack,
        "undone_attacks": [
            observe_attack(fight, a, viewer)
            for a in scene.undone_attacks
            if fight.has(a.attacker) and fight.has(a.target)
        ],
        "proposal": _proposal(fight, viewer),
        # the game's options changed since this fight began (they apply from the next one)
        "options_changed": fight.options != game_options(viewer.game),
    }
