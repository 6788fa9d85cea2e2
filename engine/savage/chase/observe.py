"""What each viewer sees of a SWADE chase (the chase row): an observation function next to
the rules, JSON-safe.

Public: the row of cards (with the Complication each suit triggers), positions, sides,
groups, turns in progress, pending choices, who fled or is out, distances. The GM's and the
controlling player's only (DESIGN decision 3): a participant's maneuvering stats (skill,
die, modifier).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from engine.observe import GM, Observer, private_audience
from engine.savage.cards import Card
from engine.savage.chase.model import ChaseState, Participant
from engine.savage.chase.queries import card_distance
from engine.savage.chase.rules import COMPLICATIONS, suit_of
from engine.savage.observe import card_json


def _complication(card: Card) -> dict[str, Any]:
    modifier, result = COMPLICATIONS[suit_of(card)]
    return {"modifier": modifier, "result": result}


def _participant(
    state: ChaseState,
    p: Participant,
    names: Mapping[str, str],
    owners: Mapping[str, frozenset[int]],
    viewer: Observer,
) -> dict[str, Any]:
    mine = viewer.user_id in owners.get(p.id, frozenset())
    out: dict[str, Any] = {
        "id": p.id,
        "name": names.get(p.id, p.id),
        "side": p.side,
        "position": p.position,
        "movement": p.movement,
        "leader": p.leader,
        "status": p.status,
        "wounds": p.wounds,
        "fatigue": p.fatigue,
        "mine": mine,
        "turn": state.turn(p.id) is not None,
    }
    if viewer.role == GM or mine:
        out["stats"] = {
            "skill": p.skill,
            "die": p.die,
            "die_bonus": p.die_bonus,
            "modifier": p.modifier,
            "wild_card": p.wild_card,
            "unskilled": p.unskilled,
        }
    return out


def _distances(state: ChaseState) -> list[dict[str, Any]]:
    units = [p for p in state.participants if p.active and p.leader is None]
    pairs = []
    for i, a in enumerate(units):
        for b in units[i + 1 :]:
            if a.side != b.side:
                pairs.append({"a": a.id, "b": b.id, "cards": card_distance(state, a.id, b.id)})
    return pairs


def observe_chase(
    state: ChaseState,
    viewer: Observer,
    *,
    stream: str,
    seq: int,
    closed: bool = False,
    names: Mapping[str, str] | None = None,
    owners: Mapping[str, frozenset[int]] | None = None,
) -> dict[str, Any]:
    """The chase as `viewer` may see it (JSON-safe); `names` and `owners` of its
    participants come from the fight they are in (participant ids are its ids)."""
    s, names, owners = state, names or {}, owners or {}
    return {
        "stream": stream,
        "seq": seq,
        "closed": closed,
        "round": s.round,
        "options": s.options.to_dict(),
        "row": [{**(card_json(card) or {}), "complication": _complication(card)} for card in s.row],
        "sides": list(s.sides()),
        "participants": [_participant(s, p, names, owners, viewer) for p in s.participants],
        "turns": [
            {
                "participant": t.participant,
                "card": card_json(t.action_card),
                "changed_position": t.changed_position,
                "dropped_back": t.dropped_back,
                "declared_actions": t.declared_actions,
                "actions_used": t.actions_used,
                "lost": t.lost,
            }
            for t in s.turns
        ],
        "pending": [x.to_dict() for x in s.pending],
        "ended": s.ended.to_dict() if s.ended else None,
        "distances": _distances(s),
    }


def chase_audience(owners: Mapping[str, frozenset[int]], viewer: Observer) -> Hashable:
    """Observers with equal keys get equal JSON (as `encounter_audience`)."""
    return private_audience(viewer, any(viewer.user_id in o for o in owners.values()))
