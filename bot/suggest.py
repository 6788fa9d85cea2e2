"""Guesses for a command the bot did not understand (no I/O, no texts).

- `/nxt` -> `/next`: the closest known command (difflib, as a spelling checker would);
- `/r2d6` -> `/r 2d6`: a command glued to its argument;
- `/р 2d6` (a Cyrillic р) -> `/r 2d6`: Telegram takes only Latin letters, digits and `_`
  as a command, so a Cyrillic one is read letter by letter as the Latin it looks or sounds
  like;
- `/r 2 к 6` -> `/r 2к6`: spaces inside a die (which otherwise reads as the number 2 with
  the comment «к 6»)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

# Cyrillic letters as the Latin ones they look like or stand for in a command.
_LATIN = str.maketrans(
    {
        "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh",
        "з": "z", "и": "i", "й": "y", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o",
        "п": "p", "р": "r", "с": "s", "т": "t", "у": "u", "ф": "f", "х": "h", "ц": "c",
        "ч": "ch", "ш": "sh", "щ": "sh", "ъ": "", "ы": "y", "ь": "", "э": "e", "ю": "yu",
        "я": "ya",
    }
)  # fmt: skip
_DIE = "dкд"
# «2 к 6», «2к 6», «3 d6+1»: a count, a die letter and its sides with a space among them.
_SPACED_DIE = re.compile(rf"^(\d*)(\s*)([{_DIE}])(\s*)(\d+|%)(?=$|[\s+\-*/!<>=#a-z])", re.I)
CUTOFF = 0.6  # difflib's similarity a guess needs


def latin(word: str) -> str:
    return word.lower().translate(_LATIN)


def guess_command(word: str, known: Iterable[str]) -> tuple[str, str] | None:
    """(command, glued argument) for an unknown command word (without the slash), or None.

    `known`: the Latin commands the bot answers."""
    commands = {k.lower() for k in known if k.isascii()}
    if latin(word) in commands:
        return latin(word), ""
    for cut in range(len(word) - 1, 0, -1):  # the longest first: «dmg2d6» is /dmg, not /d
        head, rest = latin(word[:cut]), word[cut:]
        glued = rest[0].isdigit() or rest[0].lower() in "+-" + _DIE
        if head in commands and glued and any(ch.isdigit() for ch in rest):
            return head, rest
    close = difflib.get_close_matches(latin(word), sorted(commands), n=1, cutoff=CUTOFF)
    return (close[0], "") if close else None


def glued_die(args: str) -> str | None:
    """`args` with the spaces inside its first die removed, if it has any; else None."""
    match = _SPACED_DIE.match(args.strip())
    if match is None or not (match[2] or match[4]):
        return None
    count, letter, sides = match[1], match[3], match[5]
    return f"{count}{letter}{sides}" + args.strip()[match.end() :]
