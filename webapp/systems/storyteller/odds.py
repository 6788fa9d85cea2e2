"""GET /api/games/{token}/odds?pool=7 6 спец: the exact odds of a pool before it is rolled
(the chat's /odds p …), for the roller's «шанс успеха». A route of the system's own
(`Route`) that answers in a game of any system, as the dice do."""

from __future__ import annotations

from aiohttp import web

from engine.dice import DiceError
from engine.storyteller.dice import odds_of_pool
from webapp.errors import ApiError
from webapp.projection import Viewer
from webapp.roles import READ
from webapp.systems.registry import Route

MAX_ARGS = 100


async def get_pool_odds(request: web.Request, viewer: Viewer) -> web.Response:
    args = request.query.get("pool", "").strip()
    if not args or len(args) > MAX_ARGS:
        raise ApiError("bad_request")
    try:
        found = odds_of_pool(args)
    except DiceError:
        raise ApiError("bad_request") from None
    return web.json_response(
        {
            "ok": True,
            "odds": {"expression": found.expression, **found.as_floats()},
        }
    )


ODDS_ROUTE = Route("GET", "odds", get_pool_odds, READ, every_game=True)
