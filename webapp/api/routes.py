"""The routes a rule system's web adapter adds of its own (`Route`, webapp/systems/registry.py):
each under ``/api/games/{token}/``, behind initData and the roles it names; a game of another
system is refused with 409 ``wrong_system`` (unless the route serves every game: the dice's)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiohttp import web

from webapp.errors import ApiError
from webapp.projection import Viewer
from webapp.roles import require_role
from webapp.systems.registry import Route, adapters


def _guarded(code: str, route: Route) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    @require_role(*route.roles)
    async def handler(request: web.Request, viewer: Viewer) -> web.StreamResponse:
        if viewer.game.system != code and not route.every_game:
            raise ApiError("wrong_system")
        return await route.handler(request, viewer)

    return handler


def setup_routes(app: web.Application) -> None:
    for system in adapters():
        for route in system.routes:
            path = f"/api/games/{{token}}/{route.path}"
            app.router.add_route(route.method, path, _guarded(system.code, route))
