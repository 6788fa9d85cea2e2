"""/odds: the exact odds of a roll before it is rolled (fractions.Fraction, never sampling).

The first word picks the roll command whose odds these are (`/odds p 7 6`); a text without
one of those words goes to the command that takes /odds without a word (`/odds d8+1`). Each
system computes its own (``RollCommand.odds``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from .commands import BY_ODDS_WORD
from .errors import DiceError
from .parser import check_length
from .results import OddsResult

_HEAD = re.compile(r"\s*(\S+)(?:\s+|$)")


@lru_cache(maxsize=256)
def odds(text: str) -> OddsResult:
    check_length(text)
    head = _HEAD.match(text)
    command = BY_ODDS_WORD.get(head.group(1).lower()) if head else None
    offset = head.end() if head and command is not None else 0
    command = command or BY_ODDS_WORD.get("")
    if command is None or command.odds is None:
        raise DiceError("unexpected", position=0, fragment=text.strip())
    return command.odds(text[offset:], offset)
