"""The character editor of Storyteller games: the library, one sheet, check a sheet without
saving, save, delete — the same engine.services.storyteller calls and rules as the chat's
/char and /npc. The shared routes (webapp/api/characters.py) check the role first.

A player sees and edits only their own characters (another's sheet or a GM's template
answers as one that does not exist: no oracle); the GM everything, and saves templates.
A sheet is the Russian text block (engine/storyteller/sheet.py) or its JSON."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from engine import codec
from engine.services import ServiceError
from engine.services.notify import origin
from engine.services.storyteller import (
    CharacterRecord,
    delete_character,
    get_character,
    list_characters,
    save_character,
)
from engine.services.storyteller.characters import parse_entry
from engine.services.storyteller.options import game_options
from engine.storyteller.errors import StorytellerError
from engine.storyteller.sheet import format_sheet
from webapp.bodies import Body, parse_body, read_json
from webapp.errors import ApiError, error_body, refusal
from webapp.i18n import describe_text
from webapp.projection import GM, Viewer
from webapp.roles import require_active
from webapp.systems.library import delete_route, viewers_entry
from webapp.systems.registry import CharacterRoutes
from webapp.systems.storyteller.options import game_options_json

MAX_SHEET = 4000


class SheetBody(Body):
    sheet: str | dict[str, Any]
    template: bool = False


def _item(r: CharacterRecord) -> dict[str, Any]:
    return {"id": r.id, "name": r.name, "template": r.template, "owner": r.owner_id, "count": 1}


def _json(r: CharacterRecord, viewer: Viewer) -> dict[str, Any]:
    warnings = [describe_text(viewer.locale, w) for w in r.warnings]
    return _item(r) | {"sheet": r.sheet, "data": codec.to_data(r.character), "warnings": warnings}


async def _entry(viewer: Viewer, raw: str) -> CharacterRecord:
    return await viewers_entry(viewer, raw, get_character)


def _body(viewer: Viewer, body: SheetBody) -> None:
    if isinstance(body.sheet, str) and len(body.sheet) > MAX_SHEET:
        raise ApiError("payload_too_large", max=MAX_SHEET)
    if body.template and viewer.role != GM:
        raise ApiError("forbidden")


async def get_library(request: web.Request, viewer: Viewer) -> web.Response:
    records = await list_characters(viewer.game.id, viewer_id=viewer.user_id)
    if viewer.role != GM:
        records = [r for r in records if r.owner_id == viewer.user_id]
    body: dict[str, Any] = {"ok": True, "characters": [_item(r) for r in records]}
    if viewer.role == GM:  # the settings form of the tab (options.py)
        body["options"] = game_options_json(viewer.game)
    return web.json_response(body)


async def get_one(request: web.Request, viewer: Viewer) -> web.Response:
    record = await _entry(viewer, request.match_info["char_id"])
    return web.json_response({"ok": True, "character": _json(record, viewer)})


async def post_preview(request: web.Request, viewer: Viewer) -> web.Response:
    body = parse_body(SheetBody, await read_json(request))
    _body(viewer, body)
    try:
        character, warnings = parse_entry(body.sheet, game_options(viewer.game))
    except StorytellerError as exc:
        error = refusal(exc, viewer.locale)
        answer = error_body(error.code, error.message, **error.details)["error"]
        return web.json_response({"ok": True, "valid": False, "error": answer})
    return web.json_response(
        {
            "ok": True,
            "valid": True,
            "sheet": format_sheet(character),
            "warnings": [describe_text(viewer.locale, w) for w in warnings],
        }
    )


async def post_character(request: web.Request, viewer: Viewer) -> web.Response:
    data = await read_json(request)
    require_active(viewer)
    body = parse_body(SheetBody, data)
    _body(viewer, body)
    try:
        with origin("webapp"):
            record = await save_character(
                viewer.game.id, body.sheet, actor_id=viewer.user_id, template=body.template
            )
    except (StorytellerError, ServiceError) as exc:
        raise refusal(exc, viewer.locale) from None
    return web.json_response({"ok": True, "character": _json(record, viewer)})


delete_one = delete_route(get_character, delete_character)


CHARACTERS = CharacterRoutes(
    library=get_library, get=get_one, save=post_character, preview=post_preview, delete=delete_one
)
