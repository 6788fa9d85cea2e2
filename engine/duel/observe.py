"""What each viewer sees of a duel (DESIGN decision 3), JSON-safe, for every surface.

Public: the turn, the options, both fighters (sheet, HP, SP, AP, states, what they may do
this turn), who has submitted this turn with the sealed receipt, and the published turns
with their submissions and revealed receipts. A fighter's own unpublished submission goes
to its owner and the GM only; the proposed resolution to the GM only — a fighter never
receives the opponent's unpublished submission.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from engine import codec
from engine.observe import GM, Observer, private_audience

from .check import allowed, allowed_actions
from .combatant import FighterState
from .decide import propose
from .dice import dice_hash
from .fighter import TURN_AP
from .state import DuelState


def owns(state: DuelState, viewer: Observer) -> set[str]:
    return {f.id for f in state.fighters if f.owner is not None and f.owner == viewer.user_id}


def audience(state: DuelState, viewer: Observer) -> Hashable:
    """Viewers with equal views share a key: the GM, each fighter's owner, everyone else."""
    return private_audience(viewer, bool(owns(state, viewer)))


def _fighter(state: DuelState, f: FighterState) -> dict[str, Any]:
    sealed = state.sealed(f.id)
    return {
        "id": f.id,
        "name": f.fighter.name,
        "sheet": codec.to_data(f.fighter),
        "hp": f.hp,
        "sp": f.sp,
        "ap": 0 if f.exhausted or f.dead else TURN_AP,
        "dead": f.dead,
        "exhausted": f.exhausted,
        "exhausted_turns": f.exhausted_turns,
        "bleeding_turns": f.bleeding_turns,
        "standing_up": f.standing_up,
        "lost_actions": f.lost_actions,
        "extra_actions": f.extra_actions,
        "attack_bonus": f.attack_bonus,
        "defense_bonus": f.defense_bonus,
        "series": f.series.length,
        "actions": 0 if f.dead else allowed_actions(f),
        "allowed": allowed(f),
        "submitted": sealed is not None,
        "seals": state.seals(f.id),  # a submission names it: one press seals once
        "receipt": sealed.receipt if sealed else None,
    }


def gm_reviews(state: DuelState) -> bool:
    """The GM plays the fighters without an owner, and is a player too: the opponent's
    sealed turn (and the review) only once the GM's own fighter has sealed."""
    return all(state.sealed(f.id) is not None for f in state if f.owner is None and not f.dead)


def _public(sub: dict[str, Any], gm: bool) -> dict[str, Any]:
    return sub if gm else {k: v for k, v in sub.items() if k != "comment"}


def _without_dice(sub: dict[str, Any], gm: bool) -> dict[str, Any]:
    return sub if gm else {k: v for k, v in sub.items() if k != "rolls"}


def observe(state: DuelState, viewer: Observer) -> dict[str, Any]:
    mine = owns(state, viewer)
    gm = viewer.role == GM
    plays = mine | ({f.id for f in state.fighters if f.owner is None} if gm else set())
    reviews = gm and gm_reviews(state)
    seen = {
        s.submission.fighter: s for s in state.pending if reviews or s.submission.fighter in plays
    }
    # «Броски делаем скрытно», one roll per turn: a player sees the own turn's choices, its
    # dice only with the reveal (a change after seeing them would be chosen knowing them)
    own = {fid: _without_dice(s.submission.to_dict(), reviews) for fid, s in seen.items()}
    out: dict[str, Any] = {
        "turn": state.turn,
        "over": state.over,
        "options": codec.to_data(state.options),
        "fighters": [_fighter(state, f) for f in state.fighters],
        "mine": sorted(mine),
        # the deadline (deadline.py): hours and policy, when this turn's time runs out (seconds
        # since the epoch), whether it has passed and been acted on, who is still to submit
        "deadline": codec.to_data(state.deadline) if state.deadline else None,
        "due": state.due,
        "overdue": state.overdue,
        "missing": list(state.missing()),
        "submissions": own,
        # the SHA-256 of this turn's dice seed, posted when the turn opened (dice.py)
        "dice_hash": dice_hash(state.dice_seed) if state.dice_seed else None,
        # the receipts the thread saw this turn, changed submissions' included
        "receipts": [
            {"fighter": s.submission.fighter, "receipt": s.receipt}
            for s in (*state.replaced, *state.pending)
        ],
        "history": [
            {
                "turn": p.proposal.turn,
                # the comment to the GM is the GM's alone (submission.py ``committed``)
                "submissions": [_public(s.to_dict(), gm) for s in p.proposal.submissions],
                "reveals": [codec.to_data(r) for r in p.reveals],
                "replaced": [
                    {**codec.to_data(s), "submission": _public(s.submission.to_dict(), gm)}
                    for s in p.replaced
                ],
                "seed": p.seed or None,
                "dice_hash": dice_hash(p.seed) if p.seed else None,
            }
            for p in state.history
        ],
    }
    if reviews and len(state.pending) == len(state.fighters) and not state.over:
        out["proposal"] = propose(state).to_dict()
    return out
