"""Refusals of the SWADE encounter, chase and character sheets (engine RuleError / ChaseError
codes and the Savage Worlds services' codes) as API errors: a stable code, an HTTP status and
the code's shared sentence (its English template in the engine, the msgid of the ``engine``
catalog: the chat shows the same). Permission refusals are 403, malformed arguments 400,
refusals by the state of the scene 409. The shared services' codes are in webapp/errors.py;
this table joins them when the adapter is registered (webapp/systems/registry.py).

A code both engines use (``no_round``) is listed once, with the combat's sentence; a refusal
itself is always answered with its own engine's sentence (webapp/errors.py ``refusal``)."""

from __future__ import annotations

from engine.describe import Template
from engine.savage import ERROR_CODES as RULE_CODES
from engine.savage.chase import ERROR_CODES as CHASE_CODES
from engine.services.errors import ERROR_CODES as SERVICE_CODES
from engine.services.savage import errors as services

# who may set what (engine/savage/authority.py; a chase's gm_sets_modifier is the same
# code): a player's GM-only part of a roll
FORBIDDEN = frozenset(
    {"gm_only", "gm_sets_modifier", "gm_sets_tn", "gm_sets_attribute", "gm_sets_scene"}
)
MALFORMED = frozenset(
    {
        *(code for code in RULE_CODES if code.startswith("sheet_")),
        "bad_group_size",
        "bad_amount",
        "unknown_condition",
        "unknown_trait",
        "bad_modifier",
        "modifier_out_of_range",
        "bad_tn",
        "bad_row_size",
        "bad_option",
        "bad_skill",
        "bad_movement",
        "special_needs_skill",
        "bad_position",
        "bad_actions",
        "bad_health",
        "bad_direction",
        "bad_cards",
        "bad_choice",
        "bad_end_reason",
        "unknown_side",
    }
)
# the Savage Worlds services' own codes (engine/services/savage/errors.py)
SERVICE_OWN = (
    services.NoEncounter,
    services.EncounterActive,
    services.NoChase,
    services.ChaseActive,
    services.NobodyActing,
    services.NotInChase,
)
SHARED = frozenset({"not_your_character"})  # webapp/errors.py has it (a service's code too)


def _status(code: str) -> int:
    return 403 if code in FORBIDDEN else 400 if code in MALFORMED else 409


def _table() -> dict[str, tuple[int, str]]:
    templates: dict[str, Template] = {
        **CHASE_CODES,
        **RULE_CODES,
        **{cls.code: SERVICE_CODES[cls.code] for cls in SERVICE_OWN},
    }
    return {code: (_status(code), str(t)) for code, t in templates.items() if code not in SHARED}


# code -> (HTTP status, English msgid of the engine catalog)
ERRORS: dict[str, tuple[int, str]] = _table()
