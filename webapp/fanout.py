"""Live fan-out between workers through Redis pub/sub (REDIS_URL set; otherwise absent).

Each worker's notifier hears the changes made by that worker (its chat updates, its Mini App
requests, its outbox). The fan-out PUBLISHes each of them on one channel — game, topic and the
few JSON values the receivers need (a roll's id, whether it was revealed), never the content:
every other worker reads the state itself, as its bridge does for a local change, and hands
the change to its bridge (webapp/bridge.py), which pushes it to the sockets open there. Only
the live boards hear remote changes: chat side effects stay with the worker that made the
step (its outbox), so nothing is posted twice.

Redis is not the source of truth: while it is down, steps and chat commands go on, each
worker's own sockets stay live, the failure is logged (once a minute while it lasts), and the
fan-out resumes by itself; a socket that missed a change meanwhile sees a gap in the seq it
gets next and reloads (static/app/live.js)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from typing import Any

from aiohttp import web
from redis.asyncio import Redis
from redis.exceptions import RedisError

from engine.services.notify import Notification
from engine.services.rolls import get_roll
from engine.store.redis import PREFIX, connect, worker_id
from webapp.bridge import BRIDGE
from webapp.keys import NOTIFIER

log = logging.getLogger("kosti.fanout")

CHANNEL = PREFIX + "live"
RETRY_S = (0.2, 0.5, 1.0, 2.0, 5.0)  # reconnect waits, the last one repeated
QUEUE = 10_000  # changes waiting to be published; beyond it the oldest is dropped
COPIED = ("stream", "seq", "closed", "revealed", "change", "origin")


def encode(note: Notification, worker: str) -> bytes | None:
    info: dict[str, Any] = {k: note.info[k] for k in COPIED if k in note.info}
    if note.topic == "roll":
        record = note.info.get("record")
        if record is None:
            return None
        info["record_id"] = record.id
    return json.dumps({"w": worker, "g": note.game_id, "t": note.topic, "i": info}).encode()


class Fanout:
    def __init__(self, app: web.Application, redis: Redis, worker: str | None = None) -> None:
        self.app, self.redis = app, redis
        self.worker = worker or worker_id()
        self.outgoing: asyncio.Queue[bytes] = asyncio.Queue(QUEUE)
        self.tasks: list[asyncio.Task[None]] = []
        self.unsubscribe: Callable[[], None] | None = None
        self.connected = asyncio.Event()  # set while the listener is subscribed
        self.received = 0
        self._last_complaint = -60.0

    # -- this worker's changes, out ----------------------------------------------------------
    def on_local(self, note: Notification) -> None:
        """A notify subscriber: quick, the PUBLISH runs in the background."""
        message = encode(note, self.worker)
        if message is None:
            return
        if self.outgoing.full():
            self.outgoing.get_nowait()
        self.outgoing.put_nowait(message)

    async def _publish(self) -> None:
        while True:
            message = await self.outgoing.get()
            try:
                await self.redis.publish(CHANNEL, message)
            except (RedisError, OSError) as error:
                self._complain("publishing a live change failed", error)

    # -- the other workers' changes, in ------------------------------------------------------
    async def _listen(self) -> None:
        attempt = 0
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(CHANNEL)
                if attempt:
                    log.warning("live fan-out through Redis resumed")
                attempt = 0
                self.connected.set()
                async for message in pubsub.listen():
                    await self._receive(message["data"])
            except (RedisError, OSError) as error:
                self.connected.clear()
                self._complain("live fan-out through Redis is down; retrying", error)
                await asyncio.sleep(RETRY_S[min(attempt, len(RETRY_S) - 1)])
                attempt += 1
            finally:
                self.connected.clear()
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]  # redis: unannotated

    async def _receive(self, raw: bytes) -> None:
        try:
            data = json.loads(raw)
            if data.get("w") == self.worker:
                return
            game_id, topic, info = int(data["g"]), str(data["t"]), dict(data.get("i") or {})
        except (ValueError, KeyError, TypeError):
            log.warning("a live change from Redis could not be read: %r", raw[:200])
            return
        self.received += 1
        if topic == "roll":
            try:
                info["record"] = await get_roll(int(info["record_id"]))
            except Exception:  # gone meanwhile (the game ended)
                log.debug("the roll of a remote change is gone", exc_info=True)
                return
        info["remote"] = True
        await self.app[BRIDGE].on_change(Notification(game_id, topic, info))

    def _complain(self, what: str, error: BaseException) -> None:
        now = time.monotonic()
        if now - self._last_complaint >= 60:
            log.warning("%s: %s", what, error)
            self._last_complaint = now

    # -- life --------------------------------------------------------------------------------
    def start(self) -> None:
        self.unsubscribe = self.app[NOTIFIER].subscribe(self.on_local)
        self.tasks = [asyncio.create_task(self._publish()), asyncio.create_task(self._listen())]

    async def stop(self) -> None:
        if self.unsubscribe is not None:
            self.unsubscribe()
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.redis.aclose()


FANOUT = web.AppKey("webapp_fanout", Fanout)


def setup_fanout(app: web.Application, redis_url: str) -> None:
    async def start(app: web.Application) -> None:
        app[FANOUT] = Fanout(app, connect(redis_url))
        app[FANOUT].start()

    async def stop(app: web.Application) -> None:
        if FANOUT in app:
            await app[FANOUT].stop()

    app.on_startup.append(start)  # after the bridge's (setup_bridge runs first)
    app.on_cleanup.append(stop)
