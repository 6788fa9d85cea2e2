"""The gettext catalogs are complete and in step with the code in bot/."""

from __future__ import annotations

import ast
import gettext
import re
import shutil
import threading
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from bot.i18n import (
    KEYWORDS,
    LOCALES,
    LOCALES_DIR,
    SOURCE_DIR,
    compile_catalogs,
    extract_template,
    po_path,
)

PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def _load(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as fp:
        return read_po(fp, locale=locale)


@pytest.fixture(scope="module")
def code_ids() -> set[object]:
    return {message.id for message in extract_template() if message.id}


def _ids(catalog: Catalog) -> set[object]:
    return {message.id for message in catalog if message.id}


@pytest.mark.parametrize("locale", LOCALES)
def test_every_message_of_the_code_is_translated(locale: str, code_ids: set[object]) -> None:
    catalog = _load(po_path(locale), locale)
    missing = code_ids - _ids(catalog)
    assert not missing, f"{locale}: not in the catalog: {sorted(map(str, missing))[:5]}"
    stale = _ids(catalog) - code_ids
    assert not stale, f"{locale}: no longer in the code: {sorted(map(str, stale))[:5]}"
    assert not catalog.obsolete, f"{locale}: obsolete entries left in the file"
    for message in catalog:
        if not message.id:
            continue
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(forms), f"{locale}: empty translation of {message.id!r}"
        assert not message.fuzzy, f"{locale}: fuzzy translation of {message.id!r}"


@pytest.mark.parametrize("locale", LOCALES)
def test_translations_keep_the_placeholders(locale: str) -> None:
    for message in _load(po_path(locale), locale):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        expected = set(PLACEHOLDER.findall(ids[-1]))
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        for form in forms:
            assert set(PLACEHOLDER.findall(form)) == expected, (locale, message.id, form)


def test_russian_has_three_plural_forms() -> None:
    catalog = _load(po_path("ru"), "ru")
    assert catalog.num_plurals == 3
    plurals = [m for m in catalog if m.id and isinstance(m.id, tuple)]
    assert plurals, "the bot uses Russian plurals (Раны, успехов, игроков ...)"
    for message in plurals:
        assert len(message.string) == 3 and all(message.string), message.id


def test_template_is_in_step_with_the_code(code_ids: set[object]) -> None:
    assert _ids(_load(LOCALES_DIR / "messages.pot")) == code_ids


def test_no_formatted_strings_inside_gettext_calls() -> None:
    """`_(f"...")` would look up a different msgid at run time: always `.format()` after."""
    offenders = []
    for path in SOURCE_DIR.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in KEYWORDS
                and node.args
                and not isinstance(node.args[0], ast.Constant)
            ):
                offenders.append(f"{path.relative_to(SOURCE_DIR)}:{node.lineno}")
    assert not offenders


def test_catalogs_compiled_by_several_workers_at_once_are_never_read_half_written(
    tmp_path: Path,
) -> None:
    """Workers starting together all compile the catalogs: one reading while another writes
    must find a whole file (written aside, then renamed)."""
    locales = tmp_path / "locales"
    shutil.copytree(LOCALES_DIR, locales, ignore=shutil.ignore_patterns("*.mo"))
    compile_catalogs(locales)
    mo_file = locales / "ru" / "LC_MESSAGES" / "messages.mo"
    stop = threading.Event()
    failures: list[BaseException] = []

    def write() -> None:
        while not stop.is_set():
            compile_catalogs(locales)

    writers = [threading.Thread(target=write) for _ in range(3)]
    for writer in writers:
        writer.start()
    try:
        for _ in range(300):
            try:
                with mo_file.open("rb") as fp:
                    gettext.GNUTranslations(fp)
            except (OSError, ValueError) as error:  # "Bad magic number", a truncated file
                failures.append(error)
    finally:
        stop.set()
        for writer in writers:
            writer.join()
    assert failures == []
