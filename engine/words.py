"""How a typed word is compared with the ones a table knows (names, traits, rows, command
words): case folded, «ё» read as «е», runs of spaces as one."""

from __future__ import annotations


def fold(text: str) -> str:
    return " ".join(text.casefold().replace("ё", "е").split())
