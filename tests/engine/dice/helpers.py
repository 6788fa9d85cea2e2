"""Test helpers for the dice engine."""

from __future__ import annotations

from engine.dice import DiceGroup, ExpressionResult, Literal


def faces(group: DiceGroup) -> list[int]:
    return [d.value for d in group.dice]


def recompute_total(result: ExpressionResult) -> int:
    """Recompute the total from the faces only, independently of the engine's evaluator."""
    parts: list[str] = []
    for tok in result.tokens:
        if isinstance(tok, Literal):
            parts.append("//" if tok.text == "/" else tok.text)
        else:
            parts.append(f"({group_value(tok)})")
    return eval("".join(parts), {"__builtins__": {}})  # digits, + - * // ( ) only


def group_value(group: DiceGroup) -> int:
    counted = [d for d in group.dice if not d.dropped and not d.rerolled]
    if group.counts_successes:
        return max(0, sum(1 for d in counted if d.success) - sum(1 for d in counted if d.cancels))
    return sum(d.value for d in counted)


def same(fast: object, slow: object) -> None:
    """Equal, and identical down to the instance ``__dict__`` (fields and their order)."""
    assert type(fast) is type(slow)
    assert fast == slow and hash(fast) == hash(slow)
    assert list(vars(fast).items()) == list(vars(slow).items())
    assert repr(fast) == repr(slow)
