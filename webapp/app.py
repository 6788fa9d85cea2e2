"""The aiohttp application that runs beside the bot in the same process: health check,
Telegram's webhook route (webhook mode), and the Mini App — static files under /app/, the
JSON API and WebSocket under /api/ (docs/webapp.md). Errors are JSON with a stable code.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from aiohttp import WSCloseCode, web

from bot.settings import Settings
from engine.dice.rng import Rng, system_rng
from engine.services.metrics import SOCKETS as metric_sockets
from engine.services.metrics import watch
from engine.services.notify import Notifier
from webapp import access_log
from webapp.api import setup_api
from webapp.bridge import setup_bridge
from webapp.config import WebAppConfig
from webapp.dev import DEV_BOT_TOKEN, check_dev_mode, is_dev_token, setup_dev
from webapp.errors import json_error
from webapp.fanout import setup_fanout
from webapp.keys import (
    AUTH_TOKEN,
    BACKGROUND,
    BROADCASTER,
    CHAT_STEP,
    CONFIG,
    LINK_SECRET,
    NOTIFIER,
    ON_REVEAL,
    ON_ROLL,
    RNG,
    SOCKETS,
    ChatStep,
    RollHook,
)
from webapp.links import link_secret
from webapp.live import Broadcaster, LocalBroadcaster
from webapp.metrics import setup_metrics
from webapp.middleware import authenticate, json_errors, security_headers
from webapp.receipts import setup_receipts
from webapp.static_files import setup_static
from webapp.webhook import WebhookHandler

if TYPE_CHECKING:
    from bot.intake import Intake

log = logging.getLogger(__name__)
SETTINGS = web.AppKey("settings", Settings)
DEFAULT_WEBHOOK_PATH = "/telegram/webhook"
__all__ = ["DEFAULT_WEBHOOK_PATH", "SETTINGS", "create_app", "json_error", "webhook_path"]


def webhook_path(settings: Settings) -> str:
    """The local route for updates: the path part of WEBHOOK_URL (a reverse proxy may strip
    nothing, so the public and local paths are the same)."""
    path = urlsplit(settings.webhook_url or "").path
    return path if path not in ("", "/") else DEFAULT_WEBHOOK_PATH


async def health(request: web.Request) -> web.Response:
    return web.json_response({"ok": True, "service": "kosti"})


async def to_app(request: web.Request) -> web.Response:
    raise web.HTTPFound("/app/")


def create_app(
    settings: Settings,
    *,
    webapp_config: WebAppConfig | None = None,
    on_roll: RollHook | None = None,
    on_reveal: RollHook | None = None,
    chat_step: ChatStep | None = None,
    broadcaster: Broadcaster | None = None,
    rng: Rng | None = None,
    notifier: Notifier | None = None,
    routes: Callable[[web.Application], None] | None = None,
    intake: Intake | None = None,
) -> web.Application:
    config = webapp_config or WebAppConfig()
    access_log.install()  # ?tma= credentials never reach the access log
    app = web.Application(middlewares=[json_errors, security_headers, authenticate])
    app[SETTINGS] = settings
    app[CONFIG] = config
    app[BROADCASTER] = broadcaster or LocalBroadcaster()
    # the runner passes the process's notifier (the bot's changes); otherwise the app's own
    app[NOTIFIER] = notifier or Notifier()
    app[RNG] = rng or system_rng()
    app[BACKGROUND] = set()
    app[SOCKETS] = weakref.WeakSet()
    if on_roll is not None:
        app[ON_ROLL] = on_roll
    if on_reveal is not None:
        app[ON_REVEAL] = on_reveal
    app[CHAT_STEP] = chat_step or contextlib.nullcontext
    token = settings.token
    if config.dev_init_data:
        check_dev_mode(config, token)  # raises DevModeRefused
        log.warning(
            "DEVELOPMENT MODE (KOSTI_DEV_INIT_DATA=1): /dev/open signs Telegram data for any "
            "user and game for browsers on this machine%s. Never expose this server.",
            " WITH THE REAL BOT TOKEN (KOSTI_DEV_ALLOW_REAL_TOKEN=1)"
            if token and not is_dev_token(token)
            else "",
        )
        token = token or DEV_BOT_TOKEN
        setup_dev(app)
    if token:
        app[AUTH_TOKEN] = token
        app[LINK_SECRET] = link_secret(token)
    else:
        log.info("no bot token: the Mini App API answers not_configured")

    app.router.add_get("/healthz", health)
    if routes is not None:  # a mode's own pages, "/" among them (the playground)
        routes(app)
    else:
        app.router.add_get("/", to_app)
    app.router.add_get("/app", to_app)
    setup_static(app)
    setup_receipts(app)
    setup_api(app)
    setup_bridge(app)
    if settings.redis_url:
        setup_fanout(app, settings.redis_url)
    if settings.metrics_token is not None and settings.metrics_token.get_secret_value():
        setup_metrics(app, settings.metrics_token.get_secret_value())
    sockets = app[SOCKETS]
    watch(metric_sockets, lambda: len(sockets))
    if settings.webhook_url and intake is not None:
        secret = settings.webhook_secret_value()
        WebhookHandler(intake, secret_token=secret).register(app, path=webhook_path(settings))
    app.on_shutdown.append(_close_sockets)
    app.on_shutdown.append(_finish_background)
    return app


async def _close_sockets(app: web.Application) -> None:
    sockets = app[SOCKETS]
    for ws in list(sockets):
        await ws.close(code=WSCloseCode.GOING_AWAY, message=b"server shutdown")


async def _finish_background(app: web.Application) -> None:
    background = app[BACKGROUND]
    tasks = list(background)
    if tasks:
        await asyncio.wait(tasks, timeout=5)
