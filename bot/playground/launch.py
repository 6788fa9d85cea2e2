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


TELEGRAM_HOSTS = ("t.me", "telegram.me")


def launch_url(
    token: str,
    user: dict[str, Any],
    *,
    link: str,
    scheme: str,
    chat_type: str | None,
    allows_write_to_pm: bool,
) -> str:
    """Where the panel's frame goes for `link`, as Telegram opens it: a direct link
    (``t.me/<bot>/<app>?startapp=…``) carries its start parameter in initData (with the
    chat's type); a ``web_app`` or menu button opens its own URL (here: the local /app/ with
    the button's query, ``?tgWebAppStartParam=…``), and its initData has neither."""
    parts = urlsplit(link)
    direct = parts.hostname in TELEGRAM_HOSTS
    starts = parse_qs(parts.query).get("startapp") if direct else None
    start = starts[0] if starts else None
    person = {**user, "allows_write_to_pm": allows_write_to_pm}
    person.pop("is_bot", None)
    init_data = sign_init_data(
        token,
        person,
        int(time.time()),
        start_param=start,
        chat_type=chat_type if direct else None,
    )
    fragment = {
        "tgWebAppData": init_data,
        "tgWebAppVersion": "8.0",
        "tgWebAppPlatform": "weba",
        "tgWebAppThemeParams": json.dumps(THEMES[scheme], separators=(",", ":")),
    }
    if start:
        fragment["tgWebAppStartParam"] = start
    page = "/app/" if direct or not parts.query else f"/app/?{parts.query}"
    return page + "#" + "&".join(f"{k}={quote(v, safe='')}" for k, v in fragment.items())
