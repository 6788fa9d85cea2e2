"""Message text as Telegram keeps it: HTML (parse_mode HTML) parsed into plain text and
entities, with Telegram's refusals, and back to a safe HTML for the page (aiogram's own
``html_decoration``: only the tags Telegram knows, everything else escaped)."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

from aiogram.types import MessageEntity
from aiogram.utils.text_decorations import html_decoration

from bot.playground.errors import BotApiError

# tag -> entity type (Bot API "Formatting options", HTML style)
SIMPLE_TAGS = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "code": "code",
    "pre": "pre",
}
MAX_TEXT = 4096


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.length = 0  # UTF-16 code units so far
        self.open: list[tuple[str, int, dict[str, Any]]] = []
        self.entities: list[dict[str, Any]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {key: value or "" for key, value in attrs}
        entity: dict[str, Any]
        if tag in SIMPLE_TAGS:
            entity = {"type": SIMPLE_TAGS[tag]}
        elif tag == "span" and values.get("class") == "tg-spoiler":
            entity = {"type": "spoiler"}
        elif tag == "a" and "href" in values:
            entity = {"type": "text_link", "url": values["href"]}
        elif tag == "blockquote":
            expandable = "expandable" in values
            entity = {"type": "expandable_blockquote" if expandable else "blockquote"}
        else:
            raise BotApiError.bad(f'can\'t parse entities: Unsupported start tag "{tag}"')
        if tag == "code" and self.open and self.open[-1][0] == "pre":
            language = values.get("class", "").removeprefix("language-")
            if language:  # <pre><code class="language-x"> is one pre entity with a language
                self.open[-1][2]["language"] = language
                entity = {}
        self.open.append((tag, self.length, entity))

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open[-1][0] != tag:
            raise BotApiError.bad(f'can\'t parse entities: Unmatched end tag "{tag}"')
        _, start, entity = self.open.pop()
        if entity and self.length > start:
            self.entities.append({**entity, "offset": start, "length": self.length - start})

    def handle_data(self, data: str) -> None:
        self.parts.append(data)
        self.length += utf16_len(data)


def parse_html(html: str) -> tuple[str, list[dict[str, Any]]]:
    """(text, entities) of an HTML message, or the Bot API's 400 for what Telegram refuses."""
    parser = _Parser()
    parser.feed(html)
    parser.close()
    if parser.open:
        raise BotApiError.bad(
            f"can't parse entities: Can't find end tag corresponding to start tag "
            f'"{parser.open[-1][0]}"'
        )
    entities = sorted(parser.entities, key=lambda e: (e["offset"], -e["length"]))
    return "".join(parser.parts), entities


def message_text(
    text: str, parse_mode: str | None, entities: list[dict[str, Any]] | None
) -> tuple[str, list[dict[str, Any]]]:
    """What sendMessage/editMessageText store for these parameters."""
    if parse_mode is not None and parse_mode.upper() == "HTML":
        plain, found = parse_html(text)
    elif parse_mode:
        raise BotApiError.bad(f"unsupported parse_mode {parse_mode!r}")
    else:
        plain, found = text, list(entities or [])
    if not plain.strip():
        raise BotApiError.bad("message text is empty")
    if utf16_len(plain) > MAX_TEXT:
        raise BotApiError.bad("message is too long")
    return plain, found


def to_html(text: str, entities: list[dict[str, Any]]) -> str:
    """Safe HTML of a stored message for the page."""
    return html_decoration.unparse(text, [MessageEntity(**e) for e in entities])
