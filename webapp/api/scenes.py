"""A game's scenes (boards): ``GET /api/games/{token}/{scene}`` answers the viewer's
projection, ``POST`` runs a command. The scene kinds are those of the game's rule system
(its web adapter, webapp/systems/registry.py); a kind the game's system does not have is 404
``unknown_scene``.

``POST`` with ``{"command": ..., "seq": <the scene's seq the client saw>, ...arguments}`` runs
the same engine.services call as the chat command, as the authenticated user, and answers
with the new projection. GM-only commands are refused for players with 403 ``forbidden``
before anything is read; the services refuse a player's command for another's character
(``not_your_character``) and the engines the rest (the stable codes of webapp/errors.py and
of the system's adapter). ``seq`` (and ``stream``) guard against stale writes: the services
check them inside the step's transaction, so if the scene changed since the client saw it — a
GM's double tap, a change from the chat, another worker — the command is refused with 409
``conflict`` and nothing is applied. One call is one transaction: the steps it causes in
other scenes are stored with it, and (with the bot) what it tells the chat — the board's edit,
a turn's post — journaled in it too."""

from __future__ import annotations

import re
from typing import Any

from aiohttp import web

from engine.errors import CodedError
from engine.services import ServiceError
from engine.services.errors import StaleState
from engine.services.notify import origin
from webapp.bodies import read_json
from webapp.errors import ApiError, refusal
from webapp.keys import CHAT_STEP, RNG
from webapp.projection import GM, Viewer
from webapp.roles import READ, WRITE, require_active, require_role
from webapp.systems.commands import Ctx, Done
from webapp.systems.registry import WebScene, adapter, scene_kinds


def _scene(request: web.Request, viewer: Viewer) -> WebScene[Any]:
    scene = adapter(viewer.game.system).scene(request.match_info["scene"])
    if scene is None:
        raise ApiError("unknown_scene")
    return scene


def _check_seen(body: dict[str, Any]) -> None:
    """`seq` and `stream` are what the client saw; the services compare them in the write."""
    if "seq" in body and type(body["seq"]) is not int:
        raise ApiError("bad_request", field="seq")
    if body.get("stream") is not None and not isinstance(body["stream"], str):
        raise ApiError("bad_request", field="stream")


async def _run(request: web.Request, viewer: Viewer, scene: WebScene[Any]) -> Done:
    body = await read_json(request)
    name = body.get("command")
    spec = scene.commands.get(name) if isinstance(name, str) else None
    if spec is None:
        raise ApiError("bad_request", field="command")
    if spec.gm_only and viewer.role != GM:
        raise ApiError("forbidden")
    require_active(viewer)
    _check_seen(body)
    ctx = Ctx(viewer.game.id, viewer.user_id, request.app[RNG], body)
    refused: tuple[type[CodedError], ...] = (ServiceError, *adapter(viewer.game.system).refusals)
    try:
        # CHAT_STEP: the step and what it tells the chat (the board, the bot's in-step
        # teller) are one transaction, as a chat step's.
        with origin("webapp"):
            async with request.app[CHAT_STEP]():
                return await spec.run(ctx)
    except StaleState as exc:
        seq, stream = exc.params.get("seq"), exc.params.get("stream")
        raise ApiError("conflict", seq=seq, stream=stream) from None
    except refused as exc:
        raise refusal(exc, viewer.locale) from None


async def _answer(viewer: Viewer, scene: WebScene[Any]) -> web.Response:
    data = await scene.load(viewer.game.id, {})
    return web.json_response({"ok": True, scene.kind: scene.project(data, viewer)})


@require_role(*READ)
async def get_scene(request: web.Request, viewer: Viewer) -> web.Response:
    return await _answer(viewer, _scene(request, viewer))


@require_role(*WRITE)
async def post_scene(request: web.Request, viewer: Viewer) -> web.Response:
    scene = _scene(request, viewer)
    await _run(request, viewer, scene)
    return await _answer(viewer, scene)


def setup_scenes(app: web.Application) -> None:
    """The routes match the scene kinds of the registered systems only (any other path is
    the router's 404, and the game's other routes keep their 405s)."""
    kinds = sorted(set(scene_kinds()))
    if not kinds:
        return
    path = "/api/games/{token}/{scene:" + "|".join(re.escape(k) for k in kinds) + "}"
    app.router.add_get(path, get_scene)
    app.router.add_post(path, post_scene)
