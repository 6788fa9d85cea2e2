"""The gettext domain ``engine`` (locales/<locale>/LC_MESSAGES/engine.po): the translations of
every description template (engine/describe.py), read by the chat and the Mini App alike — one
entry per code, whichever surface shows it.

The ``.po`` files are read with Babel (no ``.mo`` on disk). The template ``engine.pot`` is
built from the registered tables, not from the source text: refresh it with
``uv run python -m bot.i18n update``.
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

import engine.dice
import engine.services.installed  # noqa: F401  (the installed systems register theirs)
from engine import describe
from engine.describe import Template

ROOT = Path(__file__).resolve().parent.parent
LOCALES_DIR = ROOT / "locales"
DOMAIN = "engine"
LOCALES = ("ru", "en")
DEFAULT_LOCALE = "ru"


def po_path(locale: str, locales_dir: Path = LOCALES_DIR) -> Path:
    return locales_dir / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def catalog(locale: str) -> Catalog:
    path = po_path(locale if locale in LOCALES else DEFAULT_LOCALE)
    if not path.exists():
        return Catalog(locale=locale, domain=DOMAIN)
    with path.open("rb") as fp:
        return read_po(fp, locale=locale)


@cache
def translations(locale: str) -> gettext.NullTranslations:
    buffer = io.BytesIO()
    write_mo(buffer, catalog(locale))
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def count_of(params: object) -> int:
    value = params.get("count") if isinstance(params, dict) else None
    return value if isinstance(value, int) else 1


def translate(locale: str, text: Template, count: int = 1) -> str:
    """The template in ``locale`` (a plural pair: the form for ``count``)."""
    if isinstance(text, str):
        return translations(locale).gettext(text)
    return translations(locale).ngettext(text[0], text[1], count)


def forms(locale: str, text: Template) -> str | list[str]:
    """The translation for the page: a string, or every plural form of the locale."""
    if isinstance(text, str):
        return translate(locale, text)
    message = catalog(locale).get(text[0])
    strings = message.string if message is not None else ()
    if isinstance(strings, tuple) and all(strings):
        return list(strings)
    return list(text)


def extract_template() -> Catalog:
    """Every registered template as a msgid (its code as the location)."""
    template = Catalog(project="kosti", domain=DOMAIN, charset="utf-8")
    for code, text in describe.templates():
        template.add(text, locations=[(code, 0)])
    return template
