"""Gettext catalogs: compile `.po` to `.mo` at start-up, build aiogram's I18n, translate
outside a handler, and keep the template in step with the code.

`.mo` files are build products (gitignored); `compile_catalogs()` writes them next to the
`.po` files, so `setup_i18n()` works from a fresh checkout.

Refresh the catalogs after changing user text: `uv run python -m bot.i18n update`
(re-extracts `locales/messages.pot` from `bot/` and merges it into every `.po`; also the
shared domain `engine` of the description templates, engine/texts.py).
"""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from aiogram.utils.i18n import I18n
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bot.catalogs import merge_template
from engine import texts

ROOT = Path(__file__).resolve().parent.parent
LOCALES_DIR = ROOT / "locales"
SOURCE_DIR = ROOT / "bot"
DOMAIN = "messages"
LOCALES = ("ru", "en")
DEFAULT_LOCALE = "ru"
# gettext keywords used in bot/ (Babel's spec: keyword -> argument positions).
KEYWORDS: dict[str, tuple[int, ...] | None] = {"_": None, "gettext": None, "ngettext": (1, 2)}


def po_path(locale: str) -> Path:
    return LOCALES_DIR / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


def compile_catalogs(locales_dir: Path = LOCALES_DIR) -> list[Path]:
    """Write `<locale>/LC_MESSAGES/messages.mo` for every `.po`; return the written files."""
    written = []
    for po_file in sorted(locales_dir.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        with po_file.open("rb") as fp:
            catalog = read_po(fp, locale=po_file.parent.parent.name)
        mo_file = po_file.with_suffix(".mo")
        # Written aside and renamed into place: workers starting together (or a worker
        # reading while another writes) never see a half-written catalog.
        partial = mo_file.with_name(f"{mo_file.name}.{uuid.uuid4().hex}.partial")
        with partial.open("wb") as fp:
            write_mo(fp, catalog)
        os.replace(partial, mo_file)
        written.append(mo_file)
    return written


def setup_i18n(default_locale: str = DEFAULT_LOCALE) -> I18n:
    """Compile the catalogs and return aiogram's I18n (also made the current instance)."""
    compile_catalogs()
    if default_locale not in LOCALES:
        default_locale = DEFAULT_LOCALE
    i18n = I18n(path=LOCALES_DIR, default_locale=default_locale, domain=DOMAIN)
    I18n.set_current(i18n)
    return i18n


@contextmanager
def translator(locale: str | None, i18n: I18n | None = None) -> Iterator[None]:
    """Translate in `locale` outside the update's own locale (a DM to the GM, a console
    message); uses the current I18n (set by `setup_i18n`) unless one is given."""
    i18n = i18n or I18n.get_current(no_error=True) or setup_i18n()
    chosen = locale if locale in i18n.available_locales else i18n.default_locale
    with i18n.context(), i18n.use_locale(chosen):
        yield


# what /lang also reads as a language, Russian as it is typed
LANGUAGE_WORDS = {"рус": "ru", "русский": "ru", "ру": "ru", "англ": "en", "english": "en"}


def normalize_locale(value: str | None) -> str | None:
    """'EN', 'en-US', the Russian word for Russian -> 'en' / 'ru'; None when not supported."""
    if not value:
        return None
    text = value.strip().lower()
    text = LANGUAGE_WORDS.get(text, text)
    code = text.replace("_", "-").split("-", 1)[0]
    return code if code in LOCALES else None


def extract_template() -> Catalog:
    """Extract every message of `bot/` into a fresh template catalog (no file written)."""
    template = Catalog(project="kosti", domain=DOMAIN, charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
        str(SOURCE_DIR), keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)
    ):
        template.add(
            message,
            locations=[(f"bot/{filename}", lineno)],
            auto_comments=comments,
            context=context,
        )
    return template


def update_catalogs() -> None:
    """Re-extract the template and merge it into each locale's `.po` (fuzzy/new entries)."""
    merge_template(extract_template(), domain=DOMAIN, locales_dir=LOCALES_DIR, locales=LOCALES)
    merge_template(
        texts.extract_template(), domain=texts.DOMAIN, locales_dir=LOCALES_DIR, locales=LOCALES
    )
    texts.catalog.cache_clear()
    texts.translations.cache_clear()


if __name__ == "__main__":  # pragma: no cover - maintenance tool
    command = sys.argv[1] if len(sys.argv) > 1 else "compile"
    if command == "update":
        update_catalogs()
    for mo in compile_catalogs():
        print(mo.relative_to(ROOT))
