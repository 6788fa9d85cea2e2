"""API errors: JSON ``{"ok": false, "error": {"code", "message"}}`` with a stable code and a
Russian message (the Mini App may show its own translation of the code).

`ERRORS` holds the shared codes; a rule system's web adapter adds its engines' codes when it
is registered (`register_errors`, called by webapp/systems/registry.py)."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from webapp.i18n import N_, gettext

# code -> (HTTP status, English msgid of the webapp catalog)
ERRORS: dict[str, tuple[int, str]] = {
    "auth_missing": (401, N_("Open the app from Telegram: the request has no Telegram data.")),
    "auth_invalid": (401, N_("Telegram data failed the signature check.")),
    "auth_expired": (401, N_("Telegram data is out of date: reopen the app.")),
    "forbidden": (403, N_("You are not allowed to do that in this game.")),
    "not_found": (404, N_("Not found.")),
    "bad_request": (400, N_("The request is malformed.")),
    "bad_dice": (400, N_("Cannot read the dice notation.")),
    "method_not_allowed": (405, N_("This method is not allowed here.")),
    "payload_too_large": (413, N_("The request is too large.")),
    "game_ended": (409, N_("The game has ended.")),
    "conflict": (409, N_("Someone changed this at the same moment: try again.")),
    "not_configured": (503, N_("The app is not configured: the bot token is missing.")),
    "unauthorized": (401, N_("Not authorized.")),
    "internal": (500, N_("Something went wrong. Please try again a bit later.")),
    "http_error": (400, N_("The request failed.")),
    # the shared services' refusals of scenes and characters (engine.services.errors)
    "unknown_scene": (404, N_("Not found.")),  # the game's rule system has no such scene
    "wrong_system": (409, N_("This game's rule system has no such thing.")),
    "no_character": (404, N_("No saved character or template with this name.")),
    "not_your_character": (403, N_("This is not your character: you can act only for your own.")),
    "nothing_to_undo": (409, N_("Nothing to undo.")),
    "stream_closed": (409, N_("This scene is closed.")),
    "bad_name": (400, N_("The name is empty or longer than {max} characters.")),
}

# engine.services error codes -> API codes
SERVICE_CODES: dict[str, str] = {
    "not_gm": "forbidden",
    "not_member": "forbidden",
    "no_game": "not_found",
    "no_roll": "not_found",
    "no_user": "not_found",
    "game_ended": "game_ended",
    "already_revealed": "conflict",
    "not_hidden": "bad_request",
    "event_conflict": "conflict",
    "stale_state": "conflict",
    "nothing_to_undo": "nothing_to_undo",
}


def register_errors(table: dict[str, tuple[int, str]]) -> None:
    """Add a rule system's codes; a code already known must keep its status and message."""
    clashes = sorted(code for code, entry in table.items() if ERRORS.get(code, entry) != entry)
    if clashes:
        raise ValueError(f"error codes registered already with another meaning: {clashes}")
    ERRORS.update(table)


class ApiError(Exception):
    """Raised by handlers and helpers; turned into a JSON response by the middleware."""

    def __init__(self, code: str, message: str | None = None, **details: Any) -> None:
        if code not in ERRORS:
            raise ValueError(f"unknown API error code {code!r}")
        self.code = code
        self.status = ERRORS[code][0]
        self.message = message or error_message(code)
        self.details = details
        super().__init__(code)


def error_message(code: str, locale: str = "ru") -> str:
    return gettext(locale, ERRORS.get(code, ERRORS["internal"])[1])


class _Lenient(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"


def refusal(exc: Exception, locale: str = "ru") -> ApiError:
    """A coded refusal — a service's ServiceError or a rule engine's error, anything with a
    stable `code` and its `params` — as an API error with the catalog's message (a code the
    catalog does not know is 400 ``bad_request``)."""
    raw = getattr(exc, "code", "")
    code = SERVICE_CODES.get(raw, raw)
    if code not in ERRORS:
        code = "bad_request"
    message = error_message(code, locale).format_map(_Lenient(getattr(exc, "params", {})))
    return ApiError(code, message)


def error_body(code: str, message: str | None = None, **details: Any) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message or error_message(code)}
    if details:
        error["details"] = details
    return {"ok": False, "error": error}


def json_error(code: str, message: str | None = None, **details: Any) -> web.Response:
    status = ERRORS.get(code, ERRORS["internal"])[0]
    return web.json_response(error_body(code, message, **details), status=status)


HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
}
