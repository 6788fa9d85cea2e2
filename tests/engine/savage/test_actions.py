"""Actions (seed 000 lines 23-53, 90-93, 101-104; DESIGN.md defaults)."""

from __future__ import annotations

import pytest

from engine.savage import (
    Aim,
    Attack,
    DealRound,
    DeclareActions,
    Defend,
    EscapeBonds,
    NextTurn,
    RuleError,
    SetCondition,
    Support,
    Test,
    TraitRoll,
)
from engine.savage.events import ConditionAdded, DamageRolled, Rolled, ShakenSet

from .helpers import Game, char, mods, of

HERO = (
    "Ловкость d8, Смекалка d6, Дух d6, Сила d8, Выносливость d6; "
    "Драка d8, Стрельба d8, Атлетика d6, Провокация d8, Лечение d6; Защита 6, Стойкость 6"
)


def duel() -> Game:
    """a acts first (K♠), b second (5♣); both Wild Cards without bennies."""
    game = Game()
    game.add("a", char(f"A (Дикий) {HERO}; Бенни 0", "a", owner=1))
    game.add("b", char(f"B (Дикий) {HERO}; Бенни 0", "b", owner=2))
    game.add("c", char(f"C (Дикий) {HERO}; Бенни 0", "c", owner=3))
    game.run(DealRound(), game.shuffle("KS", "5C", "2D"))
    game.run(NextTurn())
    assert game.state.current == "a"
    return game


def test_multi_action_penalty_on_every_action_roll() -> None:
    # lines 27-29: declared before the first roll; two actions −2, three −4
    game = duel()
    game.run(DeclareActions("a", 2, by=1))
    first = of(game.run(Attack("a", "b", damage="d4"), [2, 1]), Rolled)[0]
    second = of(game.run(TraitRoll("a", "notice"), [2, 1]), Rolled)[0]
    assert mods(first.result)["multi_action"] == -2 and mods(second.result)["multi_action"] == -2
    with pytest.raises(RuleError, match="too_many_actions"):
        game.run(TraitRoll("a", "notice"))
    # a free roll (line 30) does not count and takes no multi-action penalty
    free = of(game.run(TraitRoll("a", "spirit", free=True), [3, 3]), Rolled)[0]
    assert "multi_action" not in mods(free.result) and not free.action


def test_declare_before_the_first_roll_and_at_most_three() -> None:
    game = duel()
    with pytest.raises(RuleError, match="too_many_actions"):
        game.run(DeclareActions("a", 4))
    game.run(TraitRoll("a", "notice"), [2, 1])
    with pytest.raises(RuleError, match="actions_already_declared"):
        game.run(DeclareActions("a", 2))
    with pytest.raises(RuleError, match="too_many_actions"):
        game.run(TraitRoll("a", "notice"))
    with pytest.raises(RuleError, match="not_your_turn"):
        game.run(TraitRoll("b", "notice"))


def test_fighting_against_parry_and_damage_on_a_raise() -> None:
    game = duel()
    # d8: 8+3 = 11 vs Parry 6: raise → +d6; damage Str d8 + d6: 4 + 3, raise d6 2 = 9
    events = game.run(Attack("a", "b", damage="str+d6"), [8, 3, 1, 4, 3, 2])
    roll = of(events, Rolled)[0]
    assert roll.result.tn == 6 and roll.result.outcome == "raise"
    damage = of(events, DamageRolled)[0].result
    assert damage.raise_die is not None and damage.total == 9 and damage.expression == "d8!+d6!"
    assert game.c("b").status.wounds == 0 and game.c("b").status.shaken  # 9 vs 6: Shaken


def test_ranged_modifiers_are_labelled() -> None:
    # lines 92-93 and DESIGN.md range: −2/−4/−8, cover −2..−8, light −2..−6
    game = duel()
    game.run(SetCondition("b", "vulnerable"))
    cmd = Attack(
        "a",
        "b",
        skill="shooting",
        damage="2d6",
        range="long",
        cover="medium",
        light="dim",
        called_shot="head",
        modifiers=(("modifier", 1),),
    )
    events = game.run(cmd, [8, 8, 6, 1, 2, 2, 3])  # 8+8+6 = 22 ... vs TN 4
    labels = mods(of(events, Rolled)[0].result)
    assert labels == {
        "range": -4,
        "cover": -4,
        "illumination": -2,
        "called_shot": -4,
        "vulnerable": 2,
        "modifier": 1,
    }
    assert of(events, Rolled)[0].result.tn == 4
    damage = of(events, DamageRolled)[0].result
    assert mods(damage) == {"called_shot": 4}  # head: +4 damage


def test_gang_up_caps_at_four_and_the_drop() -> None:
    game = duel()
    events = game.run(Attack("a", "b", damage="d4", gang_up=6, the_drop=True), [1, 1])
    labels = mods(of(events, Rolled)[0].result)
    assert labels["gang_up"] == 4 and labels["the_drop"] == 4
    # both dice show 1: a critical failure despite the bonuses
    assert of(events, Rolled)[0].result.outcome == "critical_failure"


def test_wild_attack_then_vulnerable_until_the_end_of_the_next_turn() -> None:
    # line 53
    game = duel()
    events = game.run(Attack("a", "b", damage="d4", wild_attack=True), [2, 1])
    assert mods(of(events, Rolled)[0].result)["wild_attack"] == 2
    assert game.c("a").status.vulnerable
    game.run(NextTurn())  # a's turn ends: still Vulnerable
    assert game.c("a").status.vulnerable
    game.run(NextTurn())
    game.run(NextTurn())  # round 2: a acts (the red Joker from the unshuffled pile)
    assert game.state.current == "a" and game.c("a").status.vulnerable
    game.run(NextTurn())  # the end of its next turn
    assert not game.c("a").status.vulnerable
    with pytest.raises(RuleError, match="bad_modifier"):
        game.run(Attack("b", "a", skill="shooting", damage="d4", wild_attack=True))


def test_defend_adds_four_parry_until_its_next_turn() -> None:
    # line 52
    game = duel()
    game.run(Defend("a"))
    assert game.c("a").current_parry() == 10
    with pytest.raises(RuleError, match="defend_no_other_actions"):
        game.run(TraitRoll("a", "notice"))
    game.run(NextTurn())
    events = game.run(Attack("b", "a", damage="d4"), [7, 1])
    assert of(events, Rolled)[0].result.tn == 10 and not of(events, DamageRolled)
    game.run(NextTurn())
    game.run(NextTurn())  # a's next turn starts: Defend is gone
    assert game.state.current == "a" and game.c("a").current_parry() == 6


def test_aim_bonus_on_the_next_ranged_attack() -> None:
    game = duel()
    game.run(Aim("a"))
    for _ in range(3):
        game.run(NextTurn())
    assert game.state.current == "a"
    # round 2: a holds the red Joker too; d8 2 +2 +2 −2 = 4 hits, d4 1 +2 = 3: no effect
    events = game.run(Attack("a", "b", skill="shooting", damage="d4", range="medium"), [2, 1, 1])
    assert mods(of(events, Rolled)[0].result) == {"joker": 2, "aim": 2, "range": -2}
    assert not game.c("a").status.has("aim")


def test_support_values_cap_and_duration() -> None:
    # lines 35-37
    game = duel()
    with pytest.raises(RuleError, match="cannot_support_self"):
        game.run(Support("a", "a", "healing"))
    game.run(DeclareActions("a", 3))
    game.run(Support("a", "b", "healing"), [6, 6, 1, 1])  # 13 −4 = 9: raise +2
    game.run(Support("a", "b", "healing"), [6, 4, 1])  # 10 −4 = 6: success +1
    game.run(Support("a", "b", "healing"), [6, 6, 4, 1])  # 16 −4 = 12: raise +2 → capped
    support = game.c("b").status.condition("support")
    assert support is not None and support.value == 4
    game.run(NextTurn())
    events = game.run(TraitRoll("b", "notice"), [3, 1])
    assert mods(of(events, Rolled)[0].result)["support"] == 4
    assert not game.c("b").status.has("support")  # used up


def test_support_bonuses_for_different_skills_stay_apart() -> None:
    # line 35: «Успех даёт союзнику +1 к одной подходящей проверке параметра, Подъём — +2»
    game = duel()
    game.run(DeclareActions("a", 2))
    game.run(Support("a", "b", "healing", for_trait="fighting"), [6, 6, 1, 1])  # 13 −2: raise
    game.run(Support("a", "b", "healing", for_trait="shooting"), [6, 1, 1])  # 7 −2: success
    game.run(NextTurn())
    game.run(DeclareActions("b", 2))
    fighting = of(game.run(TraitRoll("b", "fighting"), [3, 1]), Rolled)[0]
    assert mods(fighting.result)["support"] == 2  # not +3: Shooting's +1 is not for Fighting
    assert game.c("b").status.condition("support").skill == "shooting"  # still waiting
    shooting = of(game.run(TraitRoll("b", "shooting"), [3, 1]), Rolled)[0]
    assert mods(shooting.result)["support"] == 1
    assert not game.c("b").status.has("support")


def test_a_bound_character_cannot_attack() -> None:
    # line 82: «Связан (Bound): … ограничен стандартными правилами Bound» — official SWADE:
    # no actions but escaping (and what needs neither movement nor hands)
    game = duel()
    game.run(SetCondition("a", "bound"))
    for command in (Attack("a", "b", damage="d4"), Aim("a"), Attack("a", "b", free=True)):
        with pytest.raises(RuleError, match="bound"):
            game.run(command)
    game.run(DeclareActions("a", 2))
    game.run(EscapeBonds("a", "strength"), [8, 2, 1])  # 10 −2 −2 −2 = 4: Bound → Entangled
    assert game.c("a").status.has("entangled")
    assert of(game.run(Attack("a", "b", damage="d4"), [2, 1]), Rolled)  # Entangled may attack


def test_support_critical_failure_and_expiry() -> None:
    game = duel()
    game.run(Support("a", "c", "healing"), [1, 1])
    assert game.c("c").status.condition("support").value == -2
    game.run(NextTurn())
    game.run(NextTurn())  # c's turn starts
    game.run(NextTurn())  # ... and ends without a roll: the Support expires
    assert not game.c("c").status.has("support")


def test_test_with_a_raise_shakes_and_the_defender_wins_ties() -> None:
    # lines 41-43: skill vs linked attribute; raise → also Shaken
    game = duel()
    events = game.run(Test("a", "b", "taunt", effect="vulnerable"), [8, 4, 1, 2, 1])
    att, res = of(events, Rolled)
    assert res.purpose == "resist" and res.trait == "smarts" and res.character == "b"
    assert att.result.total == 12 and res.result.total == 2
    assert of(events, ConditionAdded)[0].condition.kind == "vulnerable"
    assert of(events, ShakenSet)
    game2 = duel()
    events = game2.run(Test("a", "b", "taunt"), [5, 1, 5, 2])  # tie: the defender wins
    assert not of(events, ConditionAdded) and not game2.c("b").status.distracted


def test_escape_entangled_and_bound() -> None:
    # lines 81-83: Entangled = Distracted; Bound = Distracted + Vulnerable, −2 to escape
    game = duel()
    game.run(SetCondition("a", "bound"))
    assert game.c("a").status.distracted and game.c("a").status.vulnerable
    events = game.run(DeclareActions("a", 2))
    events = game.run(EscapeBonds("a", "strength"), [8, 2, 1])  # 10 −2 −2 −2 = 4: success
    assert mods(of(events, Rolled)[0].result) == {"distracted": -2, "multi_action": -2, "bound": -2}
    assert game.c("a").status.has("entangled") and not game.c("a").status.has("bound")
    game.run(EscapeBonds("a", "athletics"), [5, 1])  # 5 −2 −2 = 1: failure
    assert game.c("a").status.has("entangled")
    with pytest.raises(RuleError, match="not_entangled"):
        duel().run(EscapeBonds("a"))


def test_free_attack_when_leaving_melee() -> None:
    # line 103: a free attack from each adjacent foe; not an action, the GM triggers it
    game = duel()
    events = game.run(Attack("b", "a", damage="d4", free=True), [2, 1])
    assert not of(events, Rolled)[0].action
    with pytest.raises(RuleError, match="gm_only"):
        game.run(Attack("b", "a", damage="d4", free=True, by=2))


def test_an_attack_without_dice_does_the_skills_default_damage() -> None:
    """docs/rules/savage.md «Default damage» (seed 000, line 54 leaves weapons to official
    SWADE): Fighting with a generic melee weapon, Str+d6; Shooting or throwing, 2d6."""
    # d8 8+3 = 11 vs Parry 6: a raise; Str d8 + d6 (4 + 3) + raise d6 2 = 9
    melee = of(duel().run(Attack("a", "b"), [8, 3, 1, 4, 3, 2]), DamageRolled)[0].result
    assert melee.expression == "d8!+d6!" and melee.total == 9
    # d8 8+3 = 11 vs 4: a raise; 2d6 (4 + 3) + raise d6 2 = 9
    shot = duel().run(Attack("a", "b", skill="shooting"), [8, 3, 1, 4, 3, 2])
    damage = of(shot, DamageRolled)[0].result
    assert damage.expression == "2d6!" and damage.total == 9
