"""Texts of /lang."""

from __future__ import annotations

from aiogram.utils.i18n import gettext as _


def language_set() -> str:
    # Rendered in the newly chosen language.
    return _("Done: I will answer you in English.")


def language_usage(current: str) -> str:
    return _(
        "Your language: {current}. Change it with <code>/lang ru</code> or <code>/lang en</code>."
    ).format(current=f"<code>{current}</code>")
