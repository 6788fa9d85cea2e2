"""The verification page of revealed hidden rolls: ``/verify/<roll_id>-<mac>``.

The reveal in the chat carries a «Check» button with this address. The page
(webapp/static/verify/: index.html, verify.js) asks ``/verify/<token>.json`` for the revealed roll —
the exact hashed string (``salt|content``), the receipt and its short code — and the browser
computes SHA-256 of the string itself (``crypto.subtle.digest``), showing ✓ or ✗; anyone can
edit the string and see the check fail. The short code is what the group saw in the notice
before the reveal: comparing the two is the check that matters.

The MAC (60 bits, like webapp/links.py) keeps strangers from walking through roll ids; a roll
not revealed yet is not found, whoever asks."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from datetime import datetime
from zoneinfo import ZoneInfo

from aiohttp import web

from engine.receipt import receipt_payload, short_code
from engine.services import get_roll, receipt_content
from engine.services.errors import NoRoll
from engine.services.game_settings import time_zone
from engine.services.users import get_user
from webapp.i18n import N_, gettext, pick_locale
from webapp.keys import LINK_SECRET
from webapp.static_files import STATIC_DIR
from webapp.systems.registry import adapters

_TOKEN = re.compile(r"([1-9][0-9]{0,17})-([a-z2-7]{12})")
PAGE = STATIC_DIR / "verify" / "index.html"
TEXTS = {
    "title": N_("Hidden roll #{id}"),
    "who": N_("Rolled by {name}, {time}"),
    "code": N_("Receipt code (it was in the group before the reveal):"),
    "receipt": N_("Receipt (SHA-256):"),
    "payload": N_("The hashed text (you may edit it and see the check fail):"),
    "match": N_("✓ The SHA-256 of this text is the receipt: the roll was not changed."),
    "mismatch": N_("✗ The SHA-256 of this text is not the receipt."),
    "computed": N_("SHA-256 of the text:"),
    "terminal": N_("The same check in a terminal:"),
    "unsupported": N_("This browser cannot compute SHA-256 here: use the terminal command."),
}


def _mac(secret: bytes, roll_id: int) -> str:
    digest = hmac.new(secret, f"roll:{roll_id}".encode(), hashlib.sha256).digest()
    return base64.b32encode(digest).decode()[:12].lower()


def verify_token(secret: bytes, roll_id: int) -> str:
    return f"{roll_id}-{_mac(secret, roll_id)}"


def verify_path(secret: bytes, roll_id: int) -> str:
    return f"/verify/{verify_token(secret, roll_id)}"


def roll_of(secret: bytes, token: str) -> int | None:
    match = _TOKEN.fullmatch(token)
    if match is None or not hmac.compare_digest(_mac(secret, int(match[1])), match[2]):
        return None
    return int(match[1])


def local_time(moment: datetime, zone: ZoneInfo) -> str:
    """``29.11.2026 21:04 MSK``: the game's local time with its zone's abbreviation."""
    return moment.astimezone(zone).strftime("%d.%m.%Y %H:%M %Z")


def shell_command(payload: str) -> str:
    """``printf %s '<payload>' | sha256sum``, single-quoted for a POSIX shell."""
    return "printf %s '" + payload.replace("'", "'\\''") + "' | sha256sum"


async def page(request: web.Request) -> web.FileResponse:
    return web.FileResponse(PAGE, headers={"Cache-Control": "no-cache"})


async def data(request: web.Request) -> web.Response:
    secret = request.app.get(LINK_SECRET)
    roll_id = None if secret is None else roll_of(secret, request.match_info["token"])
    if roll_id is None:
        raise web.HTTPNotFound()
    try:
        record = await get_roll(roll_id)
    except NoRoll:
        raise web.HTTPNotFound() from None
    if not record.hidden or record.revealed_at is None or not record.receipt:
        raise web.HTTPNotFound()
    locale = pick_locale(request.query.get("lang"), request.headers.get("Accept-Language"))
    user = await get_user(record.user_id)
    payload = receipt_payload(receipt_content(record), record.salt or "")
    when = local_time(record.created_at, await time_zone(record.game_id))
    texts = {key: gettext(locale, msgid) for key, msgid in TEXTS.items()}
    texts["title"] = texts["title"].format(id=record.id)
    texts["who"] = texts["who"].format(name=user.first_name if user else "?", time=when)
    body = {
        "ok": True,
        "locale": locale,
        "texts": texts,
        "roll": {
            "id": record.id,
            "code": short_code(record.receipt),
            "receipt": record.receipt,
            "payload": payload,
            "command": shell_command(payload),
        },
    }
    return web.json_response(body, headers={"Cache-Control": "no-store"})


def setup_receipts(app: web.Application) -> None:
    app.router.add_get("/verify/{token:[0-9]+-[a-z2-7]+}.json", data)
    app.router.add_get("/verify/{token:[0-9]+-[a-z2-7]+}", page)
    for system in adapters():  # the systems' own receipts: the same page
        if (check := system.receipts) is not None:
            app.router.add_get("/verify/{token:" + check.pattern + "}.json", check.data)
            app.router.add_get("/verify/{token:" + check.pattern + "}", page)
