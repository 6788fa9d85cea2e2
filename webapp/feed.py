"""The roll feed and the live snapshot of a game (its rolls and the scenes of its rule
system), projected for one viewer."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from engine.services import recent_rolls
from engine.services.types import RollRecord
from webapp.keys import BROADCASTER, CONFIG
from webapp.projection import Viewer, project_game, project_roll
from webapp.queries import user_names
from webapp.roles import refresh_viewer
from webapp.systems.registry import adapter


async def scene_views(viewer: Viewer) -> dict[str, Any]:
    """The viewer's projection of every scene kind of the game's rule system, by kind (None
    when none is open); nothing for a system without scenes. Each scene is read once, in the
    adapter's order, and may use the ones read before it."""
    read: dict[str, Any] = {}
    views: dict[str, Any] = {}
    for scene in adapter(viewer.game.system).scenes:
        read[scene.kind] = await scene.load(viewer.game.id, read)
        views[scene.kind] = scene.project(read[scene.kind], viewer)
    return views


async def roll_views(records: list[RollRecord], viewer: Viewer) -> list[dict[str, Any]]:
    names = await user_names(r.user_id for r in records)
    return [
        project_roll(r, user_id=viewer.user_id, gm_id=viewer.game.gm_id, names=names)
        for r in records
    ]


async def game_view(viewer: Viewer) -> dict[str, Any]:
    game = viewer.game
    names = await user_names([*game.player_ids, *([game.gm_id] if game.gm_id else [])])
    return project_game(viewer, names)


async def snapshot(app: web.Application, viewer: Viewer) -> tuple[Viewer, dict[str, Any]]:
    """Everything the viewer's screen shows, and the viewer as stored now. `seq` is read
    before the database — the role included — so an event published meanwhile (a roll, a
    `game` change) is either in the snapshot or delivered after it (the client keeps rolls by
    id, so one seen twice is harmless). A snapshot after a dropped backlog or at connect time
    therefore never shows a stale role."""
    broadcaster = app[BROADCASTER]
    seq = broadcaster.current_seq(viewer.game.id)
    viewer = await refresh_viewer(viewer)
    records = await recent_rolls(viewer.game.id, app[CONFIG].feed_size)
    return viewer, {
        "type": "snapshot",
        "epoch": broadcaster.epoch,
        "seq": seq,
        "locale": viewer.locale,
        "game": await game_view(viewer),
        "rolls": await roll_views(records, viewer),
        **await scene_views(viewer),
    }
