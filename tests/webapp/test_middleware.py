"""A service's refusal that reaches the error middleware (webapp/middleware.py) gets its own
sentence in the user's language, not a generic one."""

from __future__ import annotations

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from engine.services.errors import NoGame
from webapp.errors import error_message
from webapp.middleware import json_errors


async def raises_no_game(request: web.Request) -> web.Response:
    raise NoGame(game_id=5)


async def test_a_service_refusal_is_told_as_itself() -> None:
    app = web.Application(middlewares=[json_errors])
    app.router.add_get("/api/x", raises_no_game)
    async with TestClient(TestServer(app)) as client:
        response = await client.get("/api/x")
        body = await response.json()
    error = body["error"]
    assert body["ok"] is False and response.status >= 400
    assert error["message"] != error_message("bad_request")
    assert error["message"] and "игр" in error["message"].lower()  # Russian by default
    assert error["details"]["description"]["code"].endswith("no_game")
