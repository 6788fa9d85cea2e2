"""The Mini App's gettext domain ``webapp`` (locales/<locale>/LC_MESSAGES/webapp.po).

msgids are English (as in the bot's catalog); Russian is the default locale. The `.po` files
are read with Babel at start (no `.mo` needed); the page gets its strings as JSON from
``/api/i18n/{locale}``. Server strings are marked with ``N_``; the page's with ``t("...")``.

The sentences of events and refusals are the shared domain ``engine`` (engine/texts.py, one
entry per description code for the chat and the Mini App): ``gettext`` falls back to it, and
the page gets its templates by code (``descriptions``) to fill with the params it is sent.

Refresh after changing strings: ``uv run python -m webapp.i18n update``.
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from bot.catalogs import merge_template
from engine import describe, texts

ROOT = Path(__file__).resolve().parent.parent
LOCALES_DIR = ROOT / "locales"
DOMAIN = "webapp"
LOCALES = ("ru", "en")
DEFAULT_LOCALE = "ru"
KEYWORDS: dict[str, tuple[int, ...] | None] = {"N_": None, "t": None}
JS_FILES = "static/app/**.js"
METHOD_MAP = [
    ("static/vendor/**", "ignore"),
    ("**.py", "python"),
    (JS_FILES, "javascript"),
]


def N_(message: str) -> str:
    """Mark a string for extraction; translated later with `gettext(locale, ...)`."""
    return message


def po_path(locale: str, locales_dir: Path = LOCALES_DIR) -> Path:
    return locales_dir / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def messages(locale: str) -> dict[str, str]:
    """msgid -> translation for `locale` (untranslated entries are left out)."""
    if locale not in LOCALES:
        locale = DEFAULT_LOCALE
    path = po_path(locale)
    if not path.exists():
        return {}
    with path.open("rb") as fp:
        catalog = read_po(fp, locale=locale)
    return {
        str(m.id): str(m.string)
        for m in catalog
        if m.id and m.string and not m.fuzzy and isinstance(m.id, str)
    }


def gettext(locale: str, message: str) -> str:
    """The webapp's translation, else the shared engine catalog's (else the msgid)."""
    own = messages(locale).get(message)
    return own if own is not None else texts.translate(locale, message)


def descriptions(locale: str) -> dict[str, Any]:
    """For the page: ``templates`` (every description code -> its translated template, a list
    for the plural forms) and ``kinds`` (family -> param -> kind, engine/describe.py)."""
    if locale not in LOCALES:
        locale = DEFAULT_LOCALE
    templates = {code: texts.forms(locale, text) for code, text in describe.templates()}
    return {"templates": templates, "kinds": describe.declared_kinds()}


def describe_text(locale: str, description: describe.Description) -> str:
    """A description as plain text (a refusal's message): labels translated, cards from 1."""
    code, params = description.code, description.params
    sentence = texts.translate(locale, description.template, texts.count_of(dict(params)))
    used = describe.placeholders(sentence) & params.keys()
    return describe.fill(sentence, {key: _plain(locale, code, key, params[key]) for key in used})


def _plain(locale: str, code: str, key: str, value: object) -> str:
    kind = describe.kind_of(code, key)
    if kind == describe.CARD and isinstance(value, int):
        return str(value + 1)
    if kind is not None and kind.startswith(describe.LABEL):
        label = describe.label_code(kind.removeprefix(describe.LABEL), value)
        return texts.translate(locale, str(describe.template(label)))
    return str(value)


def pick_locale(stored: str | None, language_code: str | None) -> str:
    """The user's choice in the bot (/lang) wins; then Telegram's language; Russian else."""
    for value in (stored, language_code):
        code = (value or "").strip().lower().replace("_", "-").split("-", 1)[0]
        if code in LOCALES:
            return code
    return DEFAULT_LOCALE


def extract_template() -> Catalog:
    source = ROOT / "webapp"
    template = Catalog(project="kosti", domain=DOMAIN, charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
        str(source),
        method_map=METHOD_MAP,
        # t("...") calls inside htm's html`...` templates are found too
        options_map={JS_FILES: {"parse_template_string": True}},
        keywords=KEYWORDS,
        comment_tags=("TRANSLATORS:",),
    ):
        template.add(
            message,
            locations=[(f"webapp/{filename}", lineno)],
            auto_comments=comments,
            context=context,
        )
    return template


def update_catalogs() -> None:
    """Re-extract locales/webapp.pot and merge it into each locale's webapp.po."""
    merge_template(extract_template(), domain=DOMAIN, locales_dir=LOCALES_DIR, locales=LOCALES)
    messages.cache_clear()


if __name__ == "__main__":  # pragma: no cover - maintenance tool
    if sys.argv[1:] == ["update"]:
        update_catalogs()
    for loc in LOCALES:
        print(loc, len(messages(loc)), "translated")
