"""The adapter to ``engine.savage.dice``: trait rolls with labelled modifiers and damage rolls.

engine.savage.dice exposes text commands (``trait``, ``damage``) and the structured pieces
``aced_die``, ``trait_outcome``, ``damage_outcome`` and ``parse_damage``; the combat engine
needs labelled modifiers (Joker, Wounds, multi-action, cover ...) that the text commands
cannot carry, so this module assembles the same result classes from those pieces. No dice
logic lives here beyond "take the higher of trait and Wild Die" and the critical failure
test, both exactly as in ``engine.savage.dice.trait``.
"""

from __future__ import annotations

from engine.dice.results import Modifier
from engine.dice.rng import Rng
from engine.savage.dice.results import DamageOutcome, DamageResult, TraitResult
from engine.savage.dice.rolls import (
    WILD_DIE,
    aced_die,
    damage_outcome,
    parse_damage,
    trait_outcome,
)

from .traits import Die

DEFAULT_TN = 4


def _expression(sides: int, modifiers: tuple[Modifier, ...], tn: int, wild: bool) -> str:
    parts = [f"d{sides}"]
    for m in modifiers:
        if m.label == "trait_bonus":
            parts[0] += f"{m.value:+d}"
        else:
            parts.append(f"{m.label} {m.value:+d}")
    if tn != DEFAULT_TN:
        parts.append(f"tn {tn}")
    if not wild:
        parts.append("extra")
    return " ".join(parts)


def trait_check(
    rng: Rng,
    die: Die | None,
    *,
    wild: bool,
    modifiers: tuple[Modifier, ...] = (),
    tn: int = DEFAULT_TN,
    comment: str = "",
) -> TraitResult:
    """Roll a trait die (``None`` = unskilled: d4−2) with the Wild Die for Wild Cards.

    Draw order (as engine.savage.dice): the trait-die chain, then the Wild-Die chain.
    """
    unskilled = die is None
    sides = 4 if die is None else die.sides
    mods: tuple[Modifier, ...] = ()
    if die is None:
        mods = (Modifier("unskilled", -2),)
    elif die.bonus:
        mods = (Modifier("trait_bonus", die.bonus),)
    mods += tuple(m for m in modifiers if m.value)
    trait_die = aced_die(rng, sides)
    wild_die = aced_die(rng, WILD_DIE, wild=True) if wild else None
    used, best = "trait", trait_die.value
    if wild_die is not None and wild_die.value > best:
        used, best = "wild", wild_die.value
    critical = wild_die is not None and trait_die.dice[0].value == 1 and wild_die.dice[0].value == 1
    total = best + sum(m.value for m in mods)
    outcome, raises = trait_outcome(total, tn, critical)
    return TraitResult(
        _expression(sides, mods, tn, wild),
        comment,
        trait_die,
        wild_die,
        mods,
        tn,
        total,
        used,
        outcome,
        raises,
        wild,
        unskilled,
    )


def succeeded(result: TraitResult) -> bool:
    return result.outcome in ("success", "raise")


def damage_check(
    rng: Rng,
    dice: str,
    *,
    modifiers: tuple[Modifier, ...] = (),
    raise_die: bool = False,
    toughness: int,
    armor: int = 0,
    ap: int = 0,
    already_shaken: bool = False,
    hardy: bool = False,
    comment: str = "",
) -> DamageResult:
    """Roll damage dice (every die aces, no Wild Die), +d6 on a raise, labelled modifiers,
    compared with Toughness whose armor part AP reduces (engine.savage.dice rules)."""
    spec = parse_damage(dice)
    roll = spec.program.evaluate(rng)
    extra = aced_die(rng, 6) if raise_die else None
    mods = tuple(m for m in modifiers if m.value)
    total = roll.total + (extra.value if extra else 0) + sum(m.value for m in mods)
    effective = toughness - min(ap, armor)
    outcome = damage_outcome(total, effective, already_shaken=already_shaken, hardy=hardy)
    return DamageResult(
        spec.program.expression,
        comment,
        roll,
        extra,
        mods,
        total,
        toughness,
        armor,
        ap,
        effective,
        already_shaken,
        hardy,
        outcome,
    )


def fixed_damage_outcome(
    total: int,
    *,
    toughness: int,
    armor: int = 0,
    ap: int = 0,
    already_shaken: bool = False,
    hardy: bool = False,
) -> DamageOutcome:
    """A damage total given by the GM (no dice) compared with Toughness."""
    return damage_outcome(
        total, toughness - min(ap, armor), already_shaken=already_shaken, hardy=hardy
    )
