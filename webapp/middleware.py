"""Middlewares: JSON errors, security headers (strict CSP) and initData authentication."""

from __future__ import annotations

import logging

from aiohttp import web
from aiohttp.typedefs import Handler

from engine.services.errors import ServiceError
from engine.services.metrics import DATABASE_ERRORS
from engine.store.db import database_unreachable
from webapp.auth import AuthError, InitData, credentials, validate_init_data
from webapp.errors import HTTP_CODES, ApiError, error_message, json_error, refusal
from webapp.i18n import pick_locale
from webapp.keys import AUTH_TOKEN, CONFIG, INIT_DATA

log = logging.getLogger(__name__)

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
API_PREFIX = "/api/"
# Routes that may authenticate inside the WebSocket (first message) instead of the header.
WS_AUTH_ATTR = "kosti_ws_auth"


@web.middleware
async def json_errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        return await handler(request)
    except ApiError as exc:
        return json_error(exc.code, exc.message, **exc.details)
    except ServiceError as exc:  # a service's refusal no handler turned into its answer
        api = refusal(exc, _locale(request))
        return json_error(api.code, api.message, **api.details)
    except web.HTTPException as exc:
        if exc.status < 400:
            raise
        code = HTTP_CODES.get(exc.status, "http_error")
        response = json_error(code, error_message(code))
        response.set_status(exc.status)
        return response
    except Exception as error:
        if database_unreachable(error):
            DATABASE_ERRORS.labels("api").inc()
            log.warning("the database is out of reach on %s: %s", request.path, error)
            return json_error(
                "database_unreachable", error_message("database_unreachable", _locale(request))
            )
        log.exception("unhandled error on %s %s", request.method, request.path)
        return json_error("internal")


def _locale(request: web.Request) -> str:
    """The language of the signed-in user's Telegram (their stored choice is not read here)."""
    data = request.get(INIT_DATA)
    return pick_locale(None, data.user.language_code if data is not None else None)


@web.middleware
async def security_headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        response = await handler(request)
    except web.HTTPException as exc:
        exc.headers.update(SECURITY_HEADERS)
        raise
    if not response.prepared:  # a WebSocket or a stream has sent its headers already
        for name, value in SECURITY_HEADERS.items():
            # the page's CSP is its own: CSP plus the hashes of its inline scripts
            response.headers.setdefault(name, value)
    return response


def checked_init_data(app: web.Application, raw: str | None) -> InitData:
    """`raw` checked with the app's bot token and its age limits (raises AuthError)."""
    config = app[CONFIG]
    return validate_init_data(
        raw,
        app[AUTH_TOKEN],
        max_age=config.init_data_max_age,
        future_skew=config.init_data_future_skew,
    )


@web.middleware
async def authenticate(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every /api/ route needs valid initData: ``Authorization: tma <initData>``; a
    WebSocket route also takes ``?tma=<initData>`` or its first message (see api/ws.py)."""
    if not request.path.startswith(API_PREFIX):
        return await handler(request)
    if AUTH_TOKEN not in request.app:
        raise ApiError("not_configured")
    ws_route = getattr(request.match_info.handler, WS_AUTH_ATTR, False)
    try:
        raw = credentials(request.headers.get("Authorization"))
        if raw is None and ws_route and "tma" in request.query:
            raw = request.query["tma"]
            if not raw:
                raise AuthError("auth_missing", "empty tma parameter")
        if raw is None:
            if ws_route:  # authenticates with its first message
                return await handler(request)
            raise AuthError("auth_missing", "no Authorization header")
        request[INIT_DATA] = checked_init_data(request.app, raw)
    except AuthError as exc:
        log.info("refused %s %s: %s", request.method, request.path, exc.reason)
        raise ApiError(exc.code) from None
    return await handler(request)
