"""The roll feed, the live snapshot of a game (its rolls and the scenes of its rule system)
projected for one viewer, and the frames of live pushes, encoded once per distinct view."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from engine.services import recent_rolls
from engine.services.types import RollRecord
from webapp.keys import BROADCASTER, CONFIG
from webapp.live import LiveEvent
from webapp.projection import Viewer, can_see, project_game, project_roll
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


async def snapshot(
    app: web.Application, viewer: Viewer, *, refresh: bool = True
) -> tuple[Viewer, dict[str, Any], int]:
    """Everything the viewer's screen shows, the viewer as stored now, and the broadcaster's
    `current_order` read before the database — the role included — so an event published
    meanwhile (a roll, a `game` change) is either in the snapshot or delivered after it (the
    client keeps rolls by id, so one seen twice is harmless). A snapshot after a dropped
    backlog or at connect time therefore never shows a stale role. Its `seq` is the id of
    the game's newest roll (0: none), where the roll pushes continue; each scene carries its
    stream's own `stream` and `seq`. `refresh=False`: the viewer was just read (a request's)."""
    order = app[BROADCASTER].current_order(viewer.game.id)
    if refresh:
        viewer = await refresh_viewer(viewer)
    records = await recent_rolls(viewer.game.id, app[CONFIG].feed_size)
    return (
        viewer,
        {
            "type": "snapshot",
            "seq": max((r.id for r in records), default=0),
            "locale": viewer.locale,
            "game": await game_view(viewer),
            "rolls": await roll_views(records, viewer),
            **await scene_views(viewer),
        },
        order,
    )


ROLL_TYPES = ("roll", "roll_revealed")


def encode(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, ensure_ascii=False).encode()


async def push_frame(event: LiveEvent, viewer: Viewer) -> bytes | None:
    """The push of `event` for `viewer`, as one encoded text frame (None: nothing for this
    viewer). Built once per distinct view of the event — the roll's `can_see` (sealed or
    not), the scene's `audience` — and shared by every socket of that view."""
    if event.type in ROLL_TYPES and isinstance(event.data, RollRecord):
        record = event.data
        user_id, gm_id = viewer.user_id, viewer.game.gm_id
        names = await event.shared("names", lambda: user_names([record.user_id]))

        def roll() -> bytes:
            view = project_roll(record, user_id=user_id, gm_id=gm_id, names=names)
            frame: dict[str, Any] = {"type": event.type, "seq": record.id, "roll": view}
            if event.prev is not None:
                frame["prev"] = event.prev
            return encode(frame)

        return event.frame(("roll", can_see(record, user_id, gm_id)), roll)
    scene = adapter(viewer.game.system).scene(event.type)
    if scene is None:  # not a scene of this game's system: nothing for the viewer
        return None
    project = scene.project

    def build() -> bytes:
        view = project(event.data, viewer)
        stream = None if view is None else view.get("stream")
        seq = 0 if view is None else view.get("seq", 0)
        return encode({"type": event.type, "stream": stream, "seq": seq, event.type: view})

    return event.frame((event.type, scene.audience(event.data, viewer)), build)
