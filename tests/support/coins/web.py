"""The example system in the Mini App's API: its contest at ``/api/games/{token}/coin_toss``
(start, end and undo as every scene kind has them, and a toss), read once for all viewers
and observed by the engine — the `WebSystem` that webapp/systems/installed.py's line would
register. It has no page of its own here (a real system's screens are
webapp/static/app/systems/<code>/, listed in systems/index.js)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from webapp.projection import Viewer
from webapp.systems.commands import NoArgs, scene_spec, scene_specs
from webapp.systems.registry import WebScene, WebSystem

from . import contest
from .services import current_contest

COMMANDS = {
    **scene_specs(contest.KIND),
    "toss": scene_spec(contest.KIND, NoArgs, lambda _: contest.TossCoin(), gm_only=False),
}


async def load(game_id: int, read: Mapping[str, Any]) -> Any:
    return await current_contest(game_id)


def project(view: Any, viewer: Viewer) -> dict[str, Any] | None:
    if view is None:
        return None
    return {"stream": view.stream, "seq": view.seq, **contest.observe(view.state, viewer)}


def audience(view: Any, viewer: Viewer) -> Hashable:
    return None if view is None else contest.audience(view.state, viewer)


WEB = WebSystem(
    code="coins",
    scenes=(WebScene(contest.KIND, COMMANDS, load, project, contest.KIND, audience),),
)
