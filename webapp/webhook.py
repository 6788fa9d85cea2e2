"""Telegram's webhook route: aiogram's handler with a bound on the updates in flight.

Each POST is answered at once and its update handled in a task (aiogram's background mode).
Beyond `max_in_flight` such tasks the route answers 503 without reading the update: Telegram
keeps it and delivers it again later (it retries any non-2xx answer), so a burst waits at
Telegram instead of piling up here as tasks, memory and seconds of latency. A refusal is
logged once a minute with the count, not once per update."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.webhook.aiohttp_server import SimpleRequestHandler
from aiohttp import web

log = logging.getLogger("kosti.webhook")

REFUSALS_LOGGED_EVERY_S = 60.0


class EveryMinute:
    """Counts events and logs their number at most once per `period` seconds."""

    def __init__(self, message: str, period: float = REFUSALS_LOGGED_EVERY_S) -> None:
        self.message = message
        self.period = period
        self.unlogged = 0
        self._last = -period

    def count(self, *args: Any) -> None:
        self.unlogged += 1
        now = time.monotonic()
        if now - self._last >= self.period:
            log.warning(self.message, self.unlogged, *args)
            self.unlogged = 0
            self._last = now


class WebhookHandler(SimpleRequestHandler):
    """The webhook route. The app's shutdown leaves the bot's session open: the updates still
    being handled need it, and the owner of the bot (bot/runner.py) closes it once done."""

    def __init__(
        self, dispatcher: Dispatcher, bot: Bot, *, secret_token: str, max_in_flight: int
    ) -> None:
        super().__init__(dispatcher, bot, handle_in_background=True, secret_token=secret_token)
        self.max_in_flight = max_in_flight
        self.in_flight: set[asyncio.Task[Any]] = set()
        self._busy = EveryMinute(
            "webhook busy: %d update(s) refused since the last report "
            "(%d in flight, the bound is %d); Telegram delivers them again"
        )

    async def _handle_request_background(self, bot: Bot, request: web.Request) -> web.Response:
        if len(self.in_flight) >= self.max_in_flight:
            self._busy.count(len(self.in_flight), self.max_in_flight)
            return web.json_response({"ok": False, "error": "busy"}, status=503)
        update = await request.json(loads=bot.session.json_loads)
        task = asyncio.create_task(self._background_feed_update(bot=bot, update=update))
        self.in_flight.add(task)
        task.add_done_callback(self.in_flight.discard)
        return web.json_response({}, dumps=bot.session.json_dumps)

    async def close(self) -> None:
        return None
