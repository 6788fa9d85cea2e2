"""The scripted six-turn duel (seed 003), each rule cited from the seed where it applies
(the fighters and the dice: tests/engine/duel/six_turns.py)."""

from __future__ import annotations

import pytest

from engine.duel.actions import Action, Attack, Block, Dodge
from engine.duel.check import plan
from engine.duel.errors import DuelError
from engine.duel.proposal import Proposal, Step
from engine.duel.resolve import apply
from engine.duel.state import DuelState, new_duel

from .six_turns import BJORN, TAKEDA, TURNS, turn


def _step(p: Proposal, code: str, fighter: str, index: int | None = None) -> Step:
    found = [
        s
        for s in p.steps
        if s.code == code and s.fighter == fighter and (index is None or s.params["index"] == index)
    ]
    assert len(found) == 1, (code, fighter, [(s.code, s.fighter) for s in p.steps])
    return found[0]


def _refused(code: str, state: DuelState, fighter: str, actions: list[Action]) -> None:
    with pytest.raises(DuelError) as caught:
        plan(state, fighter, actions)
    assert caught.value.code == code


def _codes(p: Proposal, fighter: str) -> list[str]:
    return [s.code for s in p.steps if s.fighter == fighter]


def test_six_turns() -> None:
    state = new_duel(BJORN, TAKEDA)

    # --- turn 1: directions --------------------------------------------------------------
    p = turn(state, *TURNS[0])
    # «Уклонение в сторону, противоположную атаке противника, помогает избежать удара даже при
    # провале по броску»: 2+2 = 4 against 6+2 = 8, to the right against a blow from the left
    hit = _step(p, "dodged", "a")
    assert (hit.rule, hit.params["total"]) == ("dodge_opposite", 8)
    # «Неудачный бросок защиты отражает удар, если было выбрано верное направление»: 3+1 < 7+1
    assert _step(p, "turned", "b").rule == "block_turned"
    # «защита оружием восстанавливает бойцу 1СП, если защита не была пробита»; «Успешное
    # уклонение от одной атаки восстанавливает бойцу 1СП»
    assert _step(p, "sp_recovered", "a").rule == "sp_block"
    assert _step(p, "sp_recovered", "b").rule == "sp_dodge"
    state = apply(state, p)
    a, b = state.fighters
    assert (a.hp, a.sp, b.hp, b.sp) == (24, 4 - 1 + 1, 16, 4 - 1 + 1)

    # --- turn 2: a series parried, a wrong-side block, a trick cancelled -------------------
    p = turn(state, *TURNS[1])
    # «Защитное действие можно потратить на атаку, но она будет на 1СП дороже»: 1 + 2
    assert _step(p, "sp_spent", "a").params == {"cost": 3, "sp": 1}
    # «Удачный бросок защиты в сочетании с верным направлением защиты позволяет парировать»:
    # 8 >= 5+2 on the top («В случае ничьей защита > атака» would do too)
    assert _step(p, "parried", "a", 1).rule == "parry"
    # «Если выбрано ошибочное направление защиты, атака пробивает блок, нанося 1/2
    # гарантированного урона»: d8 -> guaranteed 4, half of it 2 (reading «half»)
    pierced = _step(p, "pierced", "a", 2)
    assert (pierced.rule, pierced.params["damage"]) == ("block_wrong_side", 2)
    # «Получение урона в этот же ход отменяет действие трюка»
    assert _step(p, "trick_cancelled", "b").params == {"damage": 2}
    # «При этом защита не считается пробитой»: the pierced block still gives 1 SP back
    assert _step(p, "sp_recovered", "b").params == {"sp": 1, "total": 4}
    # «Парирование лишает атакующего одного действия на следующий ход, прерывает серию»: the
    # series attack (turn 1), block, attack, attack breaks at the parried first attack of the
    # turn; the second starts a new one («Парирование прерывает серию»)
    assert _step(p, "loses_action", "a").rule == "parry_effect"
    assert "series" not in _codes(p, "a")
    state = apply(state, p)
    a, b = state.fighters
    assert (a.sp, a.lost_actions, a.series.length) == (1, 1, 1)
    assert (b.hp, b.sp) == (14, 4)

    # --- turn 3: one action left; flanking --------------------------------------------------
    _refused("too_many_actions", state, "a", [Dodge("left"), Block("left")])
    p = turn(state, *TURNS[2])
    # «При удачном фланкировании (уклонение в сторону противоположную атаке, с превышением
    # броска атаки противника) ... бонус к атаке, в размере шага превышения»: 9 - (5+1) = 3
    assert _step(p, "dodged", "b").rule == "dodge"
    assert _step(p, "flanked", "a").params == {"bonus": 3}
    state = apply(state, p)
    a, b = state.fighters
    assert (a.sp, a.attack_bonus, a.lost_actions) == (2, 3, 0)
    assert b.sp == 4  # 4 - 1 + 1: the block was not broken (reading: no attack came)

    # --- turn 4: overspending, knockdown, bleeding; a critical trick survives ---------------
    p = turn(state, *TURNS[3])
    # the flanking bonus rides on the first attack: 5 + 2 + 3 = 10 against 4 + 2 = 6
    bash = _step(p, "hit", "a", 1)
    assert (bash.rule, bash.params["total"], bash.params["damage"]) == ("dodge_failed", 10, 5)
    # «Любые атаки по персонажу в тот же ход, когда он был сбит с ног, автоматически
    # считаются успешными»: 3 + 2 = 5 hits; «Урон - состоит из dX+1/2X»: 2 + 4
    assert _step(p, "knocked_down", "b").rule == "knockdown"
    cleave = _step(p, "hit", "a", 2)
    assert (cleave.rule, cleave.params["damage"]) == ("knocked_down_hit", 6)
    assert _step(p, "bleeding_started", "b").rule == "bleeding"
    # «Критический успех при проверке трюка - трюк будет считаться успешным даже при
    # получении урона в этот ход»
    trick = _step(p, "effect", "b")
    assert (trick.rule, trick.params) == (
        "trick_critical",
        {"effect": "attack_bonus", "value": 2, "source": "trick"},
    )
    # «Боец может их выполнить, даже если у него в данный момент недостаточно СП ... истощение
    # на столько ходов, сколько минусов получил к пулу СП»: 2 - (2 + 3) = -3
    assert _step(p, "overspent", "a").params == {"deficit": 3, "turns": 3}
    # the series begun after turn 2's parry (attack), turn 3's one defense, two attacks: 3
    assert _step(p, "series", "a").params == {"length": 3}
    state = apply(state, p)
    a, b = state.fighters
    assert (a.sp, a.exhausted_turns, a.exhausted) == (-3, 3, True)
    assert (b.hp, b.standing_up, b.bleeding_turns, b.attack_bonus) == (3, True, 3, 2)

    # --- turn 5: a critical multi-hit attack ------------------------------------------------
    # «У него есть только одно действие на защиту»; the knocked-down kensei has one action
    _refused("exhausted_defense_only", state, "a", [Attack("left")])
    _refused("too_many_actions", state, "b", [Attack("left"), Dodge("left")])
    p = turn(state, *TURNS[4])
    # «Жертва теряет по 2ХП в течение трех ходов»
    assert _step(p, "bled", "b").params == {"hp": 2, "left": 2}
    # «На следующий ход противник тратит одно действие на то, чтобы подняться на ноги»
    assert _step(p, "stood_up", "b").rule == "knockdown"
    # «Критическая атака автоматически бьет защиту, даже если бросок защиты был больше»;
    # «Если боец за одну атаку наносит несколько ударов, значение брони вычитается из
    # каждого»: (3+3-1) + (4+3-1)
    flurry = _step(p, "hit", "b", 1)
    assert (flurry.rule, flurry.params["blows"], flurry.params["damage"]) == (
        "critical_attack",
        [5, 6],
        11,
    )
    assert flurry.params["total"] == 10 + 1 + 2  # the trick's bonus rode on it
    assert _step(p, "extra_action", "b").rule == "critical_extra"
    assert "sp_recovered" not in _codes(p, "a")  # the block was broken
    state = apply(state, p)
    a, b = state.fighters
    assert (a.hp, a.sp, a.exhausted_turns) == (13, -3, 2)
    assert (b.hp, b.sp, b.extra_actions, b.standing_up) == (1, 1, 1, False)

    # --- turn 6: a critical block, full defense, death by bleeding --------------------------
    p = turn(state, *TURNS[5])
    # «Критический успех при проверке защиты оружием позволяет избежать любых атак в этот
    # ход, кроме неблокируемых, и восстановить 2СП»; on the attack's side (top) it is a
    # parry: «Удачный бросок защиты в сочетании с верным направлением ... парировать атаку»
    assert _step(p, "parried", "b").rule == "block_critical_parry"
    assert _step(p, "sp_recovered", "a").params == {"sp": 2, "total": -1}
    # «Заняв оборонительную стойку, боец в начале след. хода восстанавливает 2 СП»
    assert _step(p, "sp_recovered", "b").rule == "sp_full_defense"
    # «Этот урон не отменяет трюки и восстановление СП»; «Снижаются до нуля или меньше -
    # боец погиб»
    assert _step(p, "died", "b").params == {"hp": -1}
    state = apply(state, p)
    assert state.over and state.fighter("b").dead and not state.fighter("a").dead
    assert state.turn == 7
