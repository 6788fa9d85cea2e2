"""Who the viewer is in a game: GM, player or spectator, and route guards.

GM and players come from the game's roles (engine.services). Anyone else holding the game's
signed token (links.py) is a spectator: read-only. The token is a capability, because
initData opened from a group does not prove membership of that group.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Awaitable, Callable

from aiohttp import web

from engine.services import NoGame, get_game
from engine.services.games import get_game_and_language
from webapp.auth import InitData
from webapp.errors import ApiError
from webapp.i18n import pick_locale
from webapp.keys import INIT_DATA, LINK_SECRET
from webapp.links import parse_token
from webapp.projection import GM, PLAYER, ROLES, SPECTATOR, Viewer, role_of

READ = (GM, PLAYER, SPECTATOR)
WRITE = (GM, PLAYER)
GM_ONLY = (GM,)

Handler = Callable[[web.Request, Viewer], Awaitable[web.StreamResponse]]
Route = Callable[[web.Request], Awaitable[web.StreamResponse]]


def init_data(request: web.Request) -> InitData:
    if INIT_DATA not in request:  # the auth middleware guards /api/: else a wiring error
        raise ApiError("auth_missing")
    return request[INIT_DATA]


async def viewer_for(request: web.Request, token: str, data: InitData) -> Viewer:
    target = parse_token(request.app[LINK_SECRET], token)
    if target is None:
        raise ApiError("not_found")
    try:
        game, language = await get_game_and_language(target.game_id, data.user.id)
    except NoGame:
        raise ApiError("not_found") from None
    locale = pick_locale(language, data.user.language_code)
    return Viewer(
        user_id=data.user.id,
        role=role_of(game, data.user.id),
        game=game,
        game_token=target.game_token,
        screen=target.screen,
        locale=locale,
    )


async def refresh_viewer(viewer: Viewer) -> Viewer:
    """The viewer with the game and their role as stored now (a new player, a GM transfer,
    the end of the game): an open socket calls it before every snapshot."""
    game = await get_game(viewer.game.id)
    return dataclasses.replace(viewer, game=game, role=role_of(game, viewer.user_id))


def require_role(
    *roles: str,
) -> Callable[[Handler], Route]:
    """Route decorator: resolves ``{token}`` to the game and the caller's role; 403
    ``forbidden`` unless the role is one of `roles`. The handler gets ``(request, viewer)``."""
    unknown = set(roles) - set(ROLES)
    if unknown or not roles:
        raise ValueError(f"roles must be among {ROLES}")

    def decorate(handler: Handler) -> Route:
        @functools.wraps(handler)
        async def guarded(request: web.Request) -> web.StreamResponse:
            viewer = await viewer_for(request, request.match_info["token"], init_data(request))
            if viewer.role not in roles:
                raise ApiError("forbidden")
            return await handler(request, viewer)

        return guarded

    return decorate


def require_active(viewer: Viewer) -> None:
    if not viewer.game.active:
        raise ApiError("game_ended")
