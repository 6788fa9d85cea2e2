"""Storyteller d10 pools (seed 002 and DESIGN.md).

* N d10 against a difficulty (default 6, 2..10 — other values are rejected); each die
  >= difficulty is a success; each 1 cancels one success; no successes and at least one 1 is a
  botch (seed 002 line 129 separates «неудача» from «провал»).
* Specialty (seed 002 line 43: «игроки, у которых персонажи специализированы и выброшена хотя
  бы одна "десятка", могут сделать дополнительный бросок»): every 10 gives one bonus die; a 10
  on a bonus die gives another (capped at MAX_EXTRA_DICE, engine/dice/limits.py); bonus dice
  add successes but their 1s do not cancel.
* Willpower (DESIGN: one automatic success; the seed only says a Willpower point is spent to
  act «автоматически», line 203): +1 success that 1s cannot cancel, so no botch.
* Damage and soak (seed 002 lines 171, 179, 185): difficulty 6 unless given, they cannot
  botch, and a damage pool is never below one die. Their 1s still cancel successes.

Dice are drawn in order: the N pool dice, then the bonus dice breadth-first.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.dice.errors import DiceError
from engine.dice.limits import MAX_EXTRA_DICE
from engine.dice.parser import check_length
from engine.dice.results import Die
from engine.dice.rng import Rng
from engine.dice.words import Arg, ArgReader, out_of_range, scan, starts

from .results import PoolResult

MAX_POOL_DICE = 50  # a pool's size (a hard limit of the engine, docs/rules/dice.md)
DEFAULT_DIFFICULTY = 6
MIN_DIFFICULTY, MAX_DIFFICULTY = 2, 10

DIFFICULTY_WORDS = ("сл", "сложность", "diff", "difficulty", "dc")
SPECIALTY_PREFIXES = ("спец", "spec")
WILLPOWER_WORDS = ("вс", "св", "wp", "willpower")
DAMAGE_PREFIXES = ("урон", "damage", "dmg", "поврежд")
SOAK_PREFIXES = ("погл", "soak")


@dataclass(frozen=True, slots=True)
class PoolSpec:
    requested_dice: int
    dice_count: int
    difficulty: int
    mode: str  # "action" | "damage" | "soak"
    specialty: bool
    willpower: bool
    comment: str

    @property
    def can_botch(self) -> bool:
        return self.mode == "action" and not self.willpower

    def normalised(self) -> str:
        parts = [str(self.dice_count), "diff", str(self.difficulty)]
        if self.mode != "action":
            parts.append(self.mode)
        if self.specialty:
            parts.append("spec")
        if self.willpower:
            parts.append("wp")
        return " ".join(parts)


@lru_cache(maxsize=512)
def parse_pool(text: str, offset: int = 0) -> PoolSpec:
    """``7 6``, ``7 сл 6 спец вс``, ``5 урон``, ``7d10 6`` (positions from ``offset``)."""
    check_length(text)
    full = " " * offset + text  # keep positions relative to the caller's text
    args = scan(text, offset)
    if not args:
        raise DiceError("empty", position=offset)
    r = ArgReader(full, args)
    count_arg: Arg | None = None
    count: int | None = None
    difficulty: int | None = None
    diff_arg: Arg | None = None
    mode, specialty, willpower, comment = "action", False, False, ""
    while (arg := r.peek()) is not None:
        w = arg.text
        if count is None and arg.kind == "num":
            count, count_arg = r.take().value, arg
        elif count is None and arg.kind == "die" and arg.value == 10:
            r.take()
            count, count_arg = (1 if arg.count is None else arg.count), arg
            if arg.bonus:
                raise r.unexpected(arg)
        elif count is not None and difficulty is None and arg.kind == "num":
            difficulty, diff_arg = r.take().value, arg
        elif arg.kind == "word" and w in DIFFICULTY_WORDS:
            if difficulty is not None:
                raise r.unexpected(arg)
            r.take()
            difficulty = r.number(arg)
            diff_arg = r.args[r.i - 1]
        elif arg.kind == "word" and starts(w, SPECIALTY_PREFIXES):
            r.take()
            specialty = True
        elif arg.kind == "word" and (
            w in WILLPOWER_WORDS
            or (w == "сила" and (nxt := r.peek(1)) is not None and nxt.text.startswith("вол"))
        ):
            r.take()
            if w == "сила":
                r.take()
            willpower = True
        elif arg.kind == "word" and starts(w, DAMAGE_PREFIXES):
            r.take()
            mode = "damage"
        elif arg.kind == "word" and starts(w, SOAK_PREFIXES):
            r.take()
            mode = "soak"
        elif count is not None and (arg.kind == "word" or arg.text in ",;:—-–"):
            comment = r.comment()
            break
        else:
            raise r.unexpected(arg)
    if count is None:
        raise DiceError("incomplete", position=offset + len(text), fragment="")
    requested = count
    if mode == "damage":
        count = max(count, 1)  # seed 002 line 179: at least one die for any damage
    if count < 1:
        raise out_of_range(count_arg, "dice", 1, MAX_POOL_DICE, full)
    if count > MAX_POOL_DICE:
        assert count_arg is not None
        raise DiceError(
            "too_many_dice",
            position=count_arg.start,
            fragment=count_arg.text,
            params={"limit": MAX_POOL_DICE},
        )
    if difficulty is None:
        difficulty = DEFAULT_DIFFICULTY
    if not MIN_DIFFICULTY <= difficulty <= MAX_DIFFICULTY:
        raise out_of_range(diff_arg, "difficulty", MIN_DIFFICULTY, MAX_DIFFICULTY, full)
    return PoolSpec(requested, count, difficulty, mode, specialty, willpower, comment)


def pool(text: str, rng: Rng) -> PoolResult:
    """/p: a Storyteller dice pool."""
    spec = parse_pool(text)
    return roll_pool(spec, rng)


def roll_pool(spec: PoolSpec, rng: Rng) -> PoolResult:
    randint, diff = rng.randint, spec.difficulty
    faces = [randint(1, 10) for _ in range(spec.dice_count)]
    pending = sum(1 for v in faces if v == 10) if spec.specialty else 0
    bonus_faces: list[int] = []
    capped = False
    while pending:
        if len(bonus_faces) >= MAX_EXTRA_DICE:
            capped = True
            break
        v = randint(1, 10)
        bonus_faces.append(v)
        pending += (v == 10) - 1
    # Each bonus die was given by one 10, breadth-first: pool 10s, then bonus 10s in order.
    givers = len(bonus_faces)
    dice: list[Die] = []
    for v in faces:
        gives = v == 10 and givers > 0
        givers -= gives
        dice.append(Die(10, v, exploded=gives, success=v >= diff, cancels=v == 1))
    bonus: list[Die] = []
    for v in bonus_faces:
        gives = v == 10 and givers > 0
        givers -= gives
        bonus.append(Die(10, v, exploded=gives, success=v >= diff))

    successes = sum(1 for d in dice if d.success) + sum(1 for d in bonus if d.success)
    ones = sum(1 for v in faces if v == 1)
    auto = 1 if spec.willpower else 0
    net = max(0, successes - ones) + auto
    botch = spec.can_botch and successes == 0 and ones > 0
    outcome = "botch" if botch else ("success" if net > 0 else "failure")
    return PoolResult(
        spec.normalised(),
        spec.comment,
        spec.requested_dice,
        spec.dice_count,
        diff,
        spec.mode,
        spec.specialty,
        spec.willpower,
        tuple(dice),
        tuple(bonus),
        successes,
        ones,
        auto,
        net,
        botch,
        outcome,
        capped,
    )
