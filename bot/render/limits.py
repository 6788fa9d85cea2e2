"""Telegram's size limits, kept in one place for everything the bot sends.

A message's text may hold 4,096 characters and a caption 1,024, counted after the HTML is
parsed (what the reader sees), in UTF-16 code units; a longer one is refused with a 400 —
after the step it tells of was stored, so the user would retry and apply it twice. `fit`
shortens an HTML text at a line break and says how many lines were left out
(«…и ещё 12 строк»); bot/middlewares/limits.py applies it to every outgoing text, caption
and button label, so no send path can exceed them."""

from __future__ import annotations

import re

from aiogram.utils.i18n import I18n, ngettext

from bot.render.common import as_plain

MESSAGE_LIMIT = 4096
CAPTION_LIMIT = 1024
# Telegram cuts longer inline button labels; ours are names and short words.
BUTTON_LIMIT = 64
CALLBACK_DATA_LIMIT = 64  # bytes
_TAG = re.compile(r"<(/?)([a-zA-Z-]+)[^>]*>")


def visible_length(html_text: str) -> int:
    """Telegram's measure: UTF-16 code units of the text without its markup."""
    return len(as_plain(html_text).encode("utf-16-le")) // 2


def close_tags(html_text: str) -> str:
    """Close the tags a cut left open (innermost first)."""
    stack: list[str] = []
    for match in _TAG.finditer(html_text):
        closing, name = match[1], match[2].lower()
        if not closing:
            stack.append(name)
        elif name in stack:
            del stack[len(stack) - 1 - stack[::-1].index(name)]
    return html_text + "".join(f"</{name}>" for name in reversed(stack))


def more_lines(count: int) -> str:
    if I18n.get_current(no_error=True) is None:  # outside an update: the default language
        return f"…и ещё {count}"
    return ngettext("…and {count} more line", "…and {count} more lines", count).format(count=count)


def fit(html_text: str, limit: int = MESSAGE_LIMIT) -> str:
    """`html_text` if it fits, else its first lines and «…and N more lines»."""
    # No character is more than two UTF-16 units and the markup only adds: most texts fit
    # without being parsed (a board's 600 characters, every outgoing call).
    if 2 * len(html_text) <= limit or visible_length(html_text) <= limit:
        return html_text
    lines = html_text.split("\n")
    kept: list[str] = []
    for index, line in enumerate(lines):
        candidate = close_tags("\n".join([*kept, line]))
        note = more_lines(len(lines) - index - 1)
        if visible_length(candidate) + 1 + len(note) > limit:
            break
        kept.append(line)
    shown = close_tags("\n".join(kept))
    note = more_lines(len(lines) - len(kept))
    if not kept:  # one enormous line: cut its plain text
        plain = as_plain(html_text)
        return _escape(plain[: limit - len(note) - 2]) + "…\n" + note
    return shown + "\n" + note


def fit_label(label: str, limit: int = BUTTON_LIMIT) -> str:
    return label if len(label) <= limit else label[: limit - 1] + "…"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
