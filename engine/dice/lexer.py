"""Stage 1: text -> tokens.

Letters are read in runs and split into notation words by longest match
(``4d6dl1`` -> ``d``, ``dl``); a run that does not split is a WORD, which can only start a
comment. Every token remembers its offsets and whether whitespace precedes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .limits import MAX_NUMBER


class T(Enum):
    NUM = "num"
    DICE = "dice"  # d D д Д к К
    PCT = "pct"  # % (d% = d100)
    OP = "op"  # + - * /
    LPAREN = "("
    RPAREN = ")"
    HASH = "#"
    BANG = "!"
    MOD = "mod"  # kh kl k dh dl r ro f x
    CMP = "cmp"  # >= > <= < =
    WORD = "word"
    END = "end"


@dataclass(frozen=True, slots=True)
class Tok:
    type: T
    text: str  # normalised: "d", "+", ">=", "kh"; original text for NUM/WORD
    start: int
    end: int
    space_before: bool
    value: int | None = None  # NUM only; None when above MAX_NUMBER


_DICE_LETTERS = {"d": "d", "д": "d", "к": "d"}
# x and the Cyrillic look-alike х both mean "explode" (see docs/rules/dice.md)
_MOD_WORDS = {"kh": "kh", "kl": "kl", "dh": "dh", "dl": "dl", "ro": "ro", "k": "k", "r": "r"}
_MOD_WORDS |= {"f": "f", "x": "x", "х": "x"}
_LETTER_WORDS = {**_DICE_LETTERS, **_MOD_WORDS}
_SINGLE = {
    "+": (T.OP, "+"),
    "-": (T.OP, "-"),
    "−": (T.OP, "-"),  # U+2212 minus sign
    "–": (T.OP, "-"),  # en dash, common after autocorrect
    "*": (T.OP, "*"),
    "×": (T.OP, "*"),
    "·": (T.OP, "*"),
    "/": (T.OP, "/"),
    "÷": (T.OP, "/"),
    "(": (T.LPAREN, "("),
    ")": (T.RPAREN, ")"),
    "#": (T.HASH, "#"),
    "!": (T.BANG, "!"),
    "%": (T.PCT, "%"),
    "≥": (T.CMP, ">="),
    "≤": (T.CMP, "<="),
    "=": (T.CMP, "="),
}
_NUMBER_DIGITS = len(str(MAX_NUMBER))


def _split_letters(run: str) -> list[str] | None:
    """Split a lowercase letter run into notation words by longest match, or None."""
    parts: list[str] = []
    i = 0
    while i < len(run):
        two = run[i : i + 2]
        if len(two) == 2 and two in _LETTER_WORDS:
            parts.append(two)
            i += 2
        elif run[i] in _LETTER_WORDS:
            parts.append(run[i])
            i += 1
        else:
            return None
    return parts


def tokenize(text: str) -> list[Tok]:
    toks: list[Tok] = []
    append = toks.append
    i, n = 0, len(text)
    space = False
    while i < n:
        c = text[i]
        if c.isspace():
            space = True
            i += 1
            continue
        if "0" <= c <= "9":
            j = i + 1
            while j < n and "0" <= text[j] <= "9":
                j += 1
            digits = text[i:j]
            stripped = digits.lstrip("0") or "0"
            value = int(stripped) if len(stripped) <= _NUMBER_DIGITS else None
            if value is not None and value > MAX_NUMBER:
                value = None
            append(Tok(T.NUM, digits, i, j, space, value))
            i = j
        elif c.isalpha():
            j = i + 1
            while j < n and text[j].isalpha():
                j += 1
            run = text[i:j]
            parts = _split_letters(run.lower())
            if parts is None:
                append(Tok(T.WORD, run, i, j, space))
            else:
                k = i
                for p in parts:
                    kind = T.DICE if p in _DICE_LETTERS else T.MOD
                    norm = _LETTER_WORDS[p]
                    append(Tok(kind, norm, k, k + len(p), space if k == i else False))
                    k += len(p)
            i = j
        elif c in "<>":
            if i + 1 < n and text[i + 1] == "=":
                append(Tok(T.CMP, c + "=", i, i + 2, space))
                i += 2
            else:
                append(Tok(T.CMP, c, i, i + 1, space))
                i += 1
        elif c in _SINGLE:
            kind, norm = _SINGLE[c]
            append(Tok(kind, norm, i, i + 1, space))
            i += 1
        else:
            append(Tok(T.WORD, c, i, i + 1, space))
            i += 1
        space = False
    append(Tok(T.END, "", n, n, space))
    return toks
