"""Names as people type them (issue 25, item 5): engine/name_match.py."""

from __future__ import annotations

from engine.name_match import match

NAMES = ("Бандит 1", "Бандит 2", "Ольга Крылова", "Вероника", "Такеда", "Главарь Зубов")


def test_any_case_a_russian_case_form_and_the_start_of_a_name() -> None:
    assert match("вероника", NAMES).found == "Вероника"
    assert match("БАНДИТ 2", NAMES).found == "Бандит 2"
    assert match("Такеды", NAMES).found == "Такеда"  # genitive (pymorphy3)
    assert match("Ольгу Крылову", NAMES).found == "Ольга Крылова"  # accusative
    assert match("Главаря", NAMES).found == "Главарь Зубов"
    assert match("Ольга", NAMES).found == "Ольга Крылова"  # the start of the name
    assert match("крылова", NAMES).found == "Ольга Крылова"  # one of its words
    assert match("Вер", NAMES).found == "Вероника"


def test_one_letter_off_but_never_another_number() -> None:
    assert match("Верника", NAMES).found == "Вероника"  # a letter missing
    assert match("Бнадит 2", NAMES).found == "Бандит 2"  # two swapped
    assert match("Такада", NAMES).found == "Такеда"  # one wrong
    assert match("Бандит 3", NAMES).found is None  # not a typo of «Бандит 1»
    assert match("Бнд", NAMES).found is None  # too short to guess


def test_ambiguous_or_unknown_names_offer_the_closest() -> None:
    offered = match("Бнадит", NAMES)
    assert offered.found is None and offered.closest == ("Бандит 1", "Бандит 2")
    assert match("Бандит", NAMES).closest == ("Бандит 1", "Бандит 2")
    assert match("Ксения", NAMES).found is None
    assert match("сабля", ("Меч", "Кулак")).found is None
    assert match("кулок", ("Меч", "Кулак")).found == "Кулак"
