"""The game's duels as the web app reads them once for every viewer, and each viewer's
JSON: the engine's observation (engine/duel/observe.py — a fighter's unpublished submission
goes to its owner and the GM only, the proposal to the GM only) per duel, with the
published turns as descriptions the page fills (the forum post) and the GM's review."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from engine import duel
from engine.duel.adjust import adjusted
from engine.duel.describe import (
    default_mark,
    describe_adjustment,
    describe_step,
    describe_submission,
    published_post,
)
from engine.services.duel import DuelView, open_duels, thread_of
from webapp.projection import GM, Viewer


@dataclass(frozen=True)
class DuelScene:
    duels: tuple[DuelView, ...]


async def load_duels(game_id: int) -> DuelScene | None:
    views = await open_duels(game_id)
    return DuelScene(tuple(views)) if views else None


def _post(published: duel.Published) -> list[dict[str, Any]]:
    return [d.to_dict() for d in published_post(published)]


def _review(state: duel.DuelState) -> list[dict[str, Any]]:
    """The GM's side by side: both submissions, then the proposal with the changes so far."""
    fighters = {f.id: f for f in state.fighters}
    out = []
    for s in state.pending:
        if s.default:  # sealed at the deadline, as the post will say
            out.append(default_mark(s.submission.fighter).to_dict())
        shown = adjusted(s.submission, state.adjustments)  # the GM's changed dice
        out += [d.to_dict() for d in describe_submission(shown, fighters)]
    if len(state.pending) == len(state.fighters) and not state.over:
        proposal = duel.propose(state)
        after = {f.id: f for f in proposal.after}
        out += [describe_step(s, after).to_dict() for s in proposal.steps]
        out += [describe_adjustment(a).to_dict() for a in proposal.adjustments]
    return out


def project_duel(view: DuelView, viewer: Viewer) -> dict[str, Any]:
    state = view.state
    out = {
        "thread": thread_of(view.stream),
        "stream": view.stream,
        "seq": view.seq,
        **duel.observe(state, viewer),
        "names": {f.id: f.fighter.name for f in state.fighters},
        "posts": [_post(p) for p in state.history],
    }
    if viewer.role == GM:  # the GM playing a fighter: once that fighter has sealed
        out["review"] = _review(state) if duel.gm_reviews(state) else []
    return out


def project_duels(scene: DuelScene | None, viewer: Viewer) -> dict[str, Any] | None:
    if scene is None:
        return None
    # the page keeps the newer of two answers by (stream, seq): the duels shown, and a
    # number that grows with every step of any of them
    return {
        "stream": ",".join(v.stream for v in scene.duels),
        "seq": sum(v.seq for v in scene.duels),
        "duels": [project_duel(v, viewer) for v in scene.duels],
    }


def duels_audience(scene: DuelScene | None, viewer: Viewer) -> Hashable:
    """Viewers share a view when they share it in every duel (engine.duel.audience)."""
    if scene is None:
        return None
    return tuple(duel.audience(v.state, viewer) for v in scene.duels)
