"""GET /api/games/{token}/odds?pool=7 6 спец: the exact odds of a Storyteller pool before it
is rolled (engine.dice.odds, the chat's /odds p …), for the roller's «шанс успеха»."""

from __future__ import annotations

from aiohttp import web

from engine.dice import DiceError
from engine.dice.odds import odds
from webapp.errors import ApiError
from webapp.projection import Viewer
from webapp.roles import READ, require_role

MAX_ARGS = 100


@require_role(*READ)
async def get_pool_odds(request: web.Request, viewer: Viewer) -> web.Response:
    args = request.query.get("pool", "").strip()
    if not args or len(args) > MAX_ARGS:
        raise ApiError("bad_request")
    try:
        found = odds("p " + args)
    except DiceError:
        raise ApiError("bad_request") from None
    return web.json_response(
        {
            "ok": True,
            "odds": {"expression": found.expression, **found.as_floats()},
        }
    )
