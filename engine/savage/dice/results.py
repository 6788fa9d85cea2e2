"""The results of the trait roll (/t) and the damage roll (/dmg), kept face by face for the
roll log (``to_dict``; decoded by their ``kind``, see engine/dice/results.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.dice.results import DiceGroup, ExpressionResult, Modifier, Serializable, register_result


@register_result
@dataclass(frozen=True, slots=True)
class TraitResult(Serializable):
    kind: str = field(default="trait", init=False)
    expression: str  # normalised arguments, e.g. "d8+1 tn 6"
    comment: str
    trait_die: DiceGroup  # all faces of the acing trait die
    wild_die: DiceGroup | None  # None for Extras
    modifiers: tuple[Modifier, ...]
    tn: int
    total: int  # the higher die + modifiers
    used: str  # "trait" | "wild": which die gave the total (ties: trait)
    outcome: str  # "critical_failure" | "failure" | "success" | "raise"
    raises: int
    wild_card: bool
    unskilled: bool

    @property
    def modifier_total(self) -> int:
        return sum(m.value for m in self.modifiers)


@dataclass(frozen=True, slots=True)
class DamageOutcome(Serializable):
    """Damage compared with Toughness (seed 000, lines 60-63, 87-88)."""

    kind: str  # "none" | "shaken" | "wounds"
    wounds: int
    shaken: bool


@register_result
@dataclass(frozen=True, slots=True)
class DamageResult(Serializable):
    kind: str = field(default="damage", init=False)
    expression: str  # normalised damage dice, every die acing, e.g. "2d6!+1"
    comment: str
    roll: ExpressionResult
    raise_die: DiceGroup | None  # the +d6 of a raise, acing
    modifiers: tuple[Modifier, ...]  # e.g. joker +2
    total: int
    toughness: int | None  # as given (armor included)
    armor: int
    ap: int
    effective_toughness: int | None  # toughness - min(ap, armor)
    already_shaken: bool
    hardy: bool
    outcome: DamageOutcome | None  # None when no Toughness was given
