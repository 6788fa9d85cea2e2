"""Telegram's webhook route: an update is answered 200 only once it is stored.

The body is read as an update (not one: 400, no traceback), written to the inbox and queued
in its chat's lane (bot/intake.py), then answered. The database out of reach: 503, and
Telegram delivers the update again later (it retries any non-2xx answer); so does it when
the lanes already hold their bound of waiting updates, so that a flood waits at Telegram
instead of piling up here. A refusal is logged once a minute with the count, not once per
update."""

from __future__ import annotations

import logging
import secrets
import time

from aiohttp import web

from bot.intake import Intake, Malformed, parse
from engine.services.metrics import DATABASE_ERRORS
from engine.store.db import database_unreachable

log = logging.getLogger("kosti.webhook")

REFUSALS_LOGGED_EVERY_S = 60.0
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


class EveryMinute:
    """Counts events and logs their number at most once per `period` seconds."""

    def __init__(self, message: str, period: float = REFUSALS_LOGGED_EVERY_S) -> None:
        self.message = message
        self.period = period
        self.unlogged = 0
        self._last = -period

    def count(self, *args: object) -> None:
        self.unlogged += 1
        now = time.monotonic()
        if now - self._last >= self.period:
            log.warning(self.message, self.unlogged, *args)
            self.unlogged = 0
            self._last = now


def _refused(status: int, code: str) -> web.Response:
    return web.json_response({"ok": False, "error": code}, status=status)


class WebhookHandler:
    def __init__(self, intake: Intake, *, secret_token: str) -> None:
        self.intake, self.secret_token = intake, secret_token
        self._busy = EveryMinute(
            "webhook busy: %d update(s) refused since the last report "
            "(%d waiting, the bound is %d); Telegram delivers them again"
        )
        self._outage = EveryMinute(
            "the database is out of reach: %d update(s) refused since the last report; "
            "Telegram delivers them again"
        )

    def register(self, app: web.Application, path: str) -> None:
        app.router.add_post(path, self.handle)

    async def handle(self, request: web.Request) -> web.Response:
        if not secrets.compare_digest(request.headers.get(SECRET_HEADER, ""), self.secret_token):
            return web.Response(body="Unauthorized", status=401)
        if self.intake.full:
            self._busy.count(self.intake.queued, self.intake.queued_max)
            return _refused(503, "busy")
        body = await request.read()
        try:
            update = parse(body, self.intake.bot)
        except Malformed as error:
            log.warning("webhook: a body that is no update refused (%s)", str(error)[:200])
            return _refused(400, "malformed_update")
        try:
            await self.intake.receive([update], [body.decode()])
        except Exception as error:
            if not database_unreachable(error):
                log.exception("webhook: update %s could not be stored", update.update_id)
            else:
                DATABASE_ERRORS.labels("webhook").inc()
                self._outage.count()
            return _refused(503, "not_stored")
        return web.json_response({})
