"""The Savage Worlds services' refusals as sentences (the shared ones: bot/render/errors.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aiogram.utils.i18n import gettext as _


def service_errors() -> dict[str, Callable[[dict[str, Any]], str]]:
    return {
        "no_encounter": lambda p: _("There is no fight going on in this game."),
        "encounter_active": lambda p: _("A fight is already going on in this game."),
        "no_chase": lambda p: _("There is no chase going on in this game."),
        "chase_active": lambda p: _("A chase is already going on in this game."),
        "nobody_acting": lambda p: _("Nobody is taking a turn right now."),
        "not_in_chase": lambda p: _("This fighter takes no part in the chase."),
    }
