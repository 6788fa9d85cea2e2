"""A small scanner for the argument texts of the systems' roll commands.

Words are lowercased with ё -> е; keyword tables live next to the rules that use them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import DiceError
from .limits import MAX_NUMBER

_NUMBER_DIGITS = len(str(MAX_NUMBER))
_SIGNS = "+-−–"
_TOKEN = re.compile(
    r"""
    (?P<die>(?P<count>\d+)?[dDдДкК](?P<sides>\d+|%)(?P<bonus>[-+−–]\d+)?)(?![^\W_])
  | (?P<signed>[-+−–]\s*\d+)(?![^\W_])
  | (?P<num>\d+)(?![^\W\d_])
  | (?P<word>[^\W\d_]+)
  | (?P<other>\S)
    """,
    re.VERBOSE,
)


@dataclass(frozen=True, slots=True)
class Arg:
    kind: str  # "die" | "signed" | "num" | "word" | "other"
    text: str  # original text (words: lowercased, ё -> е)
    start: int
    end: int
    value: int | None = None  # signed/num: the number; die: the sides (None for %)
    count: int | None = None  # die: the written count
    bonus: int | None = None  # die: the attached +N/-N


def _int(text: str, position: int) -> int:
    digits = text.lstrip("+-−– \t").lstrip("0") or "0"
    if len(digits) > _NUMBER_DIGITS or int(digits) > MAX_NUMBER:
        raise DiceError(
            "number_too_large", position=position, fragment=text, params={"limit": MAX_NUMBER}
        )
    value = int(digits)
    return -value if text.lstrip()[:1] in "-−–" else value


def scan(text: str, offset: int = 0) -> list[Arg]:
    """Scan ``text``; positions are reported as ``offset +`` the index in ``text``."""
    args: list[Arg] = []
    for m in _TOKEN.finditer(text):
        start, end = m.start() + offset, m.end() + offset
        kind = m.lastgroup if m.lastgroup in ("signed", "num", "word", "other") else "die"
        if m.group("die"):
            sides = m.group("sides")
            bonus = m.group("bonus")
            count = m.group("count")
            args.append(
                Arg(
                    "die",
                    m.group(0),
                    start,
                    end,
                    None if sides == "%" else _int(sides, start),
                    None if count is None else _int(count, start),
                    None if bonus is None else _int(bonus, start),
                )
            )
        elif kind == "word":
            args.append(Arg("word", m.group(0).lower().replace("ё", "е"), start, end))
        elif kind in ("signed", "num"):
            args.append(Arg(kind, m.group(0), start, end, _int(m.group(0), start)))
        else:
            args.append(Arg("other", m.group(0), start, end))
    return args


class ArgReader:
    """Sequential access to scanned arguments with error helpers."""

    def __init__(self, text: str, args: list[Arg], *, base: int = 0) -> None:
        self.text = text  # the full argument text (positions index into it)
        self.args = args
        self.i = 0
        self.base = base

    def peek(self, k: int = 0) -> Arg | None:
        j = self.i + k
        return self.args[j] if j < len(self.args) else None

    def take(self) -> Arg:
        arg = self.args[self.i]
        self.i += 1
        return arg

    def number(self, after: Arg, *, signed: bool = False) -> int:
        """The number following a keyword (``цн 6``)."""
        nxt = self.peek()
        kinds = ("num", "signed") if signed else ("num",)
        if nxt is None:
            raise DiceError("incomplete", position=len(self.text), fragment=after.text)
        if nxt.kind not in kinds:
            raise self.unexpected(nxt)
        self.take()
        assert nxt.value is not None
        return nxt.value

    def comment(self) -> str:
        """Everything from the current argument to the end, as a comment."""
        arg = self.peek()
        if arg is None:
            return ""
        return self.text[arg.start :].strip().lstrip("-—–,;:").strip()

    def unexpected(self, arg: Arg) -> DiceError:
        return DiceError("unexpected", position=arg.start, fragment=self.text[arg.start : arg.end])


def out_of_range(arg: Arg | None, what: str, lo: int, hi: int, text: str) -> DiceError:
    pos = None if arg is None else arg.start
    frag = "" if arg is None else text[arg.start : arg.end]
    return DiceError(
        "out_of_range", position=pos, fragment=frag, params={"what": what, "min": lo, "max": hi}
    )


def starts(word: str, prefixes: tuple[str, ...]) -> bool:
    return any(word.startswith(p) for p in prefixes)
