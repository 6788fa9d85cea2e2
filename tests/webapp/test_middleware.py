"""A service's refusal that reaches the error middleware (webapp/middleware.py) gets its own
sentence in the user's language, not a generic one."""

from __future__ import annotations

import asyncpg  # type: ignore[import-untyped]
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from engine.services.errors import NoGame
from tests.support.redis_server import free_port
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


async def reads_a_database_that_is_down(request: web.Request) -> web.Response:
    """What a Mini App request meets while PostgreSQL restarts: a real connection refused."""
    await asyncpg.connect(f"postgres://kosti@127.0.0.1:{free_port()}/kosti", timeout=2)
    return web.json_response({})


async def breaks_elsewhere(request: web.Request) -> web.Response:
    raise ConnectionRefusedError("the Bot API, not the database")


async def test_a_database_out_of_reach_is_a_503_that_says_nothing_was_stored() -> None:
    app = web.Application(middlewares=[json_errors])
    app.router.add_get("/api/db", reads_a_database_that_is_down)
    app.router.add_get("/api/other", breaks_elsewhere)
    async with TestClient(TestServer(app)) as client:
        down = await client.get("/api/db")
        body = await down.json()
        other = await client.get("/api/other")
        other_code = (await other.json())["error"]["code"]
    assert down.status == 503 and body["error"]["code"] == "database_unreachable"
    assert body["error"]["message"] == (
        "Нет связи с базой данных: ничего не записано. Попробуйте через минуту."
    )
    assert other.status == 500 and other_code == "internal"
