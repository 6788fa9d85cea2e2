"""Duel checks (seed 003): d10 + modifiers.

Seed 003 line 39: «Чистая 10 на d10 - критический успех любого действия, 1 на d10 -
критический провал». A trick succeeds on 6+ (line 27: «d10 против фиксированной сложности,
с успехом на 6+»). With a target, a natural 10 always succeeds and a natural 1 always fails.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from engine import describe
from engine.describe import Template
from engine.dice.commands import RollCommand
from engine.dice.errors import DiceError
from engine.dice.limits import MAX_MODIFIER, MAX_TARGET
from engine.dice.parser import check_length
from engine.dice.results import Die, Modifier, Serializable, register_result
from engine.dice.rng import Rng
from engine.dice.words import ArgReader, out_of_range, scan, starts

DUEL_DIE = 10
TRICK_TARGET = 6
TRICK_PREFIXES = ("трюк", "trick")
TARGET_WORDS = ("цн", "сл", "tn", "vs", "против", "dc")


# its words for a shared dice code
CHECK_DIE_SAYS: dict[str, Template] = {"bad_die": "A duel check is rolled on a d10"}


class CheckDieError(DiceError):
    """`bad_die` in the system's words: a check is rolled on the d10 alone."""

    family = "duel_dice"
    codes = CHECK_DIE_SAYS


describe.register(CheckDieError.family, CheckDieError.codes)


@register_result
@dataclass(frozen=True, slots=True)
class DuelCheckResult(Serializable):
    kind: str = field(default="duel", init=False)
    expression: str  # normalised, e.g. "d10+2"
    comment: str
    die: Die
    modifiers: tuple[Modifier, ...]
    total: int
    critical: str | None  # "success" (natural 10) | "failure" (natural 1) | None
    target: int | None  # e.g. 6 for a trick
    success: bool | None  # None without a target


@dataclass(frozen=True, slots=True)
class DuelSpec:
    modifiers: tuple[Modifier, ...]
    target: int | None
    comment: str

    def normalised(self) -> str:
        out = "d10" + "".join(f"{m.value:+d}" for m in self.modifiers)
        return out if self.target is None else f"{out} tn {self.target}"


@lru_cache(maxsize=512)
def parse_duel(text: str) -> DuelSpec:
    """``+2``, ``d10+2``, ``+1 -1``, ``+2 трюк``, ``+1 цн 7`` then an optional comment."""
    check_length(text)
    r = ArgReader(text, scan(text))
    mods: list[Modifier] = []
    target: int | None = None
    comment = ""
    while (arg := r.peek()) is not None:
        if arg.kind == "die" and not mods and target is None:
            r.take()
            if arg.value != DUEL_DIE or arg.count not in (None, 1):
                raise CheckDieError("bad_die", position=arg.start, fragment=arg.text)
            if arg.bonus:
                mods.append(Modifier("modifier", arg.bonus))
        elif arg.kind in ("signed", "num"):
            r.take()
            assert arg.value is not None
            mods.append(Modifier("modifier", arg.value))
        elif arg.kind == "word" and starts(arg.text, TRICK_PREFIXES):
            r.take()
            target = TRICK_TARGET
        elif arg.kind == "word" and arg.text in TARGET_WORDS:
            r.take()
            target = r.number(arg)
            if not 1 <= target <= MAX_TARGET:
                raise out_of_range(r.args[r.i - 1], "target", 1, MAX_TARGET, text)
        elif arg.kind == "word" or arg.text in ",;:—-–":
            comment = r.comment()
            break
        else:
            raise r.unexpected(arg)
    for m in mods:
        if abs(m.value) > MAX_MODIFIER:
            raise out_of_range(None, "modifier", -MAX_MODIFIER, MAX_MODIFIER, text)
    return DuelSpec(tuple(mods), target, comment)


def duel(text: str, rng: Rng) -> DuelCheckResult:
    """A duel check: d10 + modifiers; natural 10 critical success, natural 1 critical failure."""
    spec = parse_duel(text)
    v = rng.randint(1, DUEL_DIE)
    total = v + sum(m.value for m in spec.modifiers)
    critical = "success" if v == DUEL_DIE else "failure" if v == 1 else None
    success = None
    if spec.target is not None:
        success = critical == "success" or (critical is None and total >= spec.target)
    return DuelCheckResult(
        spec.normalised(),
        spec.comment,
        Die(DUEL_DIE, v),
        spec.modifiers,
        total,
        critical,
        spec.target,
        success,
    )


# seed 003: d10 + modifiers, natural 10 / 1 criticals (registered with the system)
DUEL_CHECK = RollCommand("duel", "duel", ("d",), ("d", "duel", "дуэль"), duel)
