"""How the playground opens the Mini App, as a Telegram client does: the launch fragment
(``#tgWebAppData=…``) with initData signed by the playground's own token for the current
user, so the Mini App's production check runs unchanged."""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

from webapp.auth import sign_init_data

# Telegram's web client themes (what telegram-web-apps.js reads as themeParams).
THEMES = {
    "light": {
        "bg_color": "#ffffff",
        "text_color": "#000000",
        "hint_color": "#707579",
        "link_color": "#3390ec",
        "button_color": "#3390ec",
        "button_text_color": "#ffffff",
        "secondary_bg_color": "#f4f4f5",
        "section_bg_color": "#ffffff",
        "destructive_text_color": "#e53935",
    },
    "dark": {
        "bg_color": "#212121",
        "text_color": "#ffffff",
        "hint_color": "#aaaaaa",
        "link_color": "#8774e1",
        "button_color": "#8774e1",
        "button_text_color": "#ffffff",
        "secondary_bg_color": "#0f0f0f",
        "section_bg_color": "#212121",
        "destructive_text_color": "#ff595a",
    },
}


def start_param_of(url: str) -> str | None:
    """The start parameter of a Mini App link: ``t.me/<bot>/<app>?startapp=`` or a
    ``web_app`` button's ``…/app/?tgWebAppStartParam=``."""
    query = parse_qs(urlsplit(url).query)
    values = query.get("startapp") or query.get("tgWebAppStartParam") or [None]
    return values[0]


def launch_url(
    token: str,
    user: dict[str, Any],
    *,
    start_param: str | None,
    scheme: str,
    chat_type: str | None,
    allows_write_to_pm: bool,
) -> str:
    person = {**user, "allows_write_to_pm": allows_write_to_pm}
    person.pop("is_bot", None)
    init_data = sign_init_data(
        token, person, int(time.time()), start_param=start_param, chat_type=chat_type
    )
    parts = {
        "tgWebAppData": init_data,
        "tgWebAppVersion": "8.0",
        "tgWebAppPlatform": "weba",
        "tgWebAppThemeParams": json.dumps(THEMES[scheme], separators=(",", ":")),
    }
    if start_param:
        parts["tgWebAppStartParam"] = start_param
    return "/app/#" + "&".join(f"{k}={quote(v, safe='')}" for k, v in parts.items())
