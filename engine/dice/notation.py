"""``/r``: the generic roller."""

from __future__ import annotations

from .evaluate import program_for
from .results import RollResult, make_roll
from .rng import Rng


def roll(text: str, rng: Rng) -> RollResult:
    """Roll a dice expression such as ``2к6+1 удар мечом``, ``6#4d6kh3``, ``7d10>=6f1``."""
    program = program_for(text)
    if program.repeat == 1:
        results = (program.build(program.draw(rng)),)
    else:
        results = tuple([program.build(program.draw(rng)) for _ in range(program.repeat)])
    return make_roll(program.expression, program.comment, results)
