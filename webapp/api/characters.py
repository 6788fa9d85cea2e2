"""The character editor's routes, for the GM and players: ``GET .../characters`` (the
library), ``GET .../characters/{id}``, ``POST .../characters`` (save), ``POST
.../characters/preview`` (check without saving), ``DELETE .../characters/{id}``. The role is
checked here; the game's rule system's adapter does the rest (webapp/systems/registry.py,
`CharacterRoutes`). A game whose system has no character editor is refused with 409
``wrong_system``."""

from __future__ import annotations

from aiohttp import web

from webapp.errors import ApiError
from webapp.projection import Viewer
from webapp.roles import WRITE, require_role
from webapp.systems.registry import CharacterRoutes, adapter


def _routes(viewer: Viewer) -> CharacterRoutes:
    routes = adapter(viewer.game.system).characters
    if routes is None:
        raise ApiError("wrong_system")
    return routes


@require_role(*WRITE)
async def get_library(request: web.Request, viewer: Viewer) -> web.StreamResponse:
    return await _routes(viewer).library(request, viewer)


@require_role(*WRITE)
async def get_one(request: web.Request, viewer: Viewer) -> web.StreamResponse:
    return await _routes(viewer).get(request, viewer)


@require_role(*WRITE)
async def post_character(request: web.Request, viewer: Viewer) -> web.StreamResponse:
    return await _routes(viewer).save(request, viewer)


@require_role(*WRITE)
async def post_preview(request: web.Request, viewer: Viewer) -> web.StreamResponse:
    return await _routes(viewer).preview(request, viewer)


@require_role(*WRITE)
async def delete_one(request: web.Request, viewer: Viewer) -> web.StreamResponse:
    return await _routes(viewer).delete(request, viewer)


def setup_characters(app: web.Application) -> None:
    base = "/api/games/{token}/characters"
    app.router.add_get(base, get_library)
    app.router.add_post(base, post_character)
    app.router.add_post(base + "/preview", post_preview)
    app.router.add_get(base + "/{char_id}", get_one)
    app.router.add_delete(base + "/{char_id}", delete_one)
