"""API errors: JSON ``{"ok": false, "error": {"code", "message"}}`` with a stable code and a
Russian message (the Mini App may show its own translation of the code).

`ERRORS` holds the shared codes; a rule system's web adapter adds its engines' codes when it
is registered (`register_errors`, called by webapp/systems/registry.py). A refusal of the
engines or the services (an `engine.errors.CodedError`) is answered with its own sentence —
the shared template of its description, in the viewer's locale — and the description itself
(``"description": {"code", "params"}``), the one the chat shows too."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from engine.describe import known as describe_known
from engine.errors import CodedError
from engine.services.errors import ERROR_CODES as SERVICE_TEMPLATES
from webapp.i18n import N_, describe_text, gettext

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
    "dev_proxied": (
        403,
        N_("Development mode answers only a browser on this machine, not through a proxy."),
    ),
    "not_configured": (503, N_("The app is not configured: the bot token is missing.")),
    "unauthorized": (401, N_("Not authorized.")),
    "internal": (500, N_("Something went wrong. Please try again a bit later.")),
    "database_unreachable": (
        503,
        N_("The database is out of reach: nothing was stored. Try again in a minute."),
    ),
    "http_error": (400, N_("The request failed.")),
    # the shared services' refusals of scenes and characters (engine.services.errors)
    "unknown_scene": (404, N_("Not found.")),  # the game's rule system has no such scene
    "wrong_system": (409, N_("This game's rule system has no such thing.")),
}


def _shared(status: int, code: str) -> tuple[int, str]:
    return status, str(SERVICE_TEMPLATES[code])


# the services' refusals the API answers under their own code: the shared sentence
ERRORS.update(
    {
        "no_character": _shared(404, "no_character"),
        "not_your_character": _shared(403, "not_your_character"),
        "nothing_to_undo": _shared(409, "nothing_to_undo"),
        # a scene kind without refusals of its own: none open, one open already
        "no_scene": _shared(409, "no_scene"),
        "scene_active": _shared(409, "scene_active"),
        "stream_closed": _shared(409, "stream_closed"),
        "bad_name": _shared(400, "bad_name"),
    }
)

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
    # a name refused (engine/services/names.py): answered with its own sentence
    "name_empty": "bad_name",
    "name_too_long": "bad_name",
    "name_looks_alike": "bad_name",
}


def register_errors(table: dict[str, tuple[int, str]]) -> None:
    """Add a rule system's codes; a code already known must keep its status and message."""
    clashes = sorted(code for code, entry in table.items() if ERRORS.get(code, entry) != entry)
    if clashes:
        raise ValueError(f"error codes registered already with another meaning: {clashes}")
    ERRORS.update(table)


class ApiError(Exception):
    """Raised by handlers and helpers; turned into a JSON response by the middleware
    (``details`` are sent as they are: a refusal's ``description`` is one of them)."""

    def __init__(self, code: str, message: str | None = None, **details: object) -> None:
        if code not in ERRORS:
            raise ValueError(f"unknown API error code {code!r}")
        self.code = code
        self.status = ERRORS[code][0]
        self.message = message or error_message(code)
        self.details = details
        super().__init__(code)


def error_message(code: str, locale: str = "ru") -> str:
    return gettext(locale, ERRORS.get(code, ERRORS["internal"])[1])


def refusal(exc: CodedError, locale: str = "ru") -> ApiError:
    """A coded refusal — a service's ServiceError or a rule engine's error — as an API error:
    the status of its API code (a code the table does not know is 400 ``bad_request``), the
    sentence of its description, and the description (code and params) for the page."""
    code = SERVICE_CODES.get(exc.code, exc.code)
    if code not in ERRORS:
        code = "bad_request"
    description = exc.description
    if not describe_known(description.code):
        return ApiError(code)
    return ApiError(code, describe_text(locale, description), description=description.to_dict())


def error_body(code: str, message: str | None = None, **details: object) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message or error_message(code)}
    if details:
        error["details"] = details
    return {"ok": False, "error": error}


def json_error(code: str, message: str | None = None, **details: object) -> web.Response:
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
