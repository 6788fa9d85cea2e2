"""SWADE trait and damage rolls (seed 000 and DESIGN.md "Rules where the seeds are silent").

Trait roll: the trait die and, for a Wild Card, a d6 Wild Die; both ace (explode on the
maximum); take the higher, add modifiers; TN 4 by default; each full 4 over the TN is a raise.
Critical failure: a Wild Card rolls 1 on both dice (Extras: none). Unskilled: d4-2.
Dice are drawn in order: the whole trait-die chain, then the whole Wild-Die chain.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from engine import describe
from engine.describe import Template
from engine.dice.errors import DiceError
from engine.dice.evaluate import Program, build_program
from engine.dice.limits import MAX_EXTRA_DICE, MAX_MODIFIER, MAX_TARGET
from engine.dice.parser import check_length, parse_command
from engine.dice.results import DiceGroup, Die, Modifier, make_die, make_group
from engine.dice.rng import Rng
from engine.dice.syntax import Dice, map_dice
from engine.dice.words import Arg, ArgReader, out_of_range, scan, starts

from .results import DamageOutcome, DamageResult, TraitResult

TRAIT_DICE = (4, 6, 8, 10, 12)
DEFAULT_TN = 4
WILD_DIE = 6
RAISE_STEP = 4


# its words for a shared dice code
TRAIT_DIE_SAYS: dict[str, Template] = {"bad_die": "A SWADE trait die is d4, d6, d8, d10 or d12"}


class TraitDieError(DiceError):
    """`bad_die` in the system's words: the dice a trait roll takes."""

    family = "savage_dice"
    codes = TRAIT_DIE_SAYS


describe.register(TraitDieError.family, TraitDieError.codes)

TN_WORDS = ("цн", "tn", "vs", "против", "пар", "парирование", "parry")
EXTRA_PREFIXES = ("статист", "extra")
WILD_WORDS = ("дикий", "wild", "wc")
UNSKILLED_WORDS = ("unskilled", "необучен", "ненавык")
NO_WORDS = ("нет", "без")
JOKER_PREFIXES = ("джокер", "joker")
WOUND_PREFIXES = ("ран", "wound")
FATIGUE_PREFIXES = ("усталост", "fatigue")
DISTRACTED_PREFIXES = ("отвлеч", "distracted")

# Damage keywords
TOUGHNESS_WORDS = ("vs", "против", "цн", "tn", "прочность", "toughness", "т", "t")
ARMOR_PREFIXES = ("брон", "armor", "armour")
AP_WORDS = ("ap", "бп", "пб", "бронебойность")
RAISE_PREFIXES = ("подъем", "raise")
SHAKEN_PREFIXES = ("шок", "shaken")
HARDY_PREFIXES = ("стойк", "hardy")


@dataclass(frozen=True, slots=True)
class TraitSpec:
    sides: int
    modifiers: tuple[Modifier, ...]
    tn: int
    wild_card: bool
    unskilled: bool
    comment: str

    @property
    def modifier_total(self) -> int:
        return sum(m.value for m in self.modifiers)

    def normalised(self) -> str:
        parts = [f"d{self.sides}"]
        for m in self.modifiers:
            if m.label == "trait_bonus":
                parts[0] += f"{m.value:+d}"
            elif m.label == "modifier":
                parts.append(f"{m.value:+d}")
            else:
                parts.append(f"{m.label} {m.value:+d}")
        if self.tn != DEFAULT_TN:
            parts.append(f"tn {self.tn}")
        if not self.wild_card:
            parts.append("extra")
        return " ".join(parts)


def _check_modifier(arg: Arg, value: int, text: str) -> int:
    if abs(value) > MAX_MODIFIER:
        raise out_of_range(arg, "modifier", -MAX_MODIFIER, MAX_MODIFIER, text)
    return value


@lru_cache(maxsize=512)
def parse_trait(text: str) -> TraitSpec:
    """Parse ``d8+1``, ``к8 -2 цн 6``, ``d6 статист``, ``нет навыка`` ... (cached)."""
    check_length(text)
    args = scan(text)
    if not args:
        raise DiceError("empty", position=0)
    r = ArgReader(text, args)
    sides: int | None = None
    mods: list[Modifier] = []
    tn, wild_card, unskilled, comment = DEFAULT_TN, True, False, ""
    while (arg := r.peek()) is not None:
        if arg.kind == "die":
            if sides is not None or unskilled:
                raise r.unexpected(arg)
            r.take()
            if arg.value not in TRAIT_DICE or arg.count not in (None, 1):
                raise TraitDieError("bad_die", position=arg.start, fragment=arg.text)
            sides = arg.value
            if arg.bonus:
                label = "trait_bonus" if sides == 12 and arg.bonus > 0 else "modifier"
                mods.append(Modifier(label, _check_modifier(arg, arg.bonus, text)))
        elif arg.kind == "signed":
            r.take()
            assert arg.value is not None
            mods.append(Modifier("modifier", _check_modifier(arg, arg.value, text)))
        elif arg.kind == "word":
            w = arg.text
            nxt = r.peek(1)
            if w in TN_WORDS:
                r.take()
                tn = r.number(arg)
                if not 1 <= tn <= MAX_TARGET:
                    raise out_of_range(r.args[r.i - 1], "tn", 1, MAX_TARGET, text)
            elif starts(w, EXTRA_PREFIXES):
                r.take()
                wild_card = False
            elif w in WILD_WORDS:
                r.take()
                wild_card = True
            elif w in UNSKILLED_WORDS or (
                w in NO_WORDS and nxt is not None and nxt.text.startswith(("навык", "skill"))
            ):
                r.take()
                if w in NO_WORDS:
                    r.take()
                if unskilled or (sides is not None and sides != 4):
                    raise DiceError("bad_modifier", position=arg.start, fragment=arg.text)
                unskilled, sides = True, 4
                mods.insert(0, Modifier("unskilled", -2))
            elif starts(w, JOKER_PREFIXES):
                r.take()
                mods.append(Modifier("joker", 2))  # seed 000 line 14: Joker +2 to trait rolls
            elif starts(w, WOUND_PREFIXES):
                r.take()
                n = r.number(arg)
                if n > 3:  # seed 000 line 73: -1 per Wound, at most -3
                    n = 3
                if n:
                    mods.append(Modifier("wounds", -n))
            elif starts(w, FATIGUE_PREFIXES):
                r.take()
                n = r.number(arg)
                if not 0 <= n <= 2:  # DESIGN: Fatigued -1, Exhausted -2
                    raise out_of_range(r.args[r.i - 1], "fatigue", 0, 2, text)
                if n:
                    mods.append(Modifier("fatigue", -n))
            elif starts(w, DISTRACTED_PREFIXES):
                r.take()
                mods.append(Modifier("distracted", -2))  # seed 000 line 45
            else:
                comment = r.comment()
                break
        elif arg.kind == "other" and arg.text in ",;:—-–":
            comment = r.comment()
            break
        else:
            raise r.unexpected(arg)
    if sides is None:
        raise DiceError("incomplete", position=len(text), fragment="")
    return TraitSpec(sides, tuple(mods), tn, wild_card, unskilled, comment)


def aced_die(rng: Rng, sides: int, *, wild: bool = False) -> DiceGroup:
    """Roll one acing die: keep rolling while it shows its maximum (capped)."""
    values: list[int] = []
    capped = False
    while True:
        v = rng.randint(1, sides)
        values.append(v)
        if v != sides:
            break
        if len(values) > MAX_EXTRA_DICE:
            capped = True
            break
    last = len(values) - 1
    faces = tuple(
        Die(sides, v, exploded=(i < last), wild=wild) if wild else make_die(sides, v, i < last)
        for i, v in enumerate(values)
    )
    return make_group(f"d{sides}!", sides, faces, sum(values), capped)


def trait_outcome(total: int, tn: int, critical: bool) -> tuple[str, int]:
    if critical:
        return "critical_failure", 0
    if total < tn:
        return "failure", 0
    raises = (total - tn) // RAISE_STEP
    return ("raise" if raises else "success"), raises


def trait(text: str, rng: Rng) -> TraitResult:
    """/t: a SWADE trait roll."""
    spec = parse_trait(text)
    trait_die = aced_die(rng, spec.sides)
    wild_die = aced_die(rng, WILD_DIE, wild=True) if spec.wild_card else None
    mod = spec.modifier_total
    used = "trait"
    best = trait_die.value
    if wild_die is not None and wild_die.value > best:
        used, best = "wild", wild_die.value
    # DESIGN: "Critical failure: a Wild Card rolls 1 on both dice" (natural faces)
    critical = wild_die is not None and trait_die.dice[0].value == 1 and wild_die.dice[0].value == 1
    total = best + mod
    outcome, raises = trait_outcome(total, spec.tn, critical)
    return TraitResult(
        spec.normalised(),
        spec.comment,
        trait_die,
        wild_die,
        spec.modifiers,
        spec.tn,
        total,
        used,
        outcome,
        raises,
        spec.wild_card,
        spec.unskilled,
    )


# --- damage -----------------------------------------------------------------------------


def damage_outcome(
    total: int, toughness: int, *, already_shaken: bool = False, hardy: bool = False
) -> DamageOutcome:
    """Damage vs Toughness, seed 000 lines 60-63 and 87-88:

    below Toughness nothing; at Toughness or less than 4 over, Shaken; each full 4 over, one
    Wound (and Shaken); a Shaken result on an already Shaken target becomes one Wound, unless
    the target is Hardy.
    """
    if total < toughness:
        return DamageOutcome("none", 0, False)
    wounds = (total - toughness) // RAISE_STEP
    if wounds:
        return DamageOutcome("wounds", wounds, True)
    if already_shaken and not hardy:
        return DamageOutcome("wounds", 1, True)
    return DamageOutcome("shaken", 0, True)


@dataclass(frozen=True, slots=True)
class DamageSpec:
    program: Program
    raise_bonus: bool
    modifiers: tuple[Modifier, ...]
    toughness: int | None
    armor: int
    ap: int
    already_shaken: bool
    hardy: bool
    comment: str


def _ace(d: Dice) -> Dice:
    if d.sides == 1:
        raise DiceError("endless_dice", position=d.start, fragment=f"{d.count}d1")
    return replace(d, explode=True)


@lru_cache(maxsize=512)
def parse_damage(text: str) -> DamageSpec:
    check_length(text)
    cmd = parse_command(text, allow_repeat=False)
    program = build_program(map_dice(cmd.expr, _ace))
    args = scan(text[cmd.rest_start :], cmd.rest_start)
    r = ArgReader(text, args)
    raise_bonus = shaken = hardy = False
    toughness: int | None = None
    armor = ap = 0
    mods: list[Modifier] = []
    comment = ""
    while (arg := r.peek()) is not None:
        w = arg.text
        if arg.kind == "word" and w in TOUGHNESS_WORDS:
            r.take()
            toughness = r.number(arg)
            t_arg = r.args[r.i - 1]
            if not 1 <= toughness <= MAX_TARGET:
                raise out_of_range(t_arg, "toughness", 1, MAX_TARGET, text)
            # "8(2)": Toughness 8 of which 2 is armor
            if [a.text for a in args[r.i : r.i + 3 : 2]] == ["(", ")"] and args[
                r.i + 1
            ].kind == "num":
                r.take()
                armor = r.take().value or 0
                r.take()
        elif arg.kind == "word" and starts(w, ARMOR_PREFIXES):
            r.take()
            armor = r.number(arg)
        elif arg.kind == "word" and w in AP_WORDS:
            r.take()
            ap = r.number(arg)
        elif arg.kind == "word" and starts(w, RAISE_PREFIXES):
            r.take()
            raise_bonus = True
        elif arg.kind == "word" and starts(w, SHAKEN_PREFIXES):
            r.take()
            shaken = True
        elif arg.kind == "word" and starts(w, HARDY_PREFIXES):
            r.take()
            hardy = True
        elif arg.kind == "word" and starts(w, JOKER_PREFIXES):
            r.take()
            mods.append(Modifier("joker", 2))  # seed 000 line 14: Joker +2 to damage
        else:
            comment = r.comment()
            break
    if toughness is not None and armor > toughness:
        raise out_of_range(None, "armor", 0, toughness, text)
    return DamageSpec(
        program, raise_bonus, tuple(mods), toughness, armor, ap, shaken, hardy, comment
    )


def damage(text: str, rng: Rng) -> DamageResult:
    """/dmg: damage dice (all ace, no Wild Die), +d6 on a raise, compared with Toughness."""
    spec = parse_damage(text)
    program = spec.program
    result = program.evaluate(rng)
    raise_die = aced_die(rng, 6) if spec.raise_bonus else None
    total = result.total + (raise_die.value if raise_die else 0)
    total += sum(m.value for m in spec.modifiers)
    effective = outcome = None
    if spec.toughness is not None:
        # AP reduces only the armor part of Toughness
        effective = spec.toughness - min(spec.ap, spec.armor)
        outcome = damage_outcome(
            total, effective, already_shaken=spec.already_shaken, hardy=spec.hardy
        )
    return DamageResult(
        program.expression,
        spec.comment,
        result,
        raise_die,
        spec.modifiers,
        total,
        spec.toughness,
        spec.armor,
        spec.ap,
        effective,
        spec.already_shaken,
        spec.hardy,
        outcome,
    )
