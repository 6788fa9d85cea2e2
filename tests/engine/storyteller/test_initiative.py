"""Initiative (seed «Инициатива», «Уступить ход», «Прервать действие»)."""

from __future__ import annotations

import dataclasses

import pytest

from engine.dice.rng import ScriptedRng
from engine.storyteller import events as ev
from engine.storyteller.commands import AddFighter, Attack, StartTurn
from engine.storyteller.decide import decide
from engine.storyteller.errors import StorytellerError
from engine.storyteller.evolve import replay
from engine.storyteller.fight import Fight
from engine.storyteller.initiative import (
    act,
    defensive_interrupt,
    delay,
    delayed_order,
    roll_initiative,
    yield_turn,
)
from engine.storyteller.options import DEFAULT_OPTIONS

from .helpers import character

A = character("А", d=3, w=2)  # 5
B = character("Б", d=2, w=2)  # 4
C = character("В", d=1, w=1)  # 2
FIGHTERS = [("a", A), ("b", B), ("c", C)]


def test_d10_plus_dex_plus_wits_minus_wounds_highest_first() -> None:
    # «бросают один кубик и добавляют результат к своей инициативе (Ловкость + Сообразительность)»
    # «Урон, полученный ранее, может повлиять на инициативу»
    hurt = dataclasses.replace(C, health=("lethal",) * 4)  # Wounded −2
    turn = roll_initiative([("a", A), ("b", B), ("c", hurt)], ScriptedRng([2, 9, 10]))
    assert [(r.fighter, r.total) for r in turn.rolls] == [("b", 13), ("c", 10), ("a", 7)]
    assert turn.rolls[1].penalty == 2
    assert turn.up() == ("b",)


def test_equal_totals_act_simultaneously() -> None:
    # «Если у двух игроков инициативы совпадают, они считаются действующими одновременно.»
    turn = roll_initiative(FIGHTERS, ScriptedRng([4, 5, 1]))
    assert turn.simultaneous() == (("a", "b"), ("c",))
    assert turn.up() == ("a", "b")
    turn = act(turn, "b")
    assert turn.up() == ("a",)
    with pytest.raises(StorytellerError) as err:
        act(turn, "c")
    assert err.value.code == "not_your_turn"


def test_delay_then_interrupt_a_later_fighter() -> None:
    # «он может вступить в игру в любой момент после своей очереди ... может даже прервать
    # действие персонажа, идущего после него»
    turn = roll_initiative(FIGHTERS, ScriptedRng([10, 5, 5]))  # a 15, b 9, c 7
    turn = delay(turn, "a")
    assert turn.up() == ("b",)
    turn = act(turn, "a")  # in the middle of b's turn
    assert turn.acted == ("a",) and turn.up() == ("b",)


def test_two_who_waited_higher_initiative_first() -> None:
    # «Если два игрока решают подождать и сделать ход одновременно, первым действует игрок с
    # более высокой инициативой.»
    turn = roll_initiative(FIGHTERS, ScriptedRng([10, 5, 5]))
    turn = delay(delay(turn, "a"), "b")
    assert delayed_order(turn, ["b", "a"]) == ("a", "b")
    with pytest.raises(StorytellerError):
        delayed_order(turn, ["c"])


def test_yield_acts_at_the_end_and_all_yield_means_nothing_happens() -> None:
    # «Вы можете выполнить свое задуманное действие позже, в конце хода. Если все, включая
    # Ведущего, уступили ход, то никаких действий не происходит»
    turn = roll_initiative(FIGHTERS, ScriptedRng([10, 5, 5]))
    turn = yield_turn(turn, "a")
    assert turn.up() == ("b",)
    moved = act(act(turn, "b"), "c")
    assert moved.up() == ("a",)
    everyone = yield_turn(yield_turn(turn, "b"), "c")
    assert everyone.all_yielded() and everyone.over()


def test_defensive_interrupt_by_roll_or_point() -> None:
    # «совершить успешный бросок на Силу воли ... с сложностью 6 и использованием запаса бросков
    # равного вашей Силе воли, либо потратить одну единицу Силы воли»
    strong = dataclasses.replace(C, willpower=3, willpower_points=1)
    turn = roll_initiative(FIGHTERS, ScriptedRng([10, 5, 5]))
    failed, out = defensive_interrupt(turn, "c", strong, ScriptedRng([2, 5, 3]), spend_point=False)
    # «Если ваш бросок неудачен ... должны продолжать свое предыдущее действие»
    assert not out.success and failed == turn and out.roll is not None
    assert out.roll.dice_count == 3 and out.roll.difficulty == 6
    done, out = defensive_interrupt(turn, "c", strong, ScriptedRng([]), spend_point=True)
    assert out.success and out.spent_point and done.gave_up == ("c",)
    # «Игрок может отказаться от своего задуманного действия»: no action left this turn
    assert "c" not in done.up() and done.done("c")
    with pytest.raises(StorytellerError) as err:
        defensive_interrupt(act(turn, "a"), "a", strong, ScriptedRng([]), spend_point=True)
    assert err.value.code == "cannot_interrupt"
    broke = dataclasses.replace(strong, willpower_points=0)
    with pytest.raises(StorytellerError) as err:
        defensive_interrupt(turn, "c", broke, ScriptedRng([]), spend_point=True)
    assert err.value.code == "no_willpower"


def test_a_delayed_fighter_keeps_the_turn_open() -> None:
    turn = roll_initiative(FIGHTERS, ScriptedRng([10, 5, 5]))
    turn = act(act(turn, "a"), "b")
    turn = delay(turn, "c")  # the last one waits: the turn is not over
    assert turn.up() == () and not turn.over()
    assert act(turn, "c").over()


def test_the_initiative_die_is_rolled_once_at_the_start_of_the_fight() -> None:
    # seed 002: «В начале боя все игроки бросают один кубик и добавляют результат к своей
    # инициативе (Ловкость + Сообразительность).» «Урон, полученный ранее, может повлиять на
    # инициативу.» — the die stays, the wound penalty is counted anew each turn
    a, b = character("А", d=3, w=3), character("Б", d=2, w=2)

    def run(state: Fight, command: object, faces: list[int]) -> Fight:
        rng = ScriptedRng(faces)
        out = decide(state, command, rng)  # type: ignore[arg-type]
        assert rng.remaining == 0
        return replay(out, state)

    state = run(Fight(), AddFighter("a", a), [])
    state = run(state, AddFighter("b", b), [])
    state = run(state, StartTurn(), [2, 9])  # А 6 + 2 = 8, Б 4 + 9 = 13
    # А is hurt before the next turn: Injured, −1 (the track's third level)
    hurt = dataclasses.replace(a, health=("bashing", "bashing", "bashing"))
    state = state.replace_fighter("a", character=hurt)
    state = run(state, AddFighter("c", character("В")), [])
    state = run(state, StartTurn(), [5])  # no die for А and Б; В joins and rolls: 4 + 5
    assert state.turn is not None
    assert {r.fighter: (r.die, r.total) for r in state.turn.rolls} == {
        "a": (2, 8 - 1),
        "b": (9, 13),
        "c": (5, 9),
    }
    # the game's option off: a new die every turn (the engine's earlier reading)
    every = dataclasses.replace(
        state, options=dataclasses.replace(DEFAULT_OPTIONS, initiative_once=False)
    )
    again = run(every, StartTurn(), [1, 1, 1])
    assert again.turn is not None and {r.die for r in again.turn.rolls} == {1}


def test_equal_initiative_acts_at_the_same_time() -> None:
    # seed 002: «Если у двух игроков инициативы совпадают, они считаются действующими
    # одновременно.» — taken out by someone of the same total, a fighter still makes its action
    a = character("А", s=5, d=3, w=3, extra="Способности: Рукопашный бой 3")
    b = character("Б", d=3, w=3, extra="Способности: Рукопашный бой 3")

    def fight(options: object) -> Fight:
        state = Fight(options=options)  # type: ignore[arg-type]
        for fid, c in (("a", a), ("b", b)):
            state = replay(decide(state, AddFighter(fid, c), ScriptedRng([])), state)
        return replay(decide(state, StartTurn(), ScriptedRng([4, 4])), state)  # 10 and 10

    # А's fist: 6 dice, six successes, five extra; Strength 5 + 5 = 10 bashing, Б soaks none
    blow = [9] * 6 + [9] * 10 + [2, 2]
    for simultaneous in (True, False):
        options = dataclasses.replace(DEFAULT_OPTIONS, simultaneous_ties=simultaneous)
        state = fight(options)
        out = decide(state, Attack("a", "b", "Кулак"), ScriptedRng(blow))
        state = replay(out, state)
        assert not state.can_fight("b")
        if simultaneous:
            hit = decide(state, Attack("b", "a", "Кулак"), ScriptedRng([2] * 6))
            assert any(isinstance(e, ev.AttackResolved) for e in hit)
        else:
            with pytest.raises(StorytellerError):
                decide(state, Attack("b", "a", "Кулак"), ScriptedRng([2] * 6))
