"""The fighter editor of duel games (the shared routes of webapp/api/characters.py check the
role, then call these): the game's fighters as the seed's text block or the engine's JSON,
read, checked, saved and deleted with the same engine.services.duel calls as the chat's
/fighter; the GM also defines classes (``POST`` with ``class``: a `FighterClass`'s JSON).
Sheets are public in a duel («прочитать особенности своего персонажа и персонажа
противника»), so every member sees the list; a player saves and deletes their own only."""

from __future__ import annotations

from typing import Annotated, Any

from aiohttp import web
from pydantic import Field

from engine import codec, duel
from engine.services import ServiceError
from engine.services.duel import (
    FighterRecord,
    delete_fighter,
    game_classes,
    get_fighter,
    list_fighters,
    save_class,
    save_fighter,
)
from engine.services.duel.fighters import parse_fighter
from engine.services.notify import origin
from webapp.bodies import Body, parse_body, read_json
from webapp.errors import ApiError, error_body, refusal
from webapp.projection import Viewer, iso
from webapp.roles import require_active
from webapp.systems.registry import CharacterRoutes

MAX_SHEET = 4000


class FighterBody(Body):
    """``sheet``: the text block or a `Fighter`'s JSON; ``class``: a class's JSON (the GM)."""

    sheet: Annotated[str, Field(max_length=MAX_SHEET)] | dict[str, Any] | None = None
    fighter_class: dict[str, Any] | None = Field(default=None, alias="class")
    owner: int | None = None


def fighter_json(r: FighterRecord) -> dict[str, Any]:
    return {
        "id": r.id,
        "name": r.name,
        "owner": r.owner_id,
        "updated_at": iso(r.updated_at),
        "sheet": r.sheet,
        "data": codec.to_data(r.fighter),
    }


def _refused(exc: Exception, viewer: Viewer) -> ApiError:
    assert isinstance(exc, duel.DuelError | ServiceError)
    return refusal(exc, viewer.locale)


async def get_library(request: web.Request, viewer: Viewer) -> web.Response:
    try:
        records = await list_fighters(viewer.game.id)
        classes = await game_classes(viewer.game.id)
    except ServiceError as exc:
        raise refusal(exc, viewer.locale) from None
    return web.json_response(
        {
            "ok": True,
            "characters": [fighter_json(r) for r in records],
            "classes": [codec.to_data(c) for c in classes.values()],
        }
    )


async def get_one(request: web.Request, viewer: Viewer) -> web.Response:
    raw = request.match_info["char_id"]
    if not raw.isdigit():
        raise ApiError("not_found")
    try:
        record = await get_fighter(viewer.game.id, int(raw))
    except ServiceError:
        raise ApiError("not_found") from None
    return web.json_response({"ok": True, "character": fighter_json(record)})


async def post_preview(request: web.Request, viewer: Viewer) -> web.Response:
    body = parse_body(FighterBody, await read_json(request))
    if body.sheet is None:
        raise ApiError("bad_request", field="sheet")
    try:
        parsed = parse_fighter(body.sheet, await game_classes(viewer.game.id))
    except duel.DuelError as exc:
        error = refusal(exc, viewer.locale)
        found = error_body(error.code, error.message, **error.details)["error"]
        return web.json_response({"ok": True, "valid": False, "error": found})
    return web.json_response(
        {
            "ok": True,
            "valid": True,
            "sheet": duel.format_sheet(parsed.fighter),
            "data": codec.to_data(parsed.fighter),
            "warnings": [w.to_dict() for w in parsed.warnings],
        }
    )


async def post_character(request: web.Request, viewer: Viewer) -> web.Response:
    body = parse_body(FighterBody, await read_json(request))
    require_active(viewer)
    try:
        with origin("webapp"):
            if body.fighter_class is not None:
                found = await save_class(
                    viewer.game.id, body.fighter_class, actor_id=viewer.user_id
                )
                return web.json_response({"ok": True, "class": codec.to_data(found)})
            if body.sheet is None:
                raise ApiError("bad_request", field="sheet")
            record, warnings = await save_fighter(
                viewer.game.id, body.sheet, actor_id=viewer.user_id, owner_id=body.owner
            )
    except (duel.DuelError, ServiceError) as exc:
        raise _refused(exc, viewer) from None
    return web.json_response(
        {
            "ok": True,
            "character": fighter_json(record),
            "warnings": [w.to_dict() for w in warnings],
        }
    )


async def delete_one(request: web.Request, viewer: Viewer) -> web.Response:
    require_active(viewer)
    raw = request.match_info["char_id"]
    if not raw.isdigit():
        raise ApiError("not_found")
    try:
        with origin("webapp"):
            await delete_fighter(viewer.game.id, int(raw), actor_id=viewer.user_id)
    except ServiceError as exc:
        raise refusal(exc, viewer.locale) from None
    return web.json_response({"ok": True, "deleted": int(raw)})


FIGHTERS = CharacterRoutes(
    library=get_library, get=get_one, save=post_character, preview=post_preview, delete=delete_one
)
