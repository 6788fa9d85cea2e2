"""Series of attacks: «Атаки, проведенные подряд или через одно защитное действие, считаются
серией атак. Например, "Атака-атака-атака" и "Атака-защита-атака-защита" это серии атак.
"Атака-защита-атака-защита-трюк-защита-атака" - Серия атак прерывается на трюке.»"""

from __future__ import annotations

from engine.duel.series import NO_SERIES, Series


def _run(pattern: str) -> list[int]:
    s, lengths = NO_SERIES, []
    for step in pattern.split("-"):
        s = {"атака": s.attack, "защита": s.defense, "трюк": s.broken}[step]()
        lengths.append(s.length)
    return lengths


def test_the_seed_examples() -> None:
    assert _run("атака-атака-атака") == [1, 2, 3]
    assert _run("атака-защита-атака-защита") == [1, 1, 2, 2]
    assert _run("атака-защита-атака-защита-трюк-защита-атака") == [1, 1, 2, 2, 0, 0, 1]


def test_two_defense_actions_in_a_row_break_it() -> None:
    assert _run("атака-защита-защита-атака") == [1, 1, 0, 1]
    assert Series(3, 0).defense(2) == Series(0, 2)  # full defense takes both actions
