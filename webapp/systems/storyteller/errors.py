"""Refusals of the Storyteller engine and services as API errors: a stable code, an HTTP
status and the code's shared sentence (the chat shows the same). Permission refusals are
403, malformed sheets and table rows 400, refusals by the state of the fight 409."""

from __future__ import annotations

from engine.describe import Template
from engine.services.errors import ERROR_CODES as SERVICE_CODES
from engine.services.storyteller import FightActive, NoFight
from engine.storyteller.errors import ERROR_CODES as RULE_CODES

FORBIDDEN = frozenset({"gm_only"})
# a row of the GM's tables (engine/storyteller/tables.py) that is out of range or unknown
TABLE_CODES = (
    "bad_duration",
    "heal_time_range",
    "unknown_damage_type",
    "unknown_level",
    "aim_difficulty_range",
    "aim_damage_range",
    "unknown_target",
)
# codes another rule system's engine registers too, with its own sentence and the same
# status: a refusal is answered with its own engine's sentence all the same (webapp/errors.py
# ``refusal``); "not_your_character" is webapp/errors.py's
SHARED = frozenset(
    {
        "not_your_character",
        "already_acted",
        "bad_actions",
        "incapacitated",
        "no_round",
        "not_your_turn",
        "sheet_bad_json",
        "sheet_bad_number",
        "sheet_no_name",
    }
)


def _status(code: str) -> int:
    # a fighter the request names that is not there: malformed input
    malformed = code.startswith("sheet_") or code in (
        "bad_copies",
        "unknown_preset",
        "unknown_fighter",
        *TABLE_CODES,
    )
    return 403 if code in FORBIDDEN else 400 if malformed else 409


def _table() -> dict[str, tuple[int, str]]:
    templates: dict[str, Template] = {
        **RULE_CODES,
        **{cls.code: SERVICE_CODES[cls.code] for cls in (NoFight, FightActive)},
    }
    return {code: (_status(code), str(t)) for code, t in templates.items() if code not in SHARED}


ERRORS: dict[str, tuple[int, str]] = _table()
