"""Names people give — characters, NPC templates, fighters, games — as they are kept and
compared, the same for every rule system (pure: no storage here; the services refuse).

`normalise_name`: Unicode NFKC, invisible characters removed (zero-width spaces and joiners,
the word joiner, the byte order mark, the soft hyphen, the bidirectional controls such as the
right-to-left override U+202E, and every other control or format character), runs of
whitespace made one space, the ends stripped. What is left is what the chat and the Mini App
show, so two names that read alike are stored alike.

`skeleton` / `looks_alike`: what a name looks like. A Latin (or Greek) letter that looks like
a Cyrillic one is read as that Cyrillic letter, then case and «ё» are folded: «Гриммджo» with
a Latin «o» looks like «Гриммджо». Two different names of one game must not look alike.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from engine.words import fold

# The name columns (games.name, saved_characters.name) hold 255 characters: a longer name is
# refused before the database sees it.
NAME_MAX = 255

# Invisible, yet not control or format characters: the combining grapheme joiner, the Hangul
# fillers, the Khmer inherent vowels and the blank Braille pattern.
_BLANKS = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")
# Control (Cc), format (Cf: U+200B–U+200F, U+202A–U+202E, U+2060, U+2066–U+2069, U+061C,
# U+00AD, U+FEFF …), surrogate and private-use characters.
_DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co"})
# A name must keep at least one letter, digit, punctuation mark or symbol.
_VISIBLE_CATEGORIES = frozenset("LNPS")

# No library: the PyPI ones (confusable-homoglyphs, confusables) tell whether one string mixes
# scripts or list variants of it, not one key per look, and pull the whole Unicode table for
# what Russian names need: the Latin and Greek letters that look like Cyrillic ones.
# fmt: off
_LOOK_ALIKE = str.maketrans({
    # Latin capitals
    "A": "А", "B": "В", "C": "С", "E": "Е", "H": "Н", "I": "І", "J": "Ј", "K": "К", "M": "М",
    "O": "О", "P": "Р", "S": "Ѕ", "T": "Т", "X": "Х", "Y": "У",
    # Latin small letters
    "a": "а", "b": "ь", "c": "с", "e": "е", "h": "н", "i": "і", "j": "ј", "k": "к", "m": "м",
    "o": "о", "p": "р", "s": "ѕ", "t": "т", "x": "х", "y": "у",
    # Greek
    "Α": "А", "Β": "В", "Ε": "Е", "Η": "Н", "Ι": "І", "Κ": "К", "Μ": "М", "Ο": "О", "Ρ": "Р",
    "Τ": "Т", "Χ": "Х", "Υ": "У", "α": "а", "κ": "к", "ο": "о", "ρ": "р", "τ": "т", "χ": "х",
    # digits read as letters
    "0": "о", "3": "з",
})
# fmt: on


def _kept(text: str) -> str:
    out = []
    for ch in text:
        if ch.isspace():
            out.append(" ")
        elif ch not in _BLANKS and unicodedata.category(ch) not in _DROPPED_CATEGORIES:
            out.append(ch)
    return "".join(out)


def normalise_name(text: str) -> str:
    """The name as it is kept: NFKC, no invisible characters, single spaces, stripped."""
    # Removed before and after NFKC: a mark parted from its letter by a zero-width space
    # joins it again («е\u200b\u0308» is «ё»).
    text = _kept(unicodedata.normalize("NFKC", _kept(text)))
    return " ".join(text.split())


def is_blank(name: str) -> bool:
    """No letter, digit, punctuation mark or symbol: nothing a reader would see."""
    return not any(unicodedata.category(ch)[0] in _VISIBLE_CATEGORIES for ch in name)


def skeleton(name: str) -> str:
    """What the name looks like: look-alike Latin and Greek letters read as the Cyrillic
    ones (capitals before folding: a Latin «B» looks like «В», a small «b» does not), case
    and «ё» folded."""
    return fold(normalise_name(name).translate(_LOOK_ALIKE))


def looks_alike(a: str, b: str) -> bool:
    return skeleton(a) == skeleton(b)


def look_alike(name: str, names: Iterable[str]) -> str | None:
    """The first of `names` that looks like `name` yet is another name (not the same one
    up to case and «ё»: that one is the same entry)."""
    key, look = fold(normalise_name(name)), skeleton(name)
    for other in names:
        if fold(normalise_name(other)) != key and skeleton(other) == look:
            return other
    return None
