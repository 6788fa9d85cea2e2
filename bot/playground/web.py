"""The playground's page and its API, in the same aiohttp app as the Mini App: ``/`` (the
page), ``/playground/static/`` (its files, no build step), ``/playground/api/…`` (what a
user does: write, press, start, add a user, open the Mini App, the demo table) and
``/playground/ws`` (every change of the chats, live)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from aiohttp import WSMsgType, web

from bot.playground.demo import lay_out, with_demo
from bot.playground.errors import BotApiError
from bot.playground.launch import launch_url
from bot.playground.play import Playground
from bot.playground.texts import page_demos, page_texts
from webapp.keys import SOCKETS

STATIC = Path(__file__).resolve().parent / "static"
PLAYGROUND = web.AppKey("playground", Playground)
PAGE_HEADERS = {"Cache-Control": "no-cache"}


def _json(data: object, status: int = 200) -> web.Response:
    return web.json_response(data, status=status, dumps=lambda d: json.dumps(d, ensure_ascii=False))


TYPES = {".html": "text/html", ".css": "text/css", ".js": "text/javascript"}
# The page's three files, read once: served from memory (no file thread per request).
FILES = {path.name: path.read_bytes() for path in STATIC.iterdir() if path.suffix in TYPES}


def _file(name: str) -> web.Response:
    body = FILES.get(name)
    if body is None:
        raise web.HTTPNotFound()
    kind = TYPES[Path(name).suffix]
    return web.Response(body=body, content_type=kind, charset="utf-8", headers=PAGE_HEADERS)


async def home(request: web.Request) -> web.Response:
    return _file("index.html")


async def static(request: web.Request) -> web.Response:
    return _file(request.match_info["name"])


def _play(request: web.Request) -> Playground:
    return request.app[PLAYGROUND]


async def _body(request: web.Request) -> dict[str, Any]:
    # JSON only: another site's form or text/plain post (no CORS preflight) cannot drive it
    if request.content_type != "application/json":
        raise web.HTTPUnsupportedMediaType()
    try:
        data = await request.json()
    except ValueError:
        raise web.HTTPBadRequest() from None
    if not isinstance(data, dict):
        raise web.HTTPBadRequest()
    return data


def _int(data: dict[str, Any], key: str, default: int | None = None) -> int | None:
    value = data.get(key, default)
    if value is None:
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise web.HTTPBadRequest() from None


def _refused(error: BotApiError) -> web.Response:
    return _json({"ok": False, "description": error.description}, status=400)


async def state(request: web.Request) -> web.Response:
    play = _play(request)
    locale = request.query.get("lang", "ru")
    snapshot = play.world.snapshot()
    return _json({**snapshot, "texts": page_texts(locale), "demos": page_demos(locale)})


async def send(request: web.Request) -> web.Response:
    data = await _body(request)
    try:
        message = await _play(request).write(
            _int(data, "user") or 0,
            _int(data, "chat") or 0,
            str(data.get("text", "")),
            thread=_int(data, "thread"),
            reply_to=_int(data, "reply"),
        )
    except (BotApiError, KeyError) as error:
        return _refused(error if isinstance(error, BotApiError) else BotApiError.bad("no user"))
    return _json({"ok": True, "id": message.id})


async def press(request: web.Request) -> web.Response:
    data = await _body(request)
    try:
        query_id = await _play(request).press(
            _int(data, "user") or 0,
            _int(data, "chat") or 0,
            _int(data, "message") or 0,
            _int(data, "row", 0) or 0,
            _int(data, "col", 0) or 0,
        )
    except (BotApiError, KeyError) as error:
        return _refused(error if isinstance(error, BotApiError) else BotApiError.bad("no user"))
    return _json({"ok": True, "query": query_id})


async def start(request: web.Request) -> web.Response:
    data = await _body(request)
    param = data.get("param")
    try:
        message = await _play(request).start(_int(data, "user") or 0, param and str(param)[:64])
    except (BotApiError, KeyError) as error:
        return _refused(error if isinstance(error, BotApiError) else BotApiError.bad("no user"))
    return _json({"ok": True, "id": message.id})


async def add_user(request: web.Request) -> web.Response:
    data = await _body(request)
    name = str(data.get("name", "")).strip()
    if not name:
        return _refused(BotApiError.bad("a name is needed"))
    return _json({"ok": True, "id": _play(request).add_user(name)})


async def miniapp(request: web.Request) -> web.Response:
    """The launch address of the Mini App for a user (a link's or a button's start param)."""
    play, query = _play(request), request.query
    try:
        user_id = int(query.get("user", ""))
        user = play.world.users[user_id]
    except (ValueError, KeyError):
        raise web.HTTPNotFound() from None
    chat = play.world.chats.get(int(query.get("chat") or user_id))
    chat_type = "sender" if chat is None or chat.type == "private" else chat.type
    url = launch_url(
        play.token,
        user.as_dict(),
        link=query.get("link", ""),
        scheme="dark" if query.get("scheme") == "dark" else "light",
        chat_type=chat_type,
        allows_write_to_pm=play.world.chats[user_id].started,
    )
    return _json({"ok": True, "url": url})


async def demo(request: web.Request) -> web.Response:
    """Lay out a system's demo table (`system`; all of them without it), once."""
    data = await _body(request)
    code = data.get("system")
    if code is not None and code not in {s.code for s in with_demo()}:
        return _refused(BotApiError.bad("no such demo table"))
    chat, thread = await lay_out(_play(request), code)
    title = chat.title if thread is None else chat.topics[thread]
    return _json({"ok": True, "chat": chat.id, "thread": thread, "title": title})


async def document(request: web.Request) -> web.Response:
    found = _play(request).world.files.get(request.match_info["file_id"])
    if found is None:
        raise web.HTTPNotFound()
    name, body = found
    disposition = f"attachment; filename*=UTF-8''{quote(name, safe='')}"
    return web.Response(body=body, headers={"Content-Disposition": disposition})


async def live(request: web.Request) -> web.WebSocketResponse:
    play = _play(request)
    origin = request.headers.get("Origin")
    if origin is not None and urlsplit(origin).netloc != request.host:
        raise web.HTTPForbidden()  # another site's page may not read the chats
    ws = web.WebSocketResponse(heartbeat=30)
    await ws.prepare(request)
    request.app[SOCKETS].add(ws)  # closed at shutdown with the Mini App's (Ctrl+C is quick)
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    unsubscribe = play.world.subscribe(queue.put_nowait)
    writer = asyncio.create_task(_forward(ws, queue))
    try:
        async for message in ws:
            if message.type == WSMsgType.ERROR:
                break
    finally:
        unsubscribe()
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await writer
    return ws


async def _forward(ws: web.WebSocketResponse, queue: asyncio.Queue[dict[str, Any]]) -> None:
    while True:
        event = await queue.get()
        with contextlib.suppress(ConnectionError):
            await ws.send_str(json.dumps(event, ensure_ascii=False))


def setup_playground(app: web.Application, play: Playground) -> None:
    app[PLAYGROUND] = play
    app.router.add_get("/", home)
    app.router.add_get("/playground/static/{name}", static)
    app.router.add_get("/playground/api/state", state)
    app.router.add_post("/playground/api/send", send)
    app.router.add_post("/playground/api/press", press)
    app.router.add_post("/playground/api/start", start)
    app.router.add_post("/playground/api/users", add_user)
    app.router.add_get("/playground/api/miniapp", miniapp)
    app.router.add_post("/playground/api/demo", demo)
    app.router.add_get("/playground/api/files/{file_id}", document)
    app.router.add_get("/playground/ws", live)
