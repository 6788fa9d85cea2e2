"""The resolution's rules one by one, and the per-game readings (seed 003; the options are
in engine/duel/options.py and docs/rules/duel.md).

Бьорн (a): Атака 2, Блок 1, Уклонение 0, d8, Броня 1; Такеда (b): Атака 1, Блок 0,
Уклонение 2, d6, Броня 0; Мико (orochi): Атака 1, Блок 1, Уклонение 1, d6.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.duel.actions import Attack, Block, Dodge, FullDefense, Trick
from engine.duel.errors import DuelError
from engine.duel.resolve import apply

from .helpers import BJORN, MIKO, TAKEDA, duel, resolve, steps, with_fighter

NOTHING: list[object] = []


def _outcome(p: object, fighter: str) -> list[tuple[str, str]]:
    codes = ("hit", "pierced", "turned", "parried", "dodged", "stopped")
    return [(s.code, s.rule) for s in p.steps if s.fighter == fighter and s.code in codes]  # type: ignore[attr-defined]


def test_a_tie_on_a_block_goes_to_the_defense() -> None:
    # «В случае ничьей защита > атака»; «Защита считается успешной, если результат броска
    # больше или равен броску атаки оппонента»: 5+1 = 6 against 5+1 = 6
    p = resolve(duel(), [Block("left")], [5], [Attack("left")], [5, 3])
    assert _outcome(p, "b") == [("parried", "parry")]
    assert p.after_of("b").lost_actions == 1


def test_a_block_covers_every_attack_of_the_turn() -> None:
    # «Защита оружием распространяется на все атаки, полученые в этот ход»
    p = resolve(duel(), [Block("right")], [2], [Attack("right"), Attack("right")], [7, 1, 8, 1])
    assert _outcome(p, "b") == [("turned", "block_turned")] * 2
    assert p.after_of("a").hp == BJORN.stats.hp


def test_a_critical_attack_beats_the_block_unless_the_same_side_beats_the_roll() -> None:
    # «Критическая атака автоматически бьет защиту, даже если бросок защиты был больше ...
    # Аналогично с блокированием, только защита должна быть с той же стороны»
    state = with_fighter(duel(), "a", fighter=replace(BJORN, stats=replace(BJORN.stats, block=5)))
    p = resolve(state, [Block("right")], [9], [Attack("left")], [10, 2])  # 14 > 11, wrong side
    assert _outcome(p, "b") == [("hit", "critical_attack")]
    assert not steps(p, "sp_recovered", "a")  # the block is broken
    p = resolve(state, [Block("left")], [9], [Attack("left")], [10, 2])
    assert _outcome(p, "b") == [("parried", "critical_attack_block")]
    p = resolve(state, [Block("left")], [6], [Attack("left")], [10, 2])  # 11 = 11: no
    assert _outcome(p, "b") == [("hit", "critical_attack")]


def test_a_critically_failed_block_is_broken_whatever_the_side() -> None:
    # «Критический провал защиты - защита пробита, даже если выбрано верное направление»
    p = resolve(duel(), [Block("left")], [1], [Attack("left")], [2, 4])
    assert _outcome(p, "b") == [("hit", "block_critical_failure")]
    assert p.after_of("a").hp == BJORN.stats.hp - (4 + 3 - 1)
    assert not steps(p, "sp_recovered", "a")


def test_a_critical_block_stops_all_but_unblockable_attacks() -> None:
    # «Критический успех при проверке защиты оружием позволяет избежать любых атак в этот
    # ход, кроме неблокируемых, и восстановить 2СП»
    p = resolve(duel(), [Block("top")], [10], [Attack("left"), Attack("right")], [9, 6, 9, 6])
    assert _outcome(p, "b") == [("stopped", "block_critical")] * 2
    assert p.after_of("a").sp == 4 + 2
    orochi = duel(BJORN, MIKO)
    p = resolve(orochi, [Block("top")], [10], [Attack("left", move="serpent_strike")], [3, 2])
    assert _outcome(p, "b") == [("hit", "unblockable")]


def test_unblockable_only_a_parry_or_a_dodge() -> None:
    # «Неблокируемая атака - ... автоматически пробивает защиту оружием. Защититься можно
    # только парированием или уклонением.»
    state = duel(BJORN, MIKO)
    strike = [Attack("left", move="serpent_strike")]
    p = resolve(state, [Block("left")], [6], strike, [5, 2])  # 7 >= 6 on the left: a parry
    assert _outcome(p, "b") == [("parried", "unblockable_parry")]
    p = resolve(state, [Block("left")], [3], strike, [5, 2])  # the right side, failed: hits
    assert _outcome(p, "b") == [("hit", "unblockable")]
    p = resolve(state, [Dodge("right")], [2], strike, [5, 2])
    assert _outcome(p, "b") == [("dodged", "dodge_opposite")]
    # the reading switched off: nothing blocks it
    off = replace(state, options=replace(state.options, unblockable_parry=False))
    p = resolve(off, [Block("left")], [6], strike, [5, 2])
    assert _outcome(p, "b") == [("hit", "unblockable")]


def test_the_tie_on_a_dodge_is_a_reading() -> None:
    # «Если чек уклонения выше чека атаки противника» against «В случае ничьей защита >
    # атака»: 5+2 = 7 against 5+2 = 7, both on the left
    p = resolve(duel(), [Attack("left")], [5, 2], [Dodge("left")], [5])
    assert _outcome(p, "a") == [("dodged", "tie")]
    p = resolve(duel(dodge_tie="attack"), [Attack("left")], [5, 2], [Dodge("left")], [5])
    assert _outcome(p, "a") == [("hit", "dodge_failed")]


def test_a_dodge_to_the_opposite_side_but_not_on_a_critical_failure() -> None:
    # «помогает избежать удара даже при провале по броску (кроме критического провала)»
    p = resolve(duel(), [Attack("left")], [9, 2], [Dodge("right")], [1])
    assert _outcome(p, "a") == [("hit", "dodge_opposite")]


def test_a_critical_attack_is_dodged_only_to_the_opposite_side_with_a_higher_roll() -> None:
    # «Уклонение в противоположную от атаки сторону с результатом, превосходящим чек атаки,
    # позволяет уклониться даже от критической атаки» (a kensei with Уклонение 5)
    state = with_fighter(duel(), "b", fighter=replace(TAKEDA, stats=replace(TAKEDA.stats, dodge=5)))
    p = resolve(state, [Attack("left")], [10, 2], [Dodge("right")], [8])  # 13 > 12
    assert _outcome(p, "a") == [("dodged", "critical_attack_dodge")]
    # flanking by the margin 1, and the kensei's sample effect after a dodge, +1
    assert p.after_of("b").attack_bonus == 1 + 1
    p = resolve(state, [Attack("left")], [10, 2], [Dodge("left")], [9])  # higher, same side
    assert _outcome(p, "a") == [("hit", "critical_attack")]


def test_a_dodge_covers_one_attack_a_critical_dodge_every_one() -> None:
    # «Уклонение защищает только от одной атаки»
    p = resolve(duel(), [Attack("left"), Attack("right")], [3, 2, 3, 2], [Dodge("left")], [9])
    assert _outcome(p, "a") == [("dodged", "dodge"), ("hit", "dodge_one")]
    assert p.after_of("b").sp == 4 + 1
    # «Критический успех при проверке уклонения позволяет уклониться от всех атак и
    # восстановить 2СП»
    p = resolve(duel(), [Attack("left"), Attack("right")], [3, 2, 3, 2], [Dodge("left")], [10])
    assert _outcome(p, "a") == [("dodged", "dodge_critical")] * 2
    assert p.after_of("b").sp == 4 + 2


def test_full_defense_takes_the_higher_roll_and_gives_one_sp_when_broken() -> None:
    # «Делается два броска, из которых выбирается наибольший ... восстанавливает 2 СП. Если
    # защита была пробита, восстанавливает только 1СП»
    p = resolve(duel(), [FullDefense("left")], [2, 7], [Attack("left")], [6, 3])
    assert _outcome(p, "b") == [("parried", "parry")]  # 7+1 >= 6+1
    assert p.after_of("a").sp == 4 + 2
    p = resolve(duel(), [FullDefense("left")], [2, 7], [Attack("left")], [10, 3])
    assert _outcome(p, "b") == [("hit", "critical_attack")]
    assert p.after_of("a").sp == 4 + 1
    kensei = resolve(
        duel(),
        [Attack("left"), Attack("top")],
        [5, 1, 5, 1],
        [FullDefense("top", dodge=True)],
        [1, 6],
    )
    assert _outcome(kensei, "a") == [("dodged", "dodge"), ("dodged", "dodge")]
    one = duel(full_dodge_covers_all=False)
    p = resolve(
        one, [Attack("left"), Attack("top")], [5, 1, 5, 1], [FullDefense("top", dodge=True)], [1, 6]
    )
    assert _outcome(p, "a") == [("dodged", "dodge"), ("hit", "undefended")]


def test_damage_is_dx_plus_half_x_less_armor_per_blow_and_the_orochi_adds_ap() -> None:
    # «Урон - состоит из dX+1/2X»; «значение брони вычитается из каждого»
    p = resolve(duel(), NOTHING, [], [Attack("left", move="flurry")], [5, 6, 1])  # type: ignore[arg-type]
    assert steps(p, "hit", "b")[0].params["blows"] == [6 + 3 - 1, 1 + 3 - 1]
    # «За счет АП нельзя увеличивать урон (есть исключение - орочи)»
    p = resolve(duel(BJORN, MIKO), NOTHING, [], [Attack("left", damage_ap=2)], [5, 4])  # type: ignore[arg-type]
    assert steps(p, "hit", "b")[0].params["damage"] == 4 + 3 + 2 - 1


def test_the_wrong_side_damage_is_a_reading() -> None:
    # «атака пробивает блок, нанося 1/2 гарантированного урона»; d8: guaranteed 4
    p = resolve(duel(wrong_side_damage="guaranteed"), [Attack("left")], [5, 8], [Block("top")], [9])
    assert steps(p, "pierced", "a")[0].params["damage"] == 4
    p = resolve(duel(), [Attack("left")], [5, 8], [Block("top")], [9])
    assert steps(p, "pierced", "a")[0].params["damage"] == 2


def test_two_tricks_the_higher_wins_and_a_tie_is_a_reading() -> None:
    # «В случае если противник также заявляет трюк, успешным считается больший результат,
    # либо ничья»
    p = resolve(duel(), [Trick()], [8], [Trick()], [6])
    assert [s.fighter for s in steps(p, "effect")] == ["a"]
    assert [s.fighter for s in steps(p, "trick_lost")] == ["b"]
    p = resolve(duel(), [Trick()], [7], [Trick()], [7])
    assert [s.fighter for s in steps(p, "effect")] == ["a", "b"]
    p = resolve(duel(trick_tie="neither"), [Trick()], [7], [Trick()], [7])
    assert not steps(p, "effect") and steps(p, "tricks_tied_neither")
    # «с успехом на 6+»; «Потратив 2АП, можно снизить сложность выполнения трюка на 1»
    p = resolve(duel(), [Trick(ease=1)], [5], [Trick()], [5])
    assert [s.code for s in p.steps if s.code.startswith("trick") or s.code == "effect"] == [
        "trick_rolled",
        "trick_failed",
        "effect",
    ]


def test_two_tricks_are_an_opposed_roll_in_a_new_game() -> None:
    # «d10 против фиксированной сложности, с успехом на 6+. … В случае если противник также
    # заявляет трюк, успешным считается больший результат, либо ничья.» (`trick_contest`)
    opposed = duel(trick_contest="opposed")
    p = resolve(opposed, [Trick()], [4], [Trick()], [3])  # both below 6: the higher succeeds
    assert [s.fighter for s in steps(p, "effect")] == ["a"]
    assert steps(p, "trick_won", "a")[0].params == {"total": 4, "other": 3}
    assert [s.fighter for s in steps(p, "trick_lost")] == ["b"]
    p = resolve(opposed, [Trick()], [3], [Trick()], [3])  # «либо ничья»: `trick_tie`
    assert [s.fighter for s in steps(p, "effect")] == ["a", "b"]
    # «1 на d10 - критический провал»: a natural 1 fails the contest all the same
    p = resolve(opposed, [Trick()], [1], [Trick()], [2])
    assert [s.fighter for s in steps(p, "effect")] == ["b"] and steps(p, "trick_failed", "a")
    # the older reading ("checked"): each trick is first its own check against 6+
    p = resolve(duel(), [Trick()], [4], [Trick()], [3])
    assert not steps(p, "effect") and len(steps(p, "trick_failed")) == 2
    # a lone trick is a check against the difficulty in either reading
    p = resolve(opposed, [Trick()], [5], [Block("left")], [2])
    assert steps(p, "trick_failed", "a") and not steps(p, "effect")


def test_exhaustion_lasts_the_overspent_turns_in_a_new_game() -> None:
    # the raider example: «у него самого в начале хода всего 1СП. Он наносит две атаки … получает
    # -2 к пулу СП на начало следующего хода и состояние истощения на два раунда.»
    # (`exhaustion`); «Если в начале хода у бойца нет СП, он находится в состоянии истощения.»
    exhausted = {}
    for reading in ("counter", "sp"):
        state = with_fighter(duel(exhaustion=reading), "a", sp=1)
        two = [Attack("left"), Attack("right")]
        state = apply(state, resolve(state, two, [3, 1, 3, 1], [Dodge("left")], [2]))
        assert (state.fighter("a").sp, state.fighter("a").exhausted_turns) == (-2, 2)
        turns = []
        for _ in range(3):  # a block no attack meets wins 1 SP back each turn
            turns.append(state.fighter("a").exhausted)
            state = apply(state, resolve(state, [Block("left")], [5], NOTHING, []))  # type: ignore[arg-type]
        turns.append(state.fighter("a").exhausted)
        exhausted[reading] = turns
        assert state.fighter("a").sp == 1
    # two rounds, as the example says; the older reading adds the turn the pool is at 0
    assert exhausted["counter"] == [True, True, False, False]
    assert exhausted["sp"] == [True, True, True, False]


def test_trick_effects_hold_on_the_next_turn() -> None:
    # «Эффект удачного трюка зависит от класса бойца»: the raider knocks down
    p = resolve(duel(), [Trick()], [6], [Block("left")], [2])
    assert p.after_of("b").standing_up
    # the orochi's sample effect: bleeding
    p = resolve(duel(BJORN, MIKO), [Block("left")], [2], [Trick()], [6])
    assert p.after_of("a").bleeding_turns == 3


def test_bleeding_two_hp_for_three_turns_without_cancelling_a_trick() -> None:
    # «Жертва теряет по 2ХП в течение трех ходов. Этот урон не отменяет трюки»
    state = with_fighter(duel(), "b", bleeding_turns=3)
    hp = state.fighter("b").hp
    for left in (2, 1, 0):
        p = resolve(state, [Block("left")], [5], [Trick()], [7])
        assert steps(p, "bled", "b")[0].params == {"hp": 2, "left": left}
        assert steps(p, "effect", "b")
        state = apply(state, p)
        hp -= 2
        assert state.fighter("b").hp == hp
    p = resolve(state, [Block("left")], [5], [Trick()], [7])
    assert not steps(p, "bled")


def test_exhaustion_lasts_while_no_sp_is_left() -> None:
    # «Если в начале хода у бойца нет СП, он находится в состоянии истощения»
    state = with_fighter(duel(), "a", sp=1)
    state = apply(state, resolve(state, [Attack("left")], [3, 1], [Dodge("right")], [2]))
    assert state.fighter("a").sp == 0 and state.fighter("a").exhausted
    assert state.fighter("a").exhausted_turns == 0


def test_the_block_with_no_attack_and_the_sp_cap_are_readings() -> None:
    # «защита оружием восстанавливает бойцу 1СП, если защита не была пробита»
    p = resolve(duel(), [Block("left")], [5], NOTHING, [])  # type: ignore[arg-type]
    assert p.after_of("a").sp == 5
    p = resolve(duel(idle_block_recovers=False), [Block("left")], [5], NOTHING, [])  # type: ignore[arg-type]
    assert p.after_of("a").sp == 4
    p = resolve(duel(sp_cap=4), [Block("left")], [5], NOTHING, [])  # type: ignore[arg-type]
    assert p.after_of("a").sp == 4


def test_the_top_has_no_opposite_side_unless_the_game_says_so() -> None:
    p = resolve(duel(), [Attack("top")], [9, 1], [Dodge("left")], [2])
    assert _outcome(p, "a") == [("hit", "dodge_failed")]
    p = resolve(duel(top_opposite="sides"), [Attack("top")], [9, 1], [Dodge("left")], [2])
    assert _outcome(p, "a") == [("dodged", "dodge_opposite")]


def test_a_critical_defense_against_a_critical_attack_is_a_reading() -> None:
    p = resolve(duel(), [Attack("left")], [10, 1], [Dodge("left")], [10])
    assert _outcome(p, "a") == [("dodged", "dodge_critical")]
    assert p.after_of("b").sp == 4 + 2  # «уклониться от всех атак и восстановить 2СП»
    p = resolve(duel(critical_clash="attack"), [Attack("left")], [10, 1], [Dodge("left")], [10])
    assert _outcome(p, "a") == [("hit", "critical_attack")]
    assert p.after_of("b").sp == 4  # the critical dodge was beaten: nothing back


def test_apply_takes_the_gm_edited_proposal_once() -> None:
    state = duel()
    p = resolve(state, [Attack("left")], [9, 4], [Dodge("left")], [2])
    edited = replace(p, after=(replace(p.after[0], sp=9), p.after[1]))
    after = apply(state, edited)
    assert (after.turn, after.fighter("a").sp) == (2, 9)
    with pytest.raises(DuelError, match="stale_proposal"):
        apply(after, edited)


def test_some_classes_act_after_a_dodge() -> None:
    # «Кроме того, некоторым классам доступны особые действия после уклонения» (the kensei's
    # sample effect: +1 to the next turn's attack)
    p = resolve(duel(), [Attack("left")], [3, 2], [Dodge("left")], [9])
    effect = steps(p, "effect", "b")
    assert [(s.rule, s.params["source"]) for s in effect] == [("dodge_effect", "dodge")]
    assert p.after_of("b").attack_bonus == 1
    p = resolve(duel(), [Attack("left")], [9, 2], [Dodge("left")], [3])  # not dodged
    assert not steps(p, "effect", "b") and p.after_of("b").attack_bonus == 0
