"""The scripted six-turn duel (seed 003), each rule cited from the seed where it applies.

Бьорн (raider: Атака 2, Блок 1, Уклонение 0, Урон d8, Хп 24, Броня 1) against Такеда
(kensei: Атака 1, Блок 0, Уклонение 2, Урон d6, Хп 16, Броня 0). Dice are scripted per
submission in the order they are rolled: per action its d10 (two for full defense), then one
damage die per blow of an attack.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.dice.rng import ScriptedRng
from engine.duel import KENSEI, RAIDER, Fighter, Stats
from engine.duel.actions import Action, Attack, Block, Dodge, FullDefense, Trick
from engine.duel.check import submit
from engine.duel.proposal import Proposal, Step
from engine.duel.resolve import apply, resolve_turn
from engine.duel.state import DuelState, new_duel

BJORN = Fighter("Бьорн", Stats(attack=2, block=1, dodge=0, damage_die=8, hp=24, armor=1), RAIDER)
TAKEDA = Fighter("Такеда", Stats(attack=1, block=0, dodge=2, damage_die=6, hp=16, armor=0), KENSEI)


def _turn(
    state: DuelState,
    a: Sequence[Action],
    a_faces: list[int],
    b: Sequence[Action],
    b_faces: list[int],
) -> Proposal:
    rng_a, rng_b = ScriptedRng(a_faces), ScriptedRng(b_faces)
    sub_a = submit(state, "a", a, rng_a)
    sub_b = submit(state, "b", b, rng_b)
    assert rng_a.remaining == rng_b.remaining == 0  # every scripted die was rolled
    return resolve_turn(state, sub_a, sub_b)


def _step(p: Proposal, code: str, fighter: str, index: int | None = None) -> Step:
    found = [
        s
        for s in p.steps
        if s.code == code and s.fighter == fighter and (index is None or s.params["index"] == index)
    ]
    assert len(found) == 1, (code, fighter, [(s.code, s.fighter) for s in p.steps])
    return found[0]


def _codes(p: Proposal, fighter: str) -> list[str]:
    return [s.code for s in p.steps if s.fighter == fighter]


def test_six_turns() -> None:
    state = new_duel(BJORN, TAKEDA)

    # --- turn 1: directions --------------------------------------------------------------
    p = _turn(
        state,
        [Attack("left"), Block("right")], [6, 3, 3],
        [Attack("right"), Dodge("right")], [7, 4, 2],
    )  # fmt: skip
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
    p = _turn(
        state,
        [Attack("top"), Attack("left")], [5, 6, 4, 2],
        [Trick(), Block("top")], [7, 8],
    )  # fmt: skip
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
    # series attack (turn 1), block, attack, attack was three long
    assert _step(p, "loses_action", "a").rule == "parry_effect"
    assert "series" not in _codes(p, "a")
    state = apply(state, p)
    a, b = state.fighters
    assert (a.sp, a.lost_actions, a.series.length) == (1, 1, 0)
    assert (b.hp, b.sp) == (14, 4)

    # --- turn 3: one action left; flanking --------------------------------------------------
    p = _turn(
        state,
        [Dodge("left")], [9],
        [Attack("right"), Block("left")], [5, 2, 4],
    )  # fmt: skip
    # «При удачном фланкировании (уклонение в сторону противоположную атаке, с превышением
    # броска атаки противника) ... бонус к атаке, в размере шага превышения»: 9 - (5+1) = 3
    assert _step(p, "dodged", "b").rule == "dodge"
    assert _step(p, "flanked", "a").params == {"bonus": 3}
    state = apply(state, p)
    a, b = state.fighters
    assert (a.sp, a.attack_bonus, a.lost_actions) == (2, 3, 0)
    assert b.sp == 4  # 4 - 1 + 1: the block was not broken (reading: no attack came)

    # --- turn 4: overspending, knockdown, bleeding; a critical trick survives ---------------
    p = _turn(
        state,
        [Attack("left", move="shield_bash"), Attack("right", move="cleave")], [5, 1, 3, 2],
        [Trick(), Dodge("left")], [10, 4],
    )  # fmt: skip
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
    trick = _step(p, "trick_succeeded", "b")
    assert (trick.rule, trick.params) == ("trick_critical", {"effect": "attack_bonus", "value": 2})
    # «Боец может их выполнить, даже если у него в данный момент недостаточно СП ... истощение
    # на столько ходов, сколько минусов получил к пулу СП»: 2 - (2 + 3) = -3
    assert _step(p, "overspent", "a").params == {"deficit": 3, "turns": 3}
    assert _step(p, "series", "a").params == {"length": 2}
    state = apply(state, p)
    a, b = state.fighters
    assert (a.sp, a.exhausted_turns, a.exhausted) == (-3, 3, True)
    assert (b.hp, b.standing_up, b.bleeding_turns, b.attack_bonus) == (3, True, 3, 2)

    # --- turn 5: a critical multi-hit attack ------------------------------------------------
    p = _turn(
        state,
        [Block("left")], [6],
        [Attack("left", move="flurry")], [10, 3, 4],
    )  # fmt: skip
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
    p = _turn(
        state,
        [Block("top")], [10],
        [Attack("top"), FullDefense("right", dodge=True)], [8, 5, 3, 6],
    )  # fmt: skip
    # «Критический успех при проверке защиты оружием позволяет избежать любых атак в этот
    # ход, кроме неблокируемых, и восстановить 2СП»
    assert _step(p, "stopped", "b").rule == "block_critical"
    assert _step(p, "sp_recovered", "a").params == {"sp": 2, "total": -1}
    # «Заняв оборонительную стойку, боец в начале след. хода восстанавливает 2 СП»
    assert _step(p, "sp_recovered", "b").rule == "sp_full_defense"
    # «Этот урон не отменяет трюки и восстановление СП»; «Снижаются до нуля или меньше -
    # боец погиб»
    assert _step(p, "died", "b").params == {"hp": -1}
    state = apply(state, p)
    assert state.over and state.fighter("b").dead and not state.fighter("a").dead
    assert state.turn == 7
