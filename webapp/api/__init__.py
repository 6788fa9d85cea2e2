"""The Mini App's JSON API and WebSocket (every route behind initData authentication)."""

from __future__ import annotations

from aiohttp import web

from webapp.api import characters, games, i18n, me, rolls, routes, scenes, ws


def setup_api(app: web.Application) -> None:
    app.router.add_get("/api/me", me.get_me)
    app.router.add_get("/api/i18n/{locale}", i18n.get_messages)
    app.router.add_get("/api/games/{token}", games.get_game_summary)
    app.router.add_get("/api/games/{token}/rolls", games.get_rolls)
    app.router.add_get("/api/games/{token}/snapshot", games.get_snapshot)
    app.router.add_post("/api/games/{token}/roll", rolls.post_roll)
    app.router.add_post("/api/games/{token}/rolls/{roll_id}/reveal", rolls.post_reveal)
    app.router.add_get("/api/games/{token}/ws", ws.game_socket)
    scenes.setup_scenes(app)
    characters.setup_characters(app)
    routes.setup_routes(app)
