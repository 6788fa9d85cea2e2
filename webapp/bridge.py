"""The bridge from the services' change notifier (engine.services.notify) to the live
broadcaster.

A change made anywhere — a chat command, a Mini App request, the bot's bookkeeping — is
announced by the service that wrote it. A roll is published at once (the record is in the
notification). A scene's change (its topic is a registered scene's, webapp/systems/registry.py)
is read once by the scene's adapter (in the background, one game at a time, so pushes keep the
order of the writes) and published as that scene kind; every open socket projects it for its
own viewer (webapp/api/ws.py), encoded once per distinct view. Any other topic ("game") is
published without data.

The bridge listens to the app's notifier (`NOTIFIER`: the process's one when the runner
passes it), which `bind_notifier` binds for every request, so the services called by a
request tell this app's subscribers and no other app's."""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable, Coroutine

from aiohttp import web

from engine.services.notify import Notification, using
from webapp.keys import BACKGROUND, BROADCASTER, NOTIFIER
from webapp.live import LocalBroadcaster
from webapp.queries import previous_roll
from webapp.systems.registry import scene_of_topic

log = logging.getLogger(__name__)


class NotifyBridge:
    """Subscribed to the app's notifier while the app runs (on_startup/on_shutdown)."""

    def __init__(self, app: web.Application) -> None:
        self.app = app
        self.locks: dict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.unsubscribe: Callable[[], None] | None = None

    def start(self) -> None:
        self.unsubscribe = self.app[NOTIFIER].subscribe(self.on_change)

    def stop(self) -> None:
        if self.unsubscribe is not None:
            self.unsubscribe()
            self.unsubscribe = None

    async def on_change(self, note: Notification) -> None:
        """Called inside the service call, after its write: publishes a roll at once (the
        record is in the notification) and schedules the reading of a scene."""
        broadcaster = self.app[BROADCASTER]
        if isinstance(broadcaster, LocalBroadcaster) and not broadcaster.subscriber_count(
            note.game_id
        ):
            return  # nobody watches the game here: a snapshot will read the state
        if note.topic == "roll":
            record = note.info.get("record")
            if record is None:
                return
            if note.info.get("revealed"):
                await broadcaster.publish(note.game_id, "roll_revealed", record, seq=record.id)
            else:  # `prev` lets a client see that it missed a roll
                prev = await previous_roll(note.game_id, record.id)
                await broadcaster.publish(note.game_id, "roll", record, seq=record.id, prev=prev)
            return
        self._spawn(self._push(note))

    def _spawn(self, coro: Coroutine[object, object, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        tasks = self.app[BACKGROUND]
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    async def _push(self, note: Notification) -> None:
        broadcaster = self.app[BROADCASTER]
        scene = scene_of_topic(note.topic)
        try:
            async with self.locks[note.game_id]:
                if scene is None:  # "game": sockets send a fresh snapshot
                    await broadcaster.publish(note.game_id, note.topic, None)
                else:
                    data = await scene.load(note.game_id, {})
                    await broadcaster.publish(note.game_id, scene.kind, data)
        except Exception:
            log.exception("live push of %s failed for game %s", note.topic, note.game_id)


BRIDGE = web.AppKey("webapp_notify_bridge", NotifyBridge)


@web.middleware
async def bind_notifier(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """The services a request calls (and the tasks it starts) tell the app's notifier."""
    with using(request.app[NOTIFIER]):
        return await handler(request)


def setup_bridge(app: web.Application) -> None:
    app.middlewares.append(bind_notifier)

    async def start(app: web.Application) -> None:
        bridge = NotifyBridge(app)
        app[BRIDGE] = bridge
        bridge.start()

    async def stop(app: web.Application) -> None:
        if BRIDGE in app:
            app[BRIDGE].stop()

    app.on_startup.append(start)
    app.on_shutdown.insert(0, stop)
