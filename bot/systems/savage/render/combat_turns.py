"""Texts of the turn commands."""

from __future__ import annotations

from aiogram.utils.i18n import gettext as _


def actions_usage() -> str:
    return _("How many actions? <code>/actions 2</code> or <code>/actions 3 Ичиго</code>.")


def name_who_acts() -> str:
    return _("Who acts? Name the character: <code>/act Ичиго</code>.")


def board_outdated() -> str:
    return _("The board has changed since: look at it again.")
