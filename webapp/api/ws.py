"""GET /api/games/{token}/ws: live updates of one game for one viewer.

Protocol (JSON text frames):
- auth: the Mini App offers the subprotocols ``kosti`` and ``tma.<initData as unpadded
  base64url>`` (a browser can set no other header on a WebSocket; the server picks
  ``kosti``), so the snapshot leaves with the handshake's answer, with no round trip for an
  auth message; other clients may send ``Authorization: tma ...`` on the upgrade request,
  or ``?tma=<initData>``, or the first message ``{"type": "auth", "initData": "..."}``
  (within AUTH_TIMEOUT seconds);
- the server sends ``{"type": "snapshot", "seq", "game", "rolls", <scene kind>: ...}`` at
  once (one key per scene kind of the game's rule system, webapp/feed.py; `seq`: the id of
  the game's newest roll), then pushes ``{"type": "roll", "seq": <its id>, "prev": <the
  game's roll before it>, "roll"}``, ``{"type": "roll_revealed", "seq", "roll"}`` and
  ``{"type": <scene kind>, "stream", "seq", <scene kind>: ...}`` (the viewer's projection,
  null when none is open, with its stream's own seq; the kinds are the system's,
  webapp/systems/registry.py) and, after a change of the game's members or its end, a fresh
  snapshot. Each push is encoded once per distinct view (webapp/feed.py `push_frame`);
- the client may send ``{"type": "resync"}`` (a new snapshot follows) and ``{"type": "ping"}``
  (``{"type": "pong"}``); on reconnect it simply gets a fresh snapshot;
- refusals: ``{"type": "error", "error": {"code", "message"}}`` then close 4401 (auth),
  4403 (forbidden) or 4404 (no such game); a client that closes before its auth message gets
  the 4401 close alone, quietly (an INFO line, no error);
- the ``?tma=`` value never reaches the access log (webapp/access_log.py).
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import json
import logging
from typing import Any

from aiohttp import WSMsgType, web

from webapp.auth import AuthError, InitData
from webapp.errors import ApiError, error_body
from webapp.feed import encode, push_frame, snapshot
from webapp.keys import BROADCASTER, INIT_DATA, SOCKETS
from webapp.live import LiveEvent
from webapp.middleware import WS_AUTH_ATTR, checked_init_data
from webapp.projection import Viewer
from webapp.roles import viewer_for

log = logging.getLogger(__name__)
AUTH_TIMEOUT = 10.0
QUEUE_SIZE = 256
CLOSE_CODES = {401: 4401, 403: 4403, 404: 4404}
PROTOCOL = "kosti"
CREDENTIAL_PROTOCOL = "tma."  # + initData as unpadded base64url (a header token's characters)
_MAX_CREDENTIAL = 6000  # base64 of the 4096 characters validate_init_data accepts at most
_RESYNC, _PONG = "resync", "pong"


class Connection:
    """One open socket: a Subscriber whose queue a single writer task drains."""

    def __init__(self, app: web.Application, ws: web.WebSocketResponse, viewer: Viewer) -> None:
        self.app, self.ws, self.viewer = app, ws, viewer
        self.queue: asyncio.Queue[LiveEvent | str] = asyncio.Queue(QUEUE_SIZE)
        self.overflow = False

    def deliver(self, event: LiveEvent) -> None:
        try:
            self.queue.put_nowait(event)
        except asyncio.QueueFull:  # a slow client: drop the backlog, send a snapshot instead
            self.overflow = True

    def request(self, what: str) -> None:
        """Ask the writer (the only task that sends) for a snapshot or a pong."""
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(what)

    async def send(self, payload: dict[str, Any]) -> None:
        await self.ws.send_str(json.dumps(payload, ensure_ascii=False))

    async def writer(self) -> None:
        try:
            await self._write()
        except Exception:
            log.exception("live writer failed for game %s", self.viewer.game.id)
            await self.ws.close(code=1011)

    async def _write(self) -> None:
        seen = await self.send_snapshot()
        while not self.ws.closed:
            item = await self.queue.get()
            if item == _PONG:
                await self.send({"type": "pong"})
                continue
            if self.overflow or item == _RESYNC:
                self.overflow = False
                while not self.queue.empty():
                    self.queue.get_nowait()
                seen = await self.send_snapshot()
                continue
            assert isinstance(item, LiveEvent)
            if item.order <= seen:  # already part of the snapshot
                continue
            if item.type == "game":  # roles may have changed: a fresh snapshot re-reads them
                seen = await self.send_snapshot()
                continue
            seen = item.order
            # projected for the viewer as the last snapshot showed them, shared with every
            # socket of the same view
            frame = await push_frame(item, self.viewer)
            if frame is not None:
                await self.ws.send_frame(frame, WSMsgType.TEXT)

    async def send_snapshot(self) -> int:
        """Send a snapshot with the viewer re-read (every later push is projected for the
        role it shows); returns the broadcaster's order it includes."""
        self.viewer, data, order = await snapshot(self.app, self.viewer)
        # the same bytes as GET .../snapshot's (the page compares the two texts)
        await self.ws.send_frame(encode(data), WSMsgType.TEXT)
        return order


async def _refuse(ws: web.WebSocketResponse, code: str, status: int) -> web.WebSocketResponse:
    # the client may be gone already (closed before its auth message): then the close alone
    with contextlib.suppress(ConnectionResetError):
        await ws.send_str(json.dumps({"type": "error", **error_body(code)}, ensure_ascii=False))
    await ws.close(code=CLOSE_CODES.get(status, 4400), message=code.encode())
    return ws


def _protocol_auth(request: web.Request) -> InitData | None:
    """The initData offered as a subprotocol (None: not offered there); a forged or broken
    value is refused like any other (the socket is open by then: a 4401 close, so the page
    does not reconnect in a loop, as it would after a refused handshake)."""
    offered = (
        p.strip()
        for header in request.headers.getall("Sec-WebSocket-Protocol", ())
        for p in header.split(",")
    )
    value = next((p for p in offered if p.startswith(CREDENTIAL_PROTOCOL)), None)
    if value is None:
        return None
    encoded = value[len(CREDENTIAL_PROTOCOL) :]
    if not encoded:
        raise AuthError("auth_missing", "empty credential protocol")
    if len(encoded) > _MAX_CREDENTIAL:
        raise AuthError("auth_invalid", "credential protocol of a wrong length")
    try:
        padded = encoded + "=" * (-len(encoded) % 4)
        raw = base64.b64decode(padded, altchars=b"-_", validate=True).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise AuthError("auth_invalid", "credential protocol is not base64url") from None
    return checked_init_data(request.app, raw)


async def _first_message_auth(request: web.Request, ws: web.WebSocketResponse) -> InitData:
    try:
        msg = await ws.receive(timeout=AUTH_TIMEOUT)
    except TimeoutError:
        raise AuthError("auth_missing", "no auth message") from None
    if msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED):
        raise AuthError("auth_missing", "closed before the auth message")
    if msg.type != WSMsgType.TEXT:
        raise AuthError("auth_missing", "no auth message")
    try:
        data = json.loads(msg.data)
    except ValueError:
        raise AuthError("auth_invalid", "auth message is not JSON") from None
    if not isinstance(data, dict) or data.get("type") != "auth":
        raise AuthError("auth_missing", "first message is not auth")
    raw = data.get("initData")
    return checked_init_data(request.app, raw if isinstance(raw, str) else None)


async def game_socket(request: web.Request) -> web.WebSocketResponse:
    # autoclose off: a client that closes before authenticating gets 4401, not an echoed 1000
    # (after authentication the loop below ends on the close and answers it in `finally`)
    ws = web.WebSocketResponse(
        heartbeat=25.0, max_msg_size=8 * 1024, autoclose=False, protocols=(PROTOCOL,)
    )
    await ws.prepare(request)
    request.app[SOCKETS].add(ws)
    try:
        init = (
            request.get(INIT_DATA)
            or _protocol_auth(request)
            or await _first_message_auth(request, ws)
        )
        viewer = await viewer_for(request, request.match_info["token"], init)
    except AuthError as exc:
        log.info("websocket refused: %s", exc.reason)
        return await _refuse(ws, exc.code, 401)
    except ApiError as exc:
        return await _refuse(ws, exc.code, exc.status)

    broadcaster = request.app[BROADCASTER]
    conn = Connection(request.app, ws, viewer)
    broadcaster.subscribe(viewer.game.id, conn)
    writer = asyncio.create_task(conn.writer())
    try:
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            try:
                kind = json.loads(msg.data).get("type")
            except (ValueError, AttributeError):
                continue
            if kind in (_RESYNC, "ping"):
                conn.request(_RESYNC if kind == _RESYNC else _PONG)
    finally:
        broadcaster.unsubscribe(viewer.game.id, conn)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer
        await ws.close()
    return ws


setattr(game_socket, WS_AUTH_ATTR, True)
