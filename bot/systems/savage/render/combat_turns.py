"""Texts of the turn commands."""

from __future__ import annotations

from aiogram.utils.i18n import gettext as _


def actions_usage() -> str:
    return _("How many actions? <code>/actions 2</code> or <code>/actions 3 Ичиго</code>.")


def name_who_acts() -> str:
    return _("Who acts? Name the character: <code>/act Ичиго</code>.")


def board_outdated() -> str:
    return _("The board has changed since: look at it again.")


def turn_over() -> str:
    return _("This turn is over: the buttons of the current turn are on its message.")


def damage_resolved() -> str:
    return _("That damage has already been dealt with.")


def quiet_usage() -> str:
    return _("Quiet mode: <code>/quiet вкл</code> or <code>/quiet выкл</code> (the GM).")


def scene_usage() -> str:
    return _(
        "Who declares the light and The Drop: <code>/scene игроки</code> or "
        "<code>/scene ведущий</code> (the GM)."
    )


def scene_players() -> str:
    return _(
        "💡 Players declare the light and The Drop of their own attacks themselves. Free "
        "modifiers and another target number stay the GM's."
    )


def scene_gm() -> str:
    return _(
        "💡 The GM sets the light and The Drop; players declare range, cover, a called "
        "shot, Gang Up, Wild Attack, Aim and several actions. Change it: "
        "<code>/scene игроки</code>."
    )


def quiet_on() -> str:
    return _("🤫 Quiet mode is on: only the board and the results of actions in the chat.")


def quiet_off() -> str:
    return _("🔔 Quiet mode is off: round headers and turn pings are back.")
