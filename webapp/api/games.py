"""GET /api/games/{token} (summary + the viewer's role) and GET .../rolls (the feed)."""

from __future__ import annotations

from aiohttp import web

from engine.services import recent_rolls
from webapp.feed import game_view, roll_views
from webapp.keys import CONFIG
from webapp.projection import Viewer
from webapp.roles import READ, require_role


@require_role(*READ)
async def get_game_summary(request: web.Request, viewer: Viewer) -> web.Response:
    return web.json_response({"ok": True, "game": await game_view(viewer)})


@require_role(*READ)
async def get_rolls(request: web.Request, viewer: Viewer) -> web.Response:
    size = request.app[CONFIG].feed_size
    try:
        limit = max(1, min(int(request.query.get("limit", size)), size))
    except ValueError:
        limit = size
    records = await recent_rolls(viewer.game.id, limit)
    return web.json_response({"ok": True, "rolls": await roll_views(records, viewer)})
