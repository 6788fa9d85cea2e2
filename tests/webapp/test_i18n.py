"""The page's strings: the webapp domain, and the shared engine catalog for the sentences of
events and refusals (templates by code, the kinds of their params)."""

from __future__ import annotations

import json

from engine import describe
from engine.describe import Description
from webapp.i18n import describe_text, descriptions, gettext
from webapp.static_files import catalogs


def test_the_page_gets_every_template_by_code_with_its_plural_forms() -> None:
    ru = descriptions("ru")
    assert set(ru["templates"]) == {code for code, _ in describe.templates()}
    assert ru["templates"]["encounter.wounded"] == [
        "🩸 {name} получает {count} Рану.",
        "🩸 {name} получает {count} Раны.",
        "🩸 {name} получает {count} Ран.",
    ]
    assert descriptions("en")["templates"]["rule.no_bennies"] == "No bennies left."
    assert ru["kinds"]["encounter"]["roll"] == "trait_roll"
    assert ru["kinds"]["chase"]["position"] == describe.CARD
    static = json.loads(catalogs()["i18n/ru.json"])
    assert static["descriptions"] == json.loads(json.dumps(ru))


def test_a_refusal_in_plain_text_and_the_shared_catalog_behind_gettext() -> None:
    subject = Description("dice.out_of_range", {"what": "difficulty", "min": 2, "max": 10})
    assert describe_text("ru", subject) == "Сложность: допустимо от 2 до 10"
    assert describe_text("en", subject) == "Difficulty must be from 2 to 10"
    card = Description("chase.bad_position", {"position": 0, "last": 8})
    assert describe_text("ru", card) == "Карты 1 нет: в ряду карт — 9."
    assert gettext("ru", "No bennies left.") == "Бенни не осталось."  # the engine's entry
    assert gettext("ru", "Not found.") == "Не найдено."  # the webapp's own
