"""The initiative board and the chase row: GET the viewer's projection, POST a command.

``POST /api/games/{token}/encounter`` (or ``/chase``) with ``{"command": ..., "seq": <the
scene's seq the client saw>, ...arguments}`` runs the same engine.services call as the chat
command, as the authenticated user, and answers with the new projection. GM-only commands are
refused for players with 403 ``forbidden`` before anything is read; the services refuse a
player's command for another's character (``not_your_character``) and the engines the rest
(stable codes of webapp/scene_errors.py). ``seq`` (and ``stream``) guard against stale
writes: if the scene changed since the client saw it — a GM's double tap, a change from the
chat — the command is refused with 409 ``conflict`` and nothing is applied. Writes of one
game from this process are serialised, so the check and the write cannot interleave."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from engine.savage import RuleError
from engine.savage.chase import ChaseError
from engine.services import ServiceError
from engine.services.chase_sync import follow_encounter
from engine.services.notify import origin
from webapp.api.rolls import read_json
from webapp.chase_commands import CHASE_COMMANDS
from webapp.errors import ERRORS, SERVICE_CODES, ApiError, error_message
from webapp.feed import SAVAGE
from webapp.keys import RNG
from webapp.projection import GM, Viewer
from webapp.projection_scene import project_chase, project_encounter
from webapp.roles import READ, WRITE, require_active, require_role
from webapp.scene_commands import ENCOUNTER_COMMANDS, Ctx, Done, Spec
from webapp.scenes import load_chase, load_encounter

LOCKS = web.AppKey("webapp_scene_locks", defaultdict)


class _Lenient(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"


def scene_error(exc: RuleError | ChaseError | ServiceError, locale: str = "ru") -> ApiError:
    code = SERVICE_CODES.get(exc.code, exc.code)
    if code not in ERRORS:
        code = "bad_request"
    message = error_message(code, locale).format_map(_Lenient(exc.params))
    return ApiError(code, message)


def _require_savage(viewer: Viewer) -> None:
    if viewer.game.system != SAVAGE:
        raise ApiError("wrong_system")


def _check_seq(body: dict[str, Any], stream: str | None, seq: int) -> None:
    seen, seen_stream = body.get("seq"), body.get("stream")
    if seen is not None and type(seen) is not int:
        raise ApiError("bad_request", field="seq")
    if seen_stream is not None and not isinstance(seen_stream, str):
        raise ApiError("bad_request", field="stream")
    stale = seen is not None and seen != seq
    if seen_stream is not None and seen_stream != (stream or ""):
        stale = True
    if stale:
        raise ApiError("conflict", seq=seq, stream=stream)


async def _run(
    request: web.Request,
    viewer: Viewer,
    commands: dict[str, Spec],
    current: Callable[[int], Awaitable[Any]],
) -> Done:
    _require_savage(viewer)
    body = await read_json(request)
    name = body.get("command")
    spec = commands.get(name) if isinstance(name, str) else None
    if spec is None:
        raise ApiError("bad_request", field="command")
    if spec.gm_only and viewer.role != GM:
        raise ApiError("forbidden")
    require_active(viewer)
    game_id = viewer.game.id
    ctx = Ctx(game_id, viewer.user_id, request.app[RNG], body)
    async with request.app[LOCKS][game_id]:
        view = await current(game_id)
        _check_seq(body, view.stream if view else None, view.seq if view else 0)
        try:
            with origin("webapp"):
                return await spec.run(ctx)
        except (RuleError, ChaseError, ServiceError) as exc:
            raise scene_error(exc, viewer.locale) from None


@require_role(*READ)
async def get_encounter(request: web.Request, viewer: Viewer) -> web.Response:
    _require_savage(viewer)
    view = await load_encounter(viewer.game.id)
    return web.json_response({"ok": True, "encounter": project_encounter(view, viewer)})


@require_role(*READ)
async def get_chase(request: web.Request, viewer: Viewer) -> web.Response:
    _require_savage(viewer)
    scene = await load_chase(viewer.game.id)
    return web.json_response({"ok": True, "chase": project_chase(scene, viewer)})


@require_role(*WRITE)
async def post_encounter(request: web.Request, viewer: Viewer) -> web.Response:
    done = await _run(request, viewer, ENCOUNTER_COMMANDS, load_encounter)
    if done.events:
        with origin("webapp"):
            rng = request.app[RNG]
            await follow_encounter(viewer.game.id, done.events, rng=rng, cause=done.cause)
    view = await load_encounter(viewer.game.id)
    return web.json_response({"ok": True, "encounter": project_encounter(view, viewer)})


async def _chase_view(game_id: int) -> Any:
    scene = await load_chase(game_id)
    return None if scene is None else scene.view


@require_role(*WRITE)
async def post_chase(request: web.Request, viewer: Viewer) -> web.Response:
    await _run(request, viewer, CHASE_COMMANDS, _chase_view)
    scene = await load_chase(viewer.game.id)
    return web.json_response({"ok": True, "chase": project_chase(scene, viewer)})


def setup_scenes(app: web.Application) -> None:
    app[LOCKS] = defaultdict(asyncio.Lock)
    app.router.add_get("/api/games/{token}/encounter", get_encounter)
    app.router.add_post("/api/games/{token}/encounter", post_encounter)
    app.router.add_get("/api/games/{token}/chase", get_chase)
    app.router.add_post("/api/games/{token}/chase", post_chase)
