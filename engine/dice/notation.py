"""``/r``: the generic roller."""

from __future__ import annotations

from .evaluate import program_for
from .results import ExpressionResult, RollResult
from .rng import Rng

_new = object.__new__


def roll(text: str, rng: Rng) -> RollResult:
    """Roll a dice expression such as ``2к6+1 удар мечом``, ``6#4d6kh3``, ``7d10>=6f1``."""
    program = program_for(text)
    build, draw = program.build, program.draw
    results: tuple[ExpressionResult, ...]
    if program.repeat == 1:
        results = (build(draw(rng)),)
    else:
        results = tuple([build(draw(rng)) for _ in range(program.repeat)])
    # RollResult(program.expression, program.comment, results), built the fast way (see
    # results.group_maker)
    result = _new(RollResult)
    fields = result.__dict__
    fields |= program.roll_fields
    fields["results"] = results
    return result
