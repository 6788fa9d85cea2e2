"""The shared catalog ``engine``: one entry per template, translated in every locale."""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

from engine import describe, texts


def _ids(catalog: object) -> set[object]:
    return {m.id for m in catalog if m.id}  # type: ignore[attr-defined]


def test_the_template_is_in_step_with_the_tables() -> None:
    with (texts.LOCALES_DIR / f"{texts.DOMAIN}.pot").open("rb") as fp:
        pot = read_po(fp)
    assert _ids(pot) == _ids(texts.extract_template())


@pytest.mark.parametrize("locale", texts.LOCALES)
def test_every_template_is_translated_once(locale: str) -> None:
    catalog = texts.catalog(locale)
    assert _ids(catalog) == _ids(texts.extract_template())
    for message in catalog:
        if not message.id:
            continue
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(forms) and not message.fuzzy, (locale, message.id)
        expected = describe.placeholders(message.id)  # type: ignore[arg-type]
        for form in forms:
            assert describe.placeholders(form) == expected, (locale, message.id, form)
    if locale == "ru":
        plurals = [m for m in catalog if m.id and isinstance(m.id, tuple)]
        assert plurals and all(len(m.string) == 3 for m in plurals)


def test_translate_picks_the_plural_form_and_the_locale() -> None:
    text = describe.template("encounter.wounded")
    assert texts.translate("ru", text, 1) == "🩸 {name} получает {count} Рану."
    assert texts.translate("ru", text, 3) == "🩸 {name} получает {count} Раны."
    assert texts.translate("ru", text, 5) == "🩸 {name} получает {count} Ран."
    assert texts.translate("en", text, 5) == "🩸 {name} takes {count} Wounds."
    assert texts.forms("ru", text) == [
        "🩸 {name} получает {count} Рану.",
        "🩸 {name} получает {count} Раны.",
        "🩸 {name} получает {count} Ран.",
    ]
    assert texts.translate("xx", "No bennies left.") == "Бенни не осталось."  # Russian else
