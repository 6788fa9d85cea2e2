"""Names as they are kept and compared (engine/names.py): normalised, and told apart by what
they look like."""

from __future__ import annotations

import pytest

from engine.names import is_blank, look_alike, looks_alike, normalise_name, skeleton


@pytest.mark.parametrize(
    ("written", "kept"),
    [
        ("И\u200bчиго", "Ичиго"),  # zero-width space
        ("Ичи\u200cго\u200d", "Ичиго"),  # zero-width non-joiner and joiner
        ("\ufeffИчиго\u2060", "Ичиго"),  # byte order mark, word joiner
        ("Ичи\u00adго", "Ичиго"),  # soft hyphen
        ("\u202eогичИ", "огичИ"),  # right-to-left override: removed, the letters stay
        ("\u200eИчиго\u200f\u061c", "Ичиго"),  # marks of direction
        ("\u2066Ичиго\u2069 \u202aКуросаки\u202c", "Ичиго Куросаки"),  # isolates, embeddings
        ("  Ичиго \t\n  Куросаки  ", "Ичиго Куросаки"),  # runs of whitespace
        ("Ичиго\u00a0Куросаки", "Ичиго Куросаки"),  # a no-break space is a space
        ("Ｉｃｈｉｇｏ", "Ichigo"),  # full-width letters (NFKC)
        ("Пустой ①", "Пустой 1"),  # compatibility digits (NFKC)
        ("Сергеи\u0306", "Сергей"),  # a letter and its mark compose (NFKC)
        ("Алёна", "Алёна"),
        ("Ле\u200b\u0308на", "Лёна"),  # the mark finds its letter once the space is gone
        ("Бандит\x00\x07", "Бандит"),  # control characters
    ],
)
def test_a_name_is_kept_without_what_cannot_be_seen(written: str, kept: str) -> None:
    assert normalise_name(written) == kept
    assert normalise_name(kept) == kept  # normalising twice changes nothing


def test_a_name_of_invisible_characters_only_is_blank() -> None:
    for text in ("", "   ", "\u200b\u200c\u200d", "\u202e", "\ufeff\u2060", "\u3164", "\u0301"):
        assert is_blank(normalise_name(text)), repr(text)
    for text in ("И", "7", "?", "☠", "Ичиго"):
        assert not is_blank(normalise_name(text)), text


def test_a_latin_letter_among_cyrillic_ones_looks_alike() -> None:
    assert looks_alike("Гриммджo", "Гриммджо")  # a Latin «o»
    assert looks_alike("Рукия", "Pукия")  # a Latin «P»
    assert looks_alike("ВЕТЕР", "BETEP")  # all Latin capitals
    assert looks_alike("Тор", "Top")
    assert looks_alike("Мах", "Max")
    assert looks_alike("Ичиго", "ичИго")  # case
    assert looks_alike("Алёна", "Алена")  # «ё»
    assert looks_alike("Бандит 3", "Бандит З")  # a digit and a letter
    assert looks_alike("И\u200bчиго", "Ичиго")
    assert looks_alike("Οрихиме", "Орихиме")  # a Greek capital omicron
    assert skeleton("Гриммджo") == skeleton("Гриммджо") == "гриммджо"
    # not alike: other letters, other numbers
    assert not looks_alike("Ичиго", "Рукия")
    assert not looks_alike("Пустой 1", "Пустой 2")
    assert not looks_alike("Bob", "Боб")


def test_look_alike_names_another_name_not_the_same_one() -> None:
    names = ["Ичиго", "Гриммджо", "Пустой"]
    assert look_alike("Гриммджo", names) == "Гриммджо"
    assert look_alike("ГРИММДЖO", names) == "Гриммджо"
    # the same name up to case and «ё» is the same entry: no other name
    assert look_alike("гриммджо", names) is None
    assert look_alike("Ичи\u200bго", names) is None
    assert look_alike("Рукия", names) is None
