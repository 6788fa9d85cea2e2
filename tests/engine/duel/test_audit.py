"""The four deviations an independent audit of seed 003 (003_cf068c12a73bf464.txt) found,
each against the sentence it breaks (issue 26, item 7).

Бьорн (a): Атака 2, Блок 1, Уклонение 0, d8, Броня 1; Такеда (b): Атака 1, Блок 0,
Уклонение 2, d6, Броня 0.
"""

from __future__ import annotations

import pytest

from engine.duel.actions import Attack, Block, Dodge, FullDefense
from engine.duel.check import plan
from engine.duel.errors import DuelError
from engine.duel.resolve import apply

from .helpers import BJORN, TAKEDA, duel, resolve, steps

OUTCOMES = ("hit", "pierced", "turned", "parried", "dodged", "stopped", "fumbled")


def _outcome(p: object, fighter: str) -> list[tuple[str, str]]:
    return [(s.code, s.rule) for s in p.steps if s.fighter == fighter and s.code in OUTCOMES]  # type: ignore[attr-defined]


def test_a_critical_block_on_the_right_side_parries() -> None:
    # «Удачный бросок защиты в сочетании с верным направлением защиты позволяет парировать
    # атаку.» «Парирование лишает атакующего одного действия на следующий ход, прерывает
    # серию.» A natural 10 on the left against an attack from the left: the best block there
    # is, so at least a parry (it was only «stopped», less than an ordinary block of 6).
    p = resolve(duel(), [Block("left")], [10], [Attack("left")], [9, 4])
    assert _outcome(p, "b") == [("parried", "block_critical_parry")]
    assert p.after_of("b").lost_actions == 1
    assert p.after_of("a").sp == 4 + 2  # «...и восстановить 2СП» still holds
    # the wrong side: the critical still stops it («избежать любых атак»), no parry
    p = resolve(duel(), [Block("right")], [10], [Attack("left")], [9, 4])
    assert _outcome(p, "b") == [("stopped", "block_critical")]
    assert p.after_of("b").lost_actions == 0
    # the same for full defense: the higher of its two rolls is a natural 10
    p = resolve(duel(), [FullDefense("left")], [3, 10], [Attack("left")], [9, 4])
    assert _outcome(p, "b") == [("parried", "block_critical_parry")]
    assert p.after_of("b").lost_actions == 1


def test_a_natural_one_on_an_attack_is_a_critical_failure() -> None:
    # «Чистая 10 на d10 - критический успех любого действия, 1 на d10 - критический провал.»
    # Бьорн has no defense at all: a 1 (+2 = 3) used to hit him for full damage.
    p = resolve(duel(), [], [], [Attack("left")], [1, 6])
    assert _outcome(p, "b") == [("fumbled", "attack_critical_failure")]
    assert p.after_of("a").hp == BJORN.stats.hp
    assert steps(p, "sp_spent", "b")  # the attack was made: its SP is spent
    # the reading kept as an option: a 1 is only a low total
    p = resolve(duel(attack_fumble="roll"), [], [], [Attack("left")], [1, 6])
    assert _outcome(p, "b") == [("hit", "undefended")]


def test_a_parry_breaks_the_series_at_the_parried_attack() -> None:
    # «Парирование прерывает серию.» Такеда attacks twice; the first is parried, the second
    # lands: the second starts a new series, so one attack of it goes on into the next turn.
    state = duel(TAKEDA, BJORN)  # Такеда is a now
    p = resolve(state, [Attack("left"), Attack("right")], [9, 3, 9, 3], [Block("left")], [9])
    assert _outcome(p, "a") == [("parried", "parry"), ("pierced", "block_wrong_side")]
    assert p.after_of("a").series.length == 1  # was 0: the whole turn's series was dropped
    assert p.after_of("a").lost_actions == 1
    # and the next turn goes on with it: attack, then attack is a series of 2
    after = apply(state, p)
    assert after.fighter("a").series.length == 1


def test_a_series_bonus_is_lost_by_the_attack_after_a_parry() -> None:
    # «Парирование прерывает серию.» With a series bonus of +1 the second attack was rolled
    # with it; the parry of the first breaks the series, so the bonus does not count.
    state = duel(TAKEDA, BJORN, series_bonus=1)
    p = resolve(state, [Attack("left"), Attack("left")], [9, 3, 7, 3], [Block("left")], [9])
    second = [s for s in p.steps if s.fighter == "a" and s.params.get("index") == 2]
    # 7 + Атака 1 + series 1 = 9 rolled; without the series 8 < 9+1 = 10: parried
    assert second[0].params["total"] == 8 and second[0].params["series_lost"] == 1


@pytest.mark.parametrize("action", [Attack("bottom"), Block("down"), Dodge("back")])  # type: ignore[arg-type]
def test_only_left_right_and_top(action: object) -> None:
    # «Атаковать можно слева, справа или сверху.» Attack("bottom") was accepted and hit as
    # if undefended.
    with pytest.raises(DuelError) as refused:
        plan(duel(), "a", [action])  # type: ignore[list-item]
    assert refused.value.code == "duel_bad_side"
