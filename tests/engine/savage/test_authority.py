"""Who may set what (engine/savage/authority.py; docs/rules/savage.md «Who may set what»):
a player declares the situation, the GM sets free numbers within ±10, the game's table
decides the light and The Drop."""

from __future__ import annotations

import pytest

from engine.savage import (
    Aim,
    Attack,
    Command,
    DealRound,
    DeclareActions,
    NextTurn,
    RuleError,
    Support,
    Table,
    Test,
    TraitRoll,
)
from engine.savage.authority import MAX_FREE_MODIFIER, WHO, allowed
from engine.savage.events import Rolled

from .helpers import Game, char, mods, of

HERO = (
    "Ловкость d8, Смекалка d6, Дух d6, Сила d8, Выносливость d6; "
    "Драка d8, Стрельба d8, Атлетика d6, Провокация d8; Защита 6, Стойкость 6"
)
PLAYER = 1  # a's owner
FACES = [1, 1]  # the trait die and the Wild Die: a critical failure, no damage roll


def duel() -> Game:
    """a (the player's) acts first; b and c are the GM's."""
    game = Game()
    game.add("a", char(f"A (Дикий) {HERO}; Бенни 0", "a", owner=PLAYER))
    game.add("b", char(f"B (Дикий) {HERO}; Бенни 0", "b"))
    game.add("c", char(f"C (Дикий) {HERO}; Бенни 0", "c"))
    game.run(DealRound(), game.shuffle("KS", "5C", "2D"))
    game.run(NextTurn())
    return game


def rolled(game: Game, cmd: Command, table: Table | None = None) -> dict[str, int]:
    (roll,) = of(game.run(cmd, FACES, table=table), Rolled)
    return mods(roll.result)


def test_a_players_forged_free_modifiers_are_refused_whatever_their_size() -> None:
    # the report: six +20 gave +120; one +1 is no more the player's than six +20
    game = duel()
    forged = (("modifier", 20),) * 6
    for cmd in (
        Attack("a", "b", modifiers=forged, by=PLAYER),
        Attack("a", "b", modifiers=(("modifier", 1),), by=PLAYER),
        TraitRoll("a", "notice", modifiers=forged, by=PLAYER),
        Support("a", "c", "taunt", modifiers=forged, by=PLAYER),
        Test("a", "b", "taunt", modifiers=forged, by=PLAYER),
    ):
        with pytest.raises(RuleError, match="gm_sets_modifier"):
            game.run(cmd)
    assert not of(game.log, Rolled)


def test_a_player_rolls_against_four_and_the_linked_attribute() -> None:
    game = duel()
    with pytest.raises(RuleError, match="gm_sets_tn"):
        game.run(TraitRoll("a", "notice", tn=2, by=PLAYER))
    with pytest.raises(RuleError, match="gm_sets_attribute"):
        game.run(Test("a", "b", "taunt", attribute="agility", by=PLAYER))
    (roll,) = of(game.run(TraitRoll("a", "notice", tn=4, by=PLAYER), FACES), Rolled)
    assert roll.result.tn == 4


def test_the_gms_free_modifiers_are_bounded_to_ten_in_all() -> None:
    game = duel()
    assert (
        rolled(game, Attack("a", "b", modifiers=(("засада", MAX_FREE_MODIFIER),)))["засада"] == 10
    )
    game = duel()
    both = (("modifier", 6), ("modifier", -2))  # +4 in all
    (roll,) = of(game.run(TraitRoll("a", "notice", modifiers=both), FACES), Rolled)
    assert [m.value for m in roll.result.modifiers if m.label == "modifier"] == [6, -2]
    for too_much in ((("modifier", 11),), (("modifier", 6),) * 2, (("modifier", -20),)):
        with pytest.raises(RuleError, match="modifier_out_of_range"):
            game.run(Attack("a", "b", modifiers=too_much))
    with pytest.raises(RuleError, match="bad_modifier"):
        game.run(Attack("a", "b", modifiers=(("", 2),)))


def test_the_gm_sets_a_target_number_from_one_to_99() -> None:
    game = duel()
    (roll,) = of(game.run(TraitRoll("a", "notice", tn=8), FACES), Rolled)
    assert roll.result.tn == 8
    for tn in (0, 100):
        with pytest.raises(RuleError, match="bad_tn"):
            game.run(TraitRoll("a", "notice", tn=tn))


@pytest.mark.parametrize(
    ("cmd", "label", "value"),
    [
        (Attack("a", "b", wild_attack=True, by=PLAYER), "wild_attack", 2),
        (Attack("a", "b", called_shot="head", by=PLAYER), "called_shot", -4),
        (Attack("a", "b", gang_up=2, by=PLAYER), "gang_up", 2),
        (Attack("a", "b", skill="shooting", range="long", by=PLAYER), "range", -4),
        (Attack("a", "b", skill="shooting", cover="medium", by=PLAYER), "cover", -4),
    ],
)
def test_each_declared_situation_is_the_players(cmd: Attack, label: str, value: int) -> None:
    assert WHO[label] == "player"
    assert rolled(duel(), cmd)[label] == value


def test_multi_action_aim_and_support_are_the_players() -> None:
    game = duel()
    game.run(DeclareActions("a", 2, by=PLAYER))
    assert rolled(game, TraitRoll("a", "notice", by=PLAYER))["multi_action"] == -2
    game = duel()
    game.run(Aim("a", by=PLAYER))
    for _ in range(3):  # b, c, then round 2: a again (the unshuffled pile's Joker)
        game.run(NextTurn())
    assert game.state.current == "a"
    assert rolled(game, Attack("a", "b", skill="shooting", by=PLAYER))["aim"] == 2
    game = duel()
    rolled(game, Support("a", "c", "taunt", for_trait="fighting", by=PLAYER))
    assert allowed("support_for", Table())


def test_the_light_and_the_drop_are_the_gms_unless_the_table_lets_players() -> None:
    for cmd, label in (
        (Attack("a", "b", light="dark", by=PLAYER), "illumination"),
        (Attack("a", "b", the_drop=True, by=PLAYER), "the_drop"),
    ):
        with pytest.raises(RuleError, match="gm_sets_scene"):
            duel().run(cmd)
        expected = {"illumination": -4, "the_drop": 4}[label]
        assert rolled(duel(), cmd, Table(players_set_scene=True))[label] == expected
        gm = (
            Attack("a", "b", light="dark")
            if label == "illumination"
            else Attack("a", "b", the_drop=True)
        )
        assert rolled(duel(), gm)[label] == expected


def test_every_declarable_part_has_its_owner() -> None:
    assert set(WHO.values()) == {"player", "gm", "table"}
    assert not allowed("modifier", Table(players_set_scene=True))
    assert not allowed("tn", Table(players_set_scene=True))
    assert allowed("illumination", Table(players_set_scene=True)) and not allowed(
        "the_drop", Table()
    )
