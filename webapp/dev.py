"""Development mode (``KOSTI_DEV_INIT_DATA=1``, off by default): sign initData locally so the
Mini App opens in a plain browser, and launch-URL helpers shared with tests and the bench.

``GET /dev/open?user=<id>&name=<first name>&lang=ru&game=<game id>&screen=roll&scheme=dark``
answers loopback clients only and redirects to ``/app/#tgWebAppData=...`` signed with the bot
token (or DEV_BOT_TOKEN when there is none). It mints credentials for any user and game, so it
must never face the internet: dev mode trusts no forwarding header at all — a request carrying
``Forwarded``, ``Via``, any ``X-Forwarded-*`` or one of CLIENT_IP_HEADERS (``X-Real-IP``,
``X-Client-IP``, ``True-Client-IP``, ``CF-Connecting-IP``, ...), in any letter case, came
through a proxy and is refused (`is_forwarding_header`); and with a real token the app refuses
to start unless KOSTI_DEV_ALLOW_REAL_TOKEN=1 (`check_dev_mode`)."""

from __future__ import annotations

import json
import time
from ipaddress import ip_address
from typing import Any
from urllib.parse import quote

from aiohttp import web

from webapp.auth import sign_init_data
from webapp.config import WebAppConfig
from webapp.errors import ApiError
from webapp.keys import AUTH_TOKEN, LINK_SECRET
from webapp.links import SCREEN, game_token

DEV_BOT_TOKEN = "1:kosti-development-only"
# The dev/test form of a token: DEV_BOT_TOKEN, or `<digits>:` and a secret beginning with one
# of these markers (the tests' and benches' "123456:TEST-token"). Any other token counts as
# real — @BotFather's secrets are random base64url, so the safe default is to assume a token
# could be one, and a misjudged dev token costs only the second setting.
DEV_TOKEN_MARKERS = ("TEST-", "DEV-", "BENCH-")
# A same-host reverse proxy makes every request look local to the TCP peer check, so dev mode
# trusts no forwarding header at all: `Forwarded`, `Via`, anything starting with `X-Forwarded-`
# and these client-IP headers (proxies and CDNs add them; a browser sends none) are refused.
# A rule rather than a list of known names: a new X-Forwarded-* needs no edit here. Lower case;
# header names compare case-insensitively.
FORWARDING_HEADERS = frozenset({"forwarded", "via"})
FORWARDING_PREFIX = "x-forwarded-"
CLIENT_IP_HEADERS = frozenset(
    {
        "x-real-ip",
        "x-client-ip",
        "true-client-ip",
        "cf-connecting-ip",
        "fastly-client-ip",
        "x-cluster-client-ip",
        "x-original-forwarded-for",
        "client-ip",
        "x-proxyuser-ip",
        "x-envoy-external-address",
    }
)
LIGHT_THEME = {
    "bg_color": "#ffffff",
    "text_color": "#000000",
    "hint_color": "#999999",
    "link_color": "#2481cc",
    "button_color": "#2481cc",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#efeff3",
    "section_bg_color": "#ffffff",
    "destructive_text_color": "#cc2929",
}
DARK_THEME = {
    "bg_color": "#212121",
    "text_color": "#ffffff",
    "hint_color": "#aaaaaa",
    "link_color": "#8774e1",
    "button_color": "#8774e1",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#0f0f0f",
    "section_bg_color": "#212121",
    "destructive_text_color": "#ff595a",
}


def launch_fragment(
    init_data: str, *, theme: dict[str, str] | None = None, start_param: str | None = None
) -> str:
    """The URL hash Telegram gives a Mini App (read by telegram-web-apps.js)."""
    parts = {
        "tgWebAppData": init_data,
        "tgWebAppVersion": "8.0",
        "tgWebAppPlatform": "web",
        "tgWebAppThemeParams": json.dumps(theme or LIGHT_THEME, separators=(",", ":")),
    }
    if start_param:
        parts["tgWebAppStartParam"] = start_param
    return "&".join(f"{k}={quote(v, safe='')}" for k, v in parts.items())


def dev_user(user_id: int, name: str, lang: str = "ru") -> dict[str, Any]:
    return {"id": user_id, "first_name": name, "language_code": lang, "allows_write_to_pm": True}


class DevModeRefused(RuntimeError):
    """Development mode was asked for with a real token and without the second setting."""


def is_dev_token(token: str) -> bool:
    bot_id, _, secret = token.partition(":")
    if token == DEV_BOT_TOKEN:
        return True
    return bot_id.isdigit() and secret.startswith(DEV_TOKEN_MARKERS)


def check_dev_mode(config: WebAppConfig, token: str | None) -> None:
    """Refuse development mode with a real token unless KOSTI_DEV_ALLOW_REAL_TOKEN is set."""
    real = bool(token) and not is_dev_token(token or "")
    if config.dev_init_data and real and not config.dev_allow_real_token:
        raise DevModeRefused(
            "KOSTI_DEV_INIT_DATA=1 with a real bot token: /dev/open would sign Telegram "
            "data for any user and game with it. Unset KOSTI_DEV_INIT_DATA, use a dev "
            "token, or set KOSTI_DEV_ALLOW_REAL_TOKEN=1 on a machine no one else reaches."
        )


def is_forwarding_header(name: str) -> bool:
    """Whether a request header (any letter case) shows the request came through a proxy."""
    name = name.strip().lower()
    return (
        name in FORWARDING_HEADERS
        or name.startswith(FORWARDING_PREFIX)
        or name in CLIENT_IP_HEADERS
    )


def _proxied(request: web.Request) -> bool:
    return any(is_forwarding_header(name) for name in request.headers)


async def dev_open(request: web.Request) -> web.Response:
    if _proxied(request):
        raise ApiError("dev_proxied")
    if request.remote is None or not ip_address(request.remote).is_loopback:
        raise ApiError("forbidden")
    query = request.query
    try:
        user_id = int(query.get("user", "1001"))
        game_id = int(query["game"]) if query.get("game") else None
    except ValueError:
        raise ApiError("bad_request") from None
    screen = query.get("screen") if SCREEN.fullmatch(query.get("screen") or "") else None
    start = game_token(request.app[LINK_SECRET], game_id, screen) if game_id else None
    user = dev_user(user_id, query.get("name", "Dev")[:64], query.get("lang", "ru")[:8])
    init_data = sign_init_data(
        request.app[AUTH_TOKEN], user, int(time.time()), start_param=start, chat_type="group"
    )
    theme = DARK_THEME if query.get("scheme") == "dark" else LIGHT_THEME
    fragment = launch_fragment(init_data, theme=theme, start_param=start)
    # Not HTTPFound: yarl would re-quote the fragment and break the nested encoding.
    return web.Response(status=302, headers={"Location": "/app/#" + fragment})


def setup_dev(app: web.Application) -> None:
    app.router.add_get("/dev/open", dev_open)
