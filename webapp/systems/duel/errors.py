"""Refusals of the duel engine and services as API errors: a stable code, an HTTP status
and the code's sentence (its English template, the msgid of the ``engine`` catalog).
Permission refusals are 403, malformed input 400, refusals by the state of the duel 409.
A code another system registered first keeps its status there; a refusal is always
answered with its own engine's sentence (webapp/errors.py ``refusal``)."""

from __future__ import annotations

from engine.duel import ERROR_CODES as RULE_CODES
from engine.services.duel import errors as services
from engine.services.errors import ERROR_CODES as SERVICE_CODES

FORBIDDEN = frozenset({"not_your_fighter"})
MALFORMED = frozenset(
    {
        *(code for code in RULE_CODES if code.startswith("sheet_")),
        "unknown_class",
        "bad_class",
        "bad_situational",
        "ap_negative",
        "bad_adjustment",
        "unknown_move",
        "duel_bad_side",
        "unknown_fighter",
        "same_fighter",
        "bad_deadline",
    }
)
# registered by another system with its own sentence (the statuses agree)
SHARED = frozenset(
    {"sheet_empty", "sheet_bad_die", "sheet_bad_json", "dead", "too_many_actions", "bad_dice"}
    | {"gm_only", "unknown_fighter"}
)
SERVICE_OWN = (services.NoDuel, services.DuelActive, services.NoFighter, services.SameFighter)


def _status(code: str) -> int:
    return 403 if code in FORBIDDEN else 400 if code in MALFORMED else 409


ERRORS: dict[str, tuple[int, str]] = {
    code: (_status(code), str(template))
    for code, template in {
        **RULE_CODES,
        **{cls.code: SERVICE_CODES[cls.code] for cls in SERVICE_OWN},
    }.items()
    if code not in SHARED
}
