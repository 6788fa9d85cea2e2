"""The aiohttp application that runs beside the bot in the same process.

Today it serves a health check and, in webhook mode, Telegram's webhook route; the Mini App's
API and static files join it later. Errors are JSON with a stable code.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from aiogram import Bot, Dispatcher
from aiogram.webhook.aiohttp_server import SimpleRequestHandler
from aiohttp import web

from bot.settings import Settings

SETTINGS = web.AppKey("settings", Settings)
DEFAULT_WEBHOOK_PATH = "/telegram/webhook"


def webhook_path(settings: Settings) -> str:
    """The local route for updates: the path part of WEBHOOK_URL (a reverse proxy may strip
    nothing, so the public and local paths are the same)."""
    path = urlsplit(settings.webhook_url or "").path
    return path if path not in ("", "/") else DEFAULT_WEBHOOK_PATH


def json_error(status: int, code: str, message: str) -> web.Response:
    return web.json_response(
        {"ok": False, "error": {"code": code, "message": message}}, status=status
    )


@web.middleware
async def json_errors(request: web.Request, handler):  # type: ignore[no-untyped-def]
    try:
        return await handler(request)
    except web.HTTPException as exc:
        if exc.status < 400:
            raise
        code = {404: "not_found", 405: "method_not_allowed", 401: "unauthorized"}.get(
            exc.status, "http_error"
        )
        return json_error(exc.status, code, exc.reason)


async def health(request: web.Request) -> web.Response:
    return web.json_response({"ok": True, "service": "kosti"})


def create_app(
    settings: Settings, *, bot: Bot | None = None, dispatcher: Dispatcher | None = None
) -> web.Application:
    app = web.Application(middlewares=[json_errors])
    app[SETTINGS] = settings
    app.router.add_get("/healthz", health)
    if settings.webhook_url and bot is not None and dispatcher is not None:
        secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else None
        SimpleRequestHandler(dispatcher, bot, secret_token=secret).register(
            app, path=webhook_path(settings)
        )
    return app
