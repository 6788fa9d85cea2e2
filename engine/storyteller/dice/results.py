"""The result of a d10 pool (/p), kept face by face for the roll log (``to_dict``; decoded
by its ``kind``, see engine/dice/results.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.dice.results import Die, Serializable, register_result


@register_result
@dataclass(frozen=True, slots=True)
class PoolResult(Serializable):
    kind: str = field(default="pool", init=False)
    expression: str  # normalised, e.g. "7 diff 6 spec wp"
    comment: str
    requested_dice: int  # as typed; a damage pool is raised to 1 die
    dice_count: int
    difficulty: int
    mode: str  # "action" | "damage" | "soak"
    specialty: bool
    willpower: bool
    dice: tuple[Die, ...]  # the pool, success/cancels marked; exploded = a 10 that gave a bonus die
    bonus_dice: tuple[Die, ...]  # specialty dice (their 1s do not cancel)
    successes: int  # raw successes on all dice
    ones: int  # cancelling 1s (pool dice only)
    auto_successes: int  # Willpower
    net: int  # max(0, successes - ones) + auto_successes
    botch: bool
    outcome: str  # "botch" | "failure" | "success"
    capped: bool
