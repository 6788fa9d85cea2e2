"""GET /api/i18n/{locale}: the page's strings (msgid -> translation) of the webapp domain."""

from __future__ import annotations

from aiohttp import web

from webapp import systems  # noqa: F401  (the installed systems' error codes join ERRORS)
from webapp.errors import ERRORS, ApiError
from webapp.i18n import LOCALES, descriptions, gettext, messages


async def get_messages(request: web.Request) -> web.Response:
    locale = request.match_info["locale"]
    if locale not in LOCALES:
        raise ApiError("not_found")
    errors = {code: gettext(locale, msgid) for code, (_, msgid) in ERRORS.items()}
    return web.json_response(
        {
            "ok": True,
            "locale": locale,
            "messages": messages(locale),
            "errors": errors,
            "descriptions": descriptions(locale),
        },
        headers={"Cache-Control": "private, max-age=300"},
    )
