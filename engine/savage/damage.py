"""Damage, Soak, Incapacitation, Bleeding Out and Fatigue (seed 000 «Урон и состояния»,
«Недееспособность и Поглощение»; DESIGN.md for the official SWADE parts)."""

from __future__ import annotations

from engine.dice.notation import roll as roll_notation
from engine.dice.results import RollResult
from engine.savage.dice.results import DamageOutcome

from .builder import Builder
from .character import MAX_WOUNDS, Condition, Injury
from .errors import RuleError
from .events import (
    BennySpent,
    ConditionAdded,
    DamageApplied,
    DamagePending,
    DamageSoaked,
    FatigueChanged,
    Incapacitated,
    Rolled,
    ShakenSet,
    StunnedSet,
)
from .initiative import check_hold
from .modifiers import roll_modifiers
from .rolls import trait_check

MAX_FATIGUE = 3  # seed 000 line 79: «третий уровень выводит персонажа из строя»


def resolve(b: Builder, character_id: str, outcome: DamageOutcome) -> None:
    """Wounds of a Wild Card with bennies wait for Soak (seed 000 line 117: «до их
    применения»); everything else applies at once."""
    if outcome.kind == "none":
        return
    target = b.character(character_id)
    if outcome.wounds and target.wild and target.bennies > 0 and not target.status.dead:
        b.emit(DamagePending, character=character_id, wounds=outcome.wounds, shaken=True)
        return
    apply(b, character_id, outcome.wounds, outcome.shaken)


def apply(
    b: Builder, character_id: str, wounds: int, shaken: bool, *, clear_shaken: bool = False
) -> None:
    before = b.character(character_id)
    b.emit(
        DamageApplied,
        character=character_id,
        wounds=wounds,
        shaken=shaken,
        clear_shaken=clear_shaken,
    )
    if wounds and not before.status.dead:
        if not before.wild:
            # seed 000 line 75: an Extra is out at its first Wound
            b.emit(Incapacitated, character=character_id, outcome="out")
        elif before.status.wounds + wounds > MAX_WOUNDS or before.status.incapacitated:
            incapacitation(b, character_id)
    check_hold(b, character_id)


def incapacitation(b: Builder, character_id: str) -> None:
    """seed 000 lines 112-113: an immediate Vigor roll with the current wound penalties;
    DESIGN.md: critical failure death; failure a permanent injury and Bleeding Out;
    success an injury until the Wounds heal; raise an injury for 24 hours. An already
    Incapacitated Wild Card who takes more Wounds rolls again (our reading)."""
    character = b.character(character_id)
    mods = roll_modifiers(b.state, character_id, "free")
    result = trait_check(b.rng, character.die("vigor"), wild=character.wild, modifiers=mods)
    b.emit(Rolled, character=character_id, purpose="incapacitation", trait="vigor", result=result)
    if result.outcome == "critical_failure":
        b.emit(Incapacitated, character=character_id, outcome="dead")
        return
    outcome, duration = {
        "failure": ("bleeding_out", "permanent"),
        "success": ("injured", "until_healed"),
        "raise": ("injured_24h", "24h"),
    }[result.outcome]
    injury, rolls = roll_injury(b, duration)
    b.emit(
        Incapacitated,
        character=character_id,
        outcome=outcome,
        injury=injury,
        injury_rolls=rolls,
    )


_GUTS = {1: "guts_broken", 2: "guts_broken", 3: "guts_battered", 4: "guts_battered"}
_HEAD = {1: "head_scar", 2: "head_scar", 3: "head_blinded", 4: "head_blinded"}


def injury_kind(table_roll: int, sub_roll: int | None) -> str:
    """DESIGN.md Injury Table: 2 unmentionables, 3-4 arm, 5-9 guts (d6 1-2 broken, 3-4
    battered, 5-6 busted), 10 leg, 11-12 head (d6 1-2 scar, 3-4 blinded, 5-6 brain
    damage)."""
    if table_roll == 2:
        return "unmentionables"
    if table_roll <= 4:
        return "arm"
    if table_roll <= 9:
        return _GUTS.get(sub_roll or 0, "guts_busted")
    if table_roll == 10:
        return "leg"
    return _HEAD.get(sub_roll or 0, "head_brain_damage")


def roll_injury(b: Builder, duration: str) -> tuple[Injury, tuple[RollResult, ...]]:
    table = roll_notation("2d6", b.rng)
    total = table.results[0].total
    rolls: tuple[RollResult, ...] = (table,)
    sub: int | None = None
    if 5 <= total <= 9 or total >= 11:
        sub_roll = roll_notation("d6", b.rng)
        sub = sub_roll.results[0].total
        rolls += (sub_roll,)
    return Injury(injury_kind(total, sub), total, sub, duration), rolls


def soak(b: Builder, character_id: str) -> None:
    """seed 000 lines 117-120: a benny and a Vigor roll; success and each raise soak one
    Wound of this attack; all soaked also removes Shaken; never against Shaken alone.
    Another benny re-rolls; the best roll counts (official SWADE)."""
    pending = b.state.pending
    character = b.character(character_id)
    if not character.wild:
        raise RuleError("not_a_wild_card", {"id": character_id})  # line 117: «Дикий персонаж»
    if pending is None or pending.character != character_id:
        code = "cannot_soak_shaken_only" if character.status.shaken else "no_damage_pending"
        raise RuleError(code, {"target": character_id})
    last = b.state.last_roll(character_id)
    if (
        pending.attempts
        and last is not None
        and last.purpose == "soak"
        and last.result.outcome == "critical_failure"
    ):  # official SWADE: a critical failure is not re-rolled
        raise RuleError("reroll_critical_failure", {"id": character_id})
    if character.bennies <= 0:
        raise RuleError("no_bennies")
    b.emit(BennySpent, character=character_id, purpose="soak")
    mods = roll_modifiers(b.state, character_id, "free")
    result = trait_check(b.rng, character.die("vigor"), wild=character.wild, modifiers=mods)
    b.emit(Rolled, character=character_id, purpose="soak", trait="vigor", result=result)
    soaked = (1 + result.raises) if result.outcome in ("success", "raise") else 0
    best = max(pending.soaked, min(soaked, pending.wounds))
    b.emit(DamageSoaked, character=character_id, soaked=best)
    if best >= pending.wounds:
        apply(b, character_id, 0, False, clear_shaken=True)
    elif b.character(character_id).bennies <= 0:
        accept(b, character_id)


def accept(b: Builder, character_id: str) -> None:
    pending = b.state.pending
    if pending is None or pending.character != character_id:
        raise RuleError("no_damage_pending", {"target": character_id})
    apply(b, character_id, pending.wounds - pending.soaked, pending.shaken)


def change_fatigue(b: Builder, character_id: str, delta: int) -> None:
    """DESIGN.md: Fatigued −1, Exhausted −2, then Incapacitated (seed 000 line 79)."""
    character = b.character(character_id)
    level = max(0, min(MAX_FATIGUE, character.status.fatigue + delta))
    if level == character.status.fatigue:
        return
    b.emit(FatigueChanged, character=character_id, level=level)
    if level >= MAX_FATIGUE and not character.status.incapacitated:
        b.emit(Incapacitated, character=character_id, outcome="exhausted")
        check_hold(b, character_id)


def shake(b: Builder, character_id: str, reason: str) -> None:
    if not b.character(character_id).status.shaken:
        b.emit(ShakenSet, character=character_id, reason=reason)
    check_hold(b, character_id)


def stun(b: Builder, character_id: str) -> None:
    """seed 000 line 80 and official SWADE: Stunned, Distracted until the end of the next
    turn, prone, Vulnerable while Stunned (derived), loses Hold."""
    b.emit(StunnedSet, character=character_id)
    b.emit(
        ConditionAdded,
        character=character_id,
        condition=Condition(
            "distracted", "end", b.end_of_next_turn(character_id), source="stunned"
        ),
    )
    b.emit(ConditionAdded, character=character_id, condition=Condition("prone", source="stunned"))
    check_hold(b, character_id)
