"""GET /api/games/{token} (summary + the viewer's role), GET .../rolls (the feed) and GET
.../snapshot (what the game's socket sends first)."""

from __future__ import annotations

from aiohttp import web

from engine.services import recent_rolls
from webapp.feed import encode, game_view, roll_views, snapshot
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


@require_role(*READ)
async def get_snapshot(request: web.Request, viewer: Viewer) -> web.Response:
    """The socket's snapshot, byte for byte: the page asks for it over its page's connection
    while its socket is still being set up (a connection of its own: two round trips more on
    a phone), and skips the socket's copy when it is the same text (api/ws.py)."""
    _, data, _ = await snapshot(request.app, viewer, refresh=False)  # read by require_role
    return web.Response(
        body=encode(data),
        content_type="application/json",
        charset="utf-8",
        headers={"Cache-Control": "no-store"},
    )
