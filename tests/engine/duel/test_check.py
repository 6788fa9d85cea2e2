"""Submissions and their checks (seed 003 «Действия», «СП», «АП», «Истощение»)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.dice.rng import ScriptedRng
from engine.duel import FighterClass
from engine.duel.actions import Attack, Block, Dodge, FullDefense, Trick
from engine.duel.check import allowed, allowed_actions, check_submission, plan, submit
from engine.duel.errors import DuelError
from engine.duel.submission import Bonus, Submission
from engine.receipt import make_receipt, verify

from .helpers import MIKO, TAKEDA, duel, with_fighter


def _refused(code: str, state: object, fighter_id: str, actions: list[object]) -> DuelError:
    with pytest.raises(DuelError) as caught:
        plan(state, fighter_id, actions)  # type: ignore[arg-type]
    assert caught.value.code == code
    return caught.value


def test_dice_are_rolled_at_submission_and_kept_in_it() -> None:
    # «два броска d10 - на атаку/трюк и защиту, плюс бросок на урон атаки»
    state = duel()
    rng = ScriptedRng([7, 5, 4])
    sub = submit(state, "a", [Attack("left", ap=2), Block("right", ap=1)], rng, "за Одина!")
    assert rng.remaining == 0
    attack, block = sub.rolls
    assert (attack.check.die.value, attack.check.total) == (7, 7 + 2 + 2)
    assert attack.bonuses == (Bonus("stat", 2), Bonus("ap", 2))
    assert [d.results[0].total for d in attack.damage] == [5]  # one d8 blow
    assert (block.check.die.value, block.check.total) == (4, 4 + 1 + 1)
    assert sub.comment == "за Одина!"
    assert check_submission(state, "a", sub).cost == 1
    assert Submission.from_dict(sub.to_dict()) == sub


def test_the_receipt_commits_to_the_whole_submission() -> None:
    state = duel()
    sub = submit(state, "a", [Attack("top")], ScriptedRng([9, 3]))
    salt = "00" * 16
    assert sub.receipt(salt) == make_receipt(sub.committed(), salt)
    assert verify(sub.receipt(salt), sub.committed(), salt)
    other = submit(state, "a", [Attack("left")], ScriptedRng([9, 3]))
    assert not verify(sub.receipt(salt), other.committed(), salt)


def test_a_second_attack_costs_one_sp_more_and_a_trick_one() -> None:
    # «Защитное действие можно потратить на атаку, но она будет на 1СП дороже»
    state = duel()
    assert [p.sp for p in plan(state, "a", [Attack("left"), Attack("right")]).planned] == [1, 2]
    # «Расходует 1СП» (the trick); the attack after it takes the second action
    assert [p.sp for p in plan(state, "a", [Trick(), Attack("top")]).planned] == [1, 2]
    # «Некоторые атаки требуют затрат 2 или более СП»
    assert plan(state, "a", [Attack("left", move="cleave"), Dodge("left")]).cost == 2


def test_the_seed_raider_overspends_into_two_turns_of_exhaustion() -> None:
    # «у него самого в начале хода всего 1СП. Он наносит две атаки, базовую за 1Сп, и еще одну
    # базовую за 2 СП ... получает -2 к пулу СП ... и состояние истощения на два раунда»
    state = with_fighter(duel(), "a", sp=1)
    checked = plan(state, "a", [Attack("left"), Attack("right")])
    assert (checked.cost, checked.sp_after, checked.deficit) == (3, -2, 2)


def test_exhausted_one_defense_action_and_no_ap() -> None:
    # «У него есть только одно действие на защиту, и он не может использовать АП.»
    for changes in ({"sp": 0}, {"sp": 2, "exhausted_turns": 1}):
        state = with_fighter(duel(), "a", **changes)
        assert allowed_actions(state.fighter("a")) == 1
        assert plan(state, "a", [Block("left")]).cost == 0
        _refused("exhausted_defense_only", state, "a", [Attack("left")])
        _refused("exhausted_defense_only", state, "a", [FullDefense("left")])
        _refused("too_many_actions", state, "a", [Block("left"), Dodge("left")])
        _refused("exhausted_no_ap", state, "a", [Dodge("left", ap=1)])


def test_a_parried_fighter_and_one_standing_up_have_one_action() -> None:
    # «Парирование лишает атакующего одного действия на следующий ход»; «На следующий ход
    # противник тратит одно действие на то, чтобы подняться на ноги»
    for changes in ({"lost_actions": 1}, {"standing_up": True}):
        state = with_fighter(duel(), "a", **changes)
        assert plan(state, "a", [Attack("left")]).cost == 1
        _refused("too_many_actions", state, "a", [Attack("left"), Block("left")])
        _refused("too_many_actions", state, "a", [FullDefense("left")])
    both = with_fighter(duel(), "a", lost_actions=1, standing_up=True)
    _refused("too_many_actions", both, "a", [Block("left")])


def test_the_extra_action_after_a_critical_attack() -> None:
    # «при выпадении чистой d10 в броске атаки боец получает дополнительное действие»
    state = with_fighter(duel(), "a", extra_actions=1)
    checked = plan(state, "a", [Attack("left"), Attack("right"), Block("top")])
    assert [p.sp for p in checked.planned] == [1, 1, 0]  # the extra attack at its own cost
    assert plan(state, "a", [Attack("left"), Block("top"), Dodge("left")]).cost == 1
    _refused("too_many_actions", state, "a", [Attack("left")] * 4)


def test_ap_spread() -> None:
    # «К одному и тому же действию в течение одного хода нельзя добавлять более 3-х АП»
    state = duel()
    _refused("ap_per_action", state, "a", [Attack("left", ap=4)])
    _refused("ap_total", state, "a", [Attack("left", ap=2), Block("left", ap=2)])
    _refused("ap_negative", state, "a", [Attack("left", ap=-1)])
    # «Потратив 2АП, можно снизить сложность выполнения трюка на 1»
    trick = plan(state, "a", [Trick(ap=1, ease=1)]).planned[0]
    assert (trick.target, trick.bonuses) == (5, (Bonus("ap", 1),))
    _refused("ap_per_action", state, "a", [Trick(ap=2, ease=1)])
    # «За счет АП нельзя увеличивать урон (есть исключение - орочи)»
    _refused("no_ap_to_damage", state, "a", [Attack("left", damage_ap=1)])
    orochi = duel(MIKO, TAKEDA)
    assert plan(orochi, "a", [Attack("left", ap=1, damage_ap=2)]).cost == 1
    _refused("ap_total", orochi, "a", [Attack("left", ap=2, damage_ap=1), Block("left", ap=1)])


def test_full_defense_takes_both_actions_and_the_kensei_may_dodge() -> None:
    # «потратив оба действия на защиту оружием (исключение - кенсей ... уклонением)»
    state = duel()
    assert plan(state, "a", [FullDefense("left", ap=3)]).cost == 0
    _refused("too_many_actions", state, "a", [Attack("left"), FullDefense("left")])
    _refused("no_full_dodge", state, "a", [FullDefense("left", dodge=True)])
    assert plan(state, "b", [FullDefense("top", dodge=True)]).planned[0].bonuses == (
        Bonus("stat", 2),
    )


def test_one_trick_first_and_one_defense() -> None:
    state = duel()
    _refused("trick_first", state, "a", [Attack("left"), Trick()])
    _refused("too_many_defenses", state, "a", [Block("left"), Dodge("left")])
    _refused("unknown_move", state, "a", [Attack("left", move="flurry")])


def test_the_carried_bonus_goes_to_the_first_attack_only() -> None:
    # «одноразовый бонус к атаке, в размере шага превышения»
    state = with_fighter(duel(), "a", attack_bonus=3)
    first, second = plan(state, "a", [Attack("left"), Attack("top")]).planned
    assert Bonus("bonus", 3) in first.bonuses and Bonus("bonus", 3) not in second.bonuses


def test_a_series_bonus_when_the_game_grants_one() -> None:
    # «Атаки, проведенные подряд или через одно защитное действие, считаются серией атак»
    state = duel(series_bonus=1)
    first, second = plan(state, "a", [Attack("left"), Attack("top")]).planned
    assert Bonus("series", 1) not in first.bonuses and Bonus("series", 1) in second.bonuses


def test_tampered_dice_and_stale_turns_are_refused() -> None:
    state = duel()
    sub = submit(state, "a", [Attack("left")], ScriptedRng([6, 2]))
    data = sub.to_dict()
    data["rolls"][0]["checks"][0]["die"]["value"] = 10
    with pytest.raises(DuelError, match="bad_dice"):
        check_submission(state, "a", Submission.from_dict(data))
    data = sub.to_dict()
    data["rolls"][0]["damage"] = []
    with pytest.raises(DuelError, match="bad_dice"):
        check_submission(state, "a", Submission.from_dict(data))
    data = sub.to_dict() | {"turn": 2}
    with pytest.raises(DuelError, match="wrong_turn"):
        check_submission(state, "a", Submission.from_dict(data))


def test_the_player_counts_situational_bonuses() -> None:
    # «Да, желательно самим считать всякие ситуативные бонусы +1 к атаке и т.д.»
    state = duel()
    sub = submit(state, "a", [Attack("left", situational=1)], ScriptedRng([5, 2]))
    assert sub.rolls[0].bonuses == (Bonus("stat", 2), Bonus("situational", 1))
    assert sub.rolls[0].check.total == 5 + 2 + 1
    assert check_submission(state, "a", sub).cost == 1
    # not AP: an exhausted fighter may count one too
    tired = with_fighter(state, "a", sp=0)
    assert plan(tired, "a", [Block("left", situational=-1)]).planned[0].bonuses == (
        Bonus("stat", 1),
        Bonus("situational", -1),
    )
    assert plan(state, "a", [Trick(situational=2)]).planned[0].bonuses == (Bonus("situational", 2),)
    _refused("bad_situational", state, "a", [Dodge("left", situational=6)])


def test_what_is_still_allowed() -> None:
    # the submission form's choices follow the same rules as the check
    fresh = allowed(duel().fighter("b"))
    assert (fresh["actions"], fresh["ap"], fresh["full_dodge"], fresh["defenses"]) == (
        2,
        3,
        True,
        1,
    )
    assert {"code": "flurry", "sp": 2, "second_sp": 3} in fresh["moves"]  # type: ignore[operator]
    tired = allowed(with_fighter(duel(), "a", sp=0).fighter("a"))
    assert (tired["actions"], tired["attack"], tired["ap"], tired["moves"]) == (1, False, 0, [])
    parried = allowed(with_fighter(duel(), "a", lost_actions=1).fighter("a"))
    assert (parried["actions"], parried["full_defense"]) == (1, False)


def test_a_class_with_extra_attacks() -> None:
    # «Некоторые персонажи в определенных условиях способны произвести больше атак»
    berserk = FighterClass("berserk", "Берсерк", extra_attacks=1)
    state = duel(replace(MIKO, fighter_class=berserk), TAKEDA)
    three = [Attack("left"), Attack("right"), Attack("top")]
    assert [p.sp for p in plan(state, "a", three).planned] == [1, 1, 2]
    # the extra is an attack: not a second defense, nor a third action besides full defense
    _refused("too_many_defenses", state, "a", [Attack("left"), Block("left"), Dodge("top")])
    _refused("too_many_actions", state, "a", [Trick(), FullDefense("left")])
    # both actions on full defense, and the class's extra attack beyond them
    assert plan(state, "a", [Attack("left"), FullDefense("left")]).cost == 1
    _refused("too_many_actions", state, "a", [*three, Attack("left")])
