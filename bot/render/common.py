"""Small HTML helpers shared by the rendering modules."""

from __future__ import annotations

import html as _stdlib_html
import re
from datetime import UTC, datetime

from aiogram import html
from aiogram.types import User

_TAG = re.compile(r"<[^>]+>")


def name_of(user: User | None, fallback: str = "?") -> str:
    """The user's first name, HTML-escaped, in bold."""
    return html.bold(html.quote(user.first_name if user else fallback))


def bold_name(first_name: str) -> str:
    return html.bold(html.quote(first_name))


def code(text: str) -> str:
    return html.code(html.quote(text))


def quoted(text: str) -> str:
    return html.quote(text)


def as_plain(text: str) -> str:
    """HTML message text -> plain text (for callback toasts, which have no markup)."""
    return _stdlib_html.unescape(_TAG.sub("", text))


def utc_time(moment: datetime) -> str:
    """A timestamp everyone can compare, whatever their time zone: 2026-11-29 18:04:05 UTC."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%d %H:%M:%S UTC")
