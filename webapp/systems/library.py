"""The character editor's routes that are the same for every rule system's library: the
viewer's entry by its id (the GM any, a player their own; another's answers as one that
does not exist: no 403/404 oracle) and its delete. A system's adapter names them with its
services (webapp/systems/registry.py `CharacterRoutes`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar

from aiohttp import web

from engine.services import ServiceError
from engine.services.library_rows import Entry
from engine.services.notify import origin
from webapp.errors import ApiError, refusal
from webapp.projection import GM, Viewer
from webapp.roles import require_active

E = TypeVar("E", bound=Entry)
Route = Callable[[web.Request, Viewer], Awaitable[web.Response]]


class Delete(Protocol):
    async def __call__(self, game_id: int, entry_id: int, /, *, actor_id: int) -> None: ...


async def viewers_entry(
    viewer: Viewer, raw_id: object, get: Callable[[int, int], Awaitable[E]]
) -> E:
    """The entry `raw_id` (its digits, or the number) of the viewer's game, as `get` reads
    it: the GM's any, a player's own; anything else is ``not_found``."""
    if isinstance(raw_id, str) and raw_id.isascii() and raw_id.isdigit():
        raw_id = int(raw_id)
    if type(raw_id) is not int or not 0 < raw_id < 2**53:
        raise ApiError("not_found")
    try:
        record = await get(viewer.game.id, raw_id)
    except ServiceError:
        raise ApiError("not_found") from None
    if viewer.role != GM and record.owner_id != viewer.user_id:
        raise ApiError("not_found")
    return record


def delete_route(get: Callable[[int, int], Awaitable[Entry]], delete: Delete) -> Route:
    """``DELETE .../characters/{id}``: the viewer's entry (`viewers_entry`) deleted."""

    async def delete_one(request: web.Request, viewer: Viewer) -> web.Response:
        require_active(viewer)
        record = await viewers_entry(viewer, request.match_info["char_id"], get)
        try:
            with origin("webapp"):
                await delete(viewer.game.id, record.id, actor_id=viewer.user_id)
        except ServiceError as exc:
            raise refusal(exc, viewer.locale) from None
        return web.json_response({"ok": True, "deleted": record.id})

    return delete_one
