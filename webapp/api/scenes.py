"""The initiative board and the chase row: GET the viewer's projection, POST a command.

``POST /api/games/{token}/encounter`` (or ``/chase``) with ``{"command": ..., "seq": <the
scene's seq the client saw>, ...arguments}`` runs the same engine.services call as the chat
command, as the authenticated user, and answers with the new projection. GM-only commands are
refused for players with 403 ``forbidden`` before anything is read; the services refuse a
player's command for another's character (``not_your_character``) and the engines the rest
(stable codes of webapp/scene_errors.py). ``seq`` (and ``stream``) guard against stale
writes: the services check them inside the step's transaction, so if the scene changed since
the client saw it — a GM's double tap, a change from the chat, another worker — the command
is refused with 409 ``conflict`` and nothing is applied. One call is one transaction: the
chase steps a fight step causes are stored with it (engine/services/follow.py)."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from engine.savage import RuleError
from engine.savage.chase import ChaseError
from engine.services import ServiceError
from engine.services.errors import StaleState
from engine.services.notify import origin
from webapp.api.rolls import read_json
from webapp.errors import ERRORS, SERVICE_CODES, ApiError, error_message
from webapp.feed import SAVAGE
from webapp.keys import RNG
from webapp.projection import GM, Viewer
from webapp.roles import READ, WRITE, require_active, require_role
from webapp.systems.savage.chase_commands import CHASE_COMMANDS
from webapp.systems.savage.commands import ENCOUNTER_COMMANDS, Ctx, Done, Spec
from webapp.systems.savage.projection import project_chase, project_encounter
from webapp.systems.savage.scenes import load_chase, load_encounter


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


def _check_seen(body: dict[str, Any]) -> None:
    """`seq` and `stream` are what the client saw; the services compare them in the write."""
    if "seq" in body and type(body["seq"]) is not int:
        raise ApiError("bad_request", field="seq")
    if body.get("stream") is not None and not isinstance(body["stream"], str):
        raise ApiError("bad_request", field="stream")


async def _run(request: web.Request, viewer: Viewer, commands: dict[str, Spec]) -> Done:
    _require_savage(viewer)
    body = await read_json(request)
    name = body.get("command")
    spec = commands.get(name) if isinstance(name, str) else None
    if spec is None:
        raise ApiError("bad_request", field="command")
    if spec.gm_only and viewer.role != GM:
        raise ApiError("forbidden")
    require_active(viewer)
    _check_seen(body)
    ctx = Ctx(viewer.game.id, viewer.user_id, request.app[RNG], body)
    try:
        with origin("webapp"):
            return await spec.run(ctx)
    except StaleState as exc:
        seq, stream = exc.params.get("seq"), exc.params.get("stream")
        raise ApiError("conflict", seq=seq, stream=stream) from None
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
    await _run(request, viewer, ENCOUNTER_COMMANDS)
    view = await load_encounter(viewer.game.id)
    return web.json_response({"ok": True, "encounter": project_encounter(view, viewer)})


@require_role(*WRITE)
async def post_chase(request: web.Request, viewer: Viewer) -> web.Response:
    await _run(request, viewer, CHASE_COMMANDS)
    scene = await load_chase(viewer.game.id)
    return web.json_response({"ok": True, "chase": project_chase(scene, viewer)})


def setup_scenes(app: web.Application) -> None:
    app.router.add_get("/api/games/{token}/encounter", get_encounter)
    app.router.add_post("/api/games/{token}/encounter", post_encounter)
    app.router.add_get("/api/games/{token}/chase", get_chase)
    app.router.add_post("/api/games/{token}/chase", post_chase)
