"""The character editor of Savage Worlds games: read, check, save and delete a game's SWADE
characters and NPC templates (the same engine.services calls and rules as the chat's /char).
The shared routes (webapp/api/characters.py) check the role, then call these handlers.

``GET .../characters/{id}`` — the GM, or the owner of a player character (anything else is
404 to a player, whether it exists or not: no oracle); ``POST .../characters`` saves
(creates or replaces by name — a player's beside a template of that name is kept apart;
with ``id`` it renames that entry); ``POST .../characters/preview`` parses without
saving and answers 200 either way (``valid`` false with the engine's code, a message and
the fragment; what the sheet kept without knowing it in ``warnings``, as the save's answer);
``DELETE .../characters/{id}``; ``GET .../characters`` is the library list. GM and players
only; writes need an active game. Nothing here writes to the group chat."""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from aiohttp import web

from engine import savage
from engine.describe import Description
from engine.savage.character import EDGE_NAMES
from engine.savage.sheet_names import EDGE_SYNONYMS, EXPORT_NAMES, SKILL_SYNONYMS
from engine.savage.traits import ATTRIBUTE_NAMES, SKILL_NAMES
from engine.services import ServiceError, get_user
from engine.services.errors import NotYourCharacter
from engine.services.library import name_key
from engine.services.names import checked_name
from engine.services.notify import origin
from engine.services.savage import list_characters
from engine.services.savage.characters import (
    CharacterRecord,
    delete_character,
    get_character,
    parse_entry,
    resolve_owner,
    save_character,
)
from webapp.bodies import Body, parse_body, read_json
from webapp.errors import ApiError, error_body, refusal
from webapp.i18n import describe_text
from webapp.projection import GM, Viewer, iso
from webapp.roles import require_active
from webapp.systems.library import delete_route, viewers_entry
from webapp.systems.registry import CharacterRoutes

MAX_SHEET = 4000  # characters of a text block (a chat message holds 4096)


@functools.cache
def _names(locale: str) -> dict[str, str]:
    """Trait and edge code -> its name in the viewer's language: in Russian the chat's
    («Быстрота»), else the first spelling of the tables (ru or en)."""
    out: dict[str, str] = dict(EXPORT_NAMES) if locale != "en" else {}
    tables = {**SKILL_SYNONYMS, **EDGE_SYNONYMS, **ATTRIBUTE_NAMES, **SKILL_NAMES, **EDGE_NAMES}
    for text, code in sorted(tables.items(), key=lambda item: item[0] not in _FIRST):
        if text.isascii() == (locale == "en"):
            out.setdefault(code, text[:1].upper() + text[1:])
    return out


_FIRST = frozenset({**ATTRIBUTE_NAMES, **SKILL_NAMES, **EDGE_NAMES})  # before the synonyms


def warnings_json(warnings: tuple[Description, ...], locale: str) -> list[dict[str, Any]]:
    """The sheet's warnings: the sentence in the viewer's language and its description."""
    return [{"message": describe_text(locale, w), "description": w.to_dict()} for w in warnings]


def summary(c: savage.Character, count: int, locale: str) -> dict[str, Any]:
    """What the editor shows: traits with names, the derived Parry/Toughness/Pace, edges."""
    names = _names(locale)

    def name(code: str) -> str:
        return names.get(code) or code.replace("_", " ").capitalize()

    def traits(items: tuple[tuple[str, savage.Die], ...]) -> list[dict[str, str]]:
        return [{"code": code, "name": name(code), "die": str(die)} for code, die in items]

    return {
        "name": c.name,
        "wild": c.wild,
        "owner": c.owner,
        "count": count,
        "attributes": traits(c.attributes),
        "skills": traits(c.skills),
        "parry": c.parry,
        "toughness": c.toughness,
        "armor": c.armor,
        "pace": c.pace,
        "bennies": c.bennies,
        "edges": [name(e) for e in c.edges],
    }


def library_item(r: CharacterRecord) -> dict[str, Any]:
    """An entry of the library list (no sheet)."""
    return {
        "id": r.id,
        "name": r.name,
        "owner": r.owner_id,
        "count": r.count,
        "template": r.template,
        "wild": r.character.wild,
    }


def record_json(r: CharacterRecord, locale: str) -> dict[str, Any]:
    data = r.character.to_dict()
    if r.count > 1:
        data["count"] = r.count  # as save_character reads it back
    return library_item(r) | {
        "updated_at": iso(r.updated_at),
        "sheet": r.sheet,
        "data": data,
        "parsed": summary(r.character, r.count, locale),
    }


def _refusal(exc: savage.RuleError | ServiceError, viewer: Viewer, text: object) -> ApiError:
    """The engine's code and message, plus where the block went wrong (1-based line)."""
    error = refusal(exc, viewer.locale)
    at = exc.params.get("position")
    if isinstance(at, int):
        error.details["fragment"] = exc.params.get("fragment", "")
        error.details["position"] = at
        if isinstance(text, str):
            error.details["line"] = text.count("\n", 0, at) + 1
    return error


def _member(viewer: Viewer, user_id: object) -> bool:
    return type(user_id) is int and viewer.game.is_member(user_id)


class CharacterBody(Body):
    """``sheet``: the text block or the JSON (``Character.to_dict()`` + ``count``); ``id``:
    the entry being edited (a number, or its digits)."""

    sheet: str | dict[str, Any]
    template: bool = False
    owner: int | None = None
    id: int | str | None = None


async def _spec(viewer: Viewer, body: CharacterBody) -> savage.SheetSpec:
    """The parsed entry with its owner: a player's is always their own; the GM's is a
    template (``template``), the given ``owner``, else the block's «игрок N», else a
    template (as the GM's untagged /char block in the chat)."""
    sheet, template, owner = body.sheet, body.template, body.owner
    if isinstance(sheet, str) and len(sheet) > MAX_SHEET:
        raise ApiError("payload_too_large", max=MAX_SHEET)
    if viewer.role != GM and (template or owner not in (None, viewer.user_id)):
        raise ApiError("forbidden")
    if owner is not None and (template or not _member(viewer, owner)):
        raise ApiError("bad_request", field="owner")
    default = viewer.user_id if viewer.role != GM else (None if template else owner)
    try:
        spec = parse_entry(sheet, default)
        if owner is None and not template:  # «игрок Имя»: the member of that name
            spec = await resolve_owner(viewer.game.id, spec)
        name = checked_name(spec.character.name)  # as the save keeps it (shown so)
        spec = dataclasses.replace(spec, character=dataclasses.replace(spec.character, name=name))
    except (savage.RuleError, ServiceError) as exc:
        raise _refusal(exc, viewer, sheet) from None
    character = spec.character
    if template or owner is not None:
        character = dataclasses.replace(character, owner=owner)
    elif viewer.role != GM and character.owner != viewer.user_id:  # «игрок N» of another
        raise refusal(NotYourCharacter(owner_id=character.owner), viewer.locale)
    if character.owner is not None and not _member(viewer, character.owner):
        raise ApiError("bad_request", field="owner")
    return savage.SheetSpec(character, spec.count, spec.warnings)


async def _owner_name(character: savage.Character) -> str | None:
    user = await get_user(character.owner) if character.owner is not None else None
    return user.first_name if user is not None else None


async def _entry(viewer: Viewer, raw_id: object) -> CharacterRecord:
    """An entry of this game the viewer may edit: the GM any, a player their own."""
    return await viewers_entry(viewer, raw_id, get_character)


async def get_one(request: web.Request, viewer: Viewer) -> web.Response:
    record = await _entry(viewer, request.match_info["char_id"])
    return web.json_response({"ok": True, "character": record_json(record, viewer.locale)})


async def post_preview(request: web.Request, viewer: Viewer) -> web.Response:
    body = parse_body(CharacterBody, await read_json(request))
    try:
        spec = await _spec(viewer, body)
    except ApiError as exc:
        if exc.status != 400 or exc.code == "bad_request":
            raise
        error = error_body(exc.code, exc.message, **exc.details)["error"]
        return web.json_response({"ok": True, "valid": False, "error": error})
    owner_name = await _owner_name(spec.character)
    sheet = savage.format_sheet(spec.character, spec.count, owner_name=owner_name)
    parsed = summary(spec.character, spec.count, viewer.locale)
    warned = warnings_json(spec.warnings, viewer.locale)
    answer = {"ok": True, "valid": True, "parsed": parsed, "sheet": sheet, "warnings": warned}
    return web.json_response(answer)


async def post_character(request: web.Request, viewer: Viewer) -> web.Response:
    data = await read_json(request)
    require_active(viewer)
    body = parse_body(CharacterBody, data)
    spec = await _spec(viewer, body)
    game_id, old = viewer.game.id, None
    if body.id is not None:  # editing this entry: a new name renames it
        old = await _entry(viewer, body.id)
        key = name_key(spec.character.name)
        # a player's save beside a template of the same name goes to a key of its own
        # (engine.services.savage.characters.private_key): templates are no conflict for them
        seen = await list_characters(game_id, viewer_id=viewer.user_id)
        if key != name_key(old.name) and any(name_key(r.name) == key for r in seen):
            raise ApiError("conflict", name=spec.character.name)
    data = {**spec.character.to_dict(), "count": spec.count}
    try:
        with origin("webapp"):
            record = await save_character(
                game_id,
                data,
                actor_id=viewer.user_id,
                owner_id=spec.character.owner,
                renaming=None if old is None else old.id,
            )
            if old is not None and old.id != record.id:
                await delete_character(game_id, old.id, actor_id=viewer.user_id)
    except (savage.RuleError, ServiceError) as exc:
        raise _refusal(exc, viewer, None) from None
    character = record_json(record, viewer.locale)
    warned = warnings_json(spec.warnings, viewer.locale)
    return web.json_response({"ok": True, "character": character, "warnings": warned})


delete_one = delete_route(get_character, delete_character)


async def get_library(request: web.Request, viewer: Viewer) -> web.Response:
    """The library (for «add» and the editor's list): the GM gets everything (NPC templates
    too), a player their own characters only (others' sheets and the GM's templates never
    leave the server)."""
    try:
        records = await list_characters(viewer.game.id)
    except ServiceError as exc:
        raise refusal(exc, viewer.locale) from None
    if viewer.role != GM:
        records = [r for r in records if r.owner_id == viewer.user_id]
    return web.json_response({"ok": True, "characters": [library_item(r) for r in records]})


CHARACTERS = CharacterRoutes(
    library=get_library, get=get_one, save=post_character, preview=post_preview, delete=delete_one
)
