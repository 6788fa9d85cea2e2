"""A benny re-rolls a trait roll (DESIGN.md SWADE defaults: «Bennies: ... uses: re-roll a
trait roll, Soak, remove Shaken, draw a new action card»; the reading in
docs/rules/savage.md «Переброс за бенни»)."""

from __future__ import annotations

import pytest

from engine.savage import (
    Attack,
    DealRound,
    DeclareActions,
    EscapeBonds,
    NextTurn,
    Reroll,
    RuleError,
    SetCondition,
    Soak,
    Support,
    Test,
    TraitRoll,
    replay,
    undo,
)
from engine.savage.events import (
    BennySpent,
    ConditionAdded,
    ConditionRemoved,
    DamageApplied,
    DamageRolled,
    DamageSoaked,
    Rerolled,
    Rolled,
    ShakenRemoved,
    ShakenSet,
)

from .helpers import Game, char, json_round_trip, mods, of

HERO = (
    "Ловкость d8, Смекалка d6, Дух d6, Сила d8, Выносливость d6; "
    "Драка d8, Стрельба d8, Атлетика d6, Провокация d8, Лечение d6; Защита 6, Стойкость 6"
)


def duel(bennies: int = 2) -> Game:
    """a acts first (K♠), b second (5♣), c last; Wild Cards with ``bennies`` each."""
    game = Game()
    for cid, owner in (("a", 1), ("b", 2), ("c", 3)):
        game.add(cid, char(f"{cid.upper()} (Дикий) {HERO}; Бенни {bennies}", cid, owner=owner))
    game.run(DealRound(), game.shuffle("KS", "5C", "2D"))
    game.run(NextTurn())
    assert game.state.current == "a"
    return game


def test_a_benny_rerolls_with_the_same_modifiers_and_keeps_the_better() -> None:
    # DESIGN.md «re-roll a trait roll»: same trait, modifiers and TN; the best counts
    game = duel()
    game.run(DeclareActions("a", 2, by=1))
    # the GM's free modifier on a's roll (engine/savage/authority.py); a re-rolls it
    first = of(game.run(TraitRoll("a", "notice", modifiers=(("мгла", -1),)), [3, 2]), Rolled)
    assert first[0].result.total == -2  # d4−2 unskilled, −2 multi-action, −1: 3−5
    events = game.run(Reroll("a", by=1), [3, 5])
    (spent,) = of(events, BennySpent)
    assert spent.purpose == "reroll" and game.c("a").bennies == 1
    (rerolled,) = of(events, Rerolled)
    assert mods(rerolled.result) == mods(first[0].result)  # unskilled, multi-action, «мгла»
    assert rerolled.result.tn == first[0].result.tn and rerolled.result.total == 0
    assert rerolled.kept == "new" and game.state.last_roll("a").result.total == 0  # type: ignore[union-attr]
    # the re-roll is not another action: one action is still left
    assert game.c("a").status.actions_used == 1
    worse = of(game.run(Reroll("a", by=1), [1, 2]), Rerolled)[0]
    assert worse.kept == "previous" and worse.result.total == -3
    assert game.state.last_roll("a").result.total == 0  # type: ignore[union-attr]
    with pytest.raises(RuleError, match="no_bennies"):
        game.run(Reroll("a", by=1))


def test_a_critical_failure_cannot_be_rerolled() -> None:
    # official SWADE (DESIGN.md fills it): a critical failure on a trait roll stands
    game = duel()
    game.run(TraitRoll("a", "fighting"), [1, 1])
    with pytest.raises(RuleError, match="reroll_critical_failure"):
        game.run(Reroll("a"))
    assert game.c("a").bennies == 2


def test_a_critical_failure_of_the_reroll_is_never_kept() -> None:
    game = duel()
    game.run(TraitRoll("a", "fighting"), [2, 1])  # total 2
    rerolled = of(game.run(Reroll("a"), [1, 1]), Rerolled)[0]
    assert rerolled.result.outcome == "critical_failure" and rerolled.kept == "previous"
    game.run(Reroll("a"), [5, 1])  # the kept result (2) is no critical failure: allowed
    assert game.state.last_roll("a").result.total == 5  # type: ignore[union-attr]


def test_only_the_owner_or_the_gm_and_only_with_a_roll_this_turn() -> None:
    game = duel()
    with pytest.raises(RuleError, match="nothing_to_reroll"):
        game.run(Reroll("a"))
    game.run(TraitRoll("a", "notice"), [2, 1])
    with pytest.raises(RuleError, match="not_your_character"):
        game.run(Reroll("a", by=2))
    game.run(NextTurn())  # the turn is over: its rolls are closed
    with pytest.raises(RuleError, match="nothing_to_reroll"):
        game.run(Reroll("a", by=1))


def test_a_missed_attack_that_now_hits_rolls_its_damage() -> None:
    game = duel()
    events = game.run(Attack("a", "b", damage="str+d6", by=1), [2, 3])  # 3 vs Parry 6
    assert not of(events, DamageRolled)
    events = game.run(Reroll("a", by=1), [7, 1, 4, 3])  # 7 vs 6: a hit; d8 4 + d6 3 = 7
    assert of(events, Rerolled)[0].kept == "new"
    damage = of(events, DamageRolled)[0]
    assert damage.attacker == "a" and damage.result.total == 7 and damage.result.raise_die is None
    assert game.c("b").status.shaken
    # the damage is rolled: the attack can no longer be re-rolled (reroll_too_late)
    with pytest.raises(RuleError, match="reroll_too_late"):
        game.run(Reroll("a", by=1))


def test_a_hit_cannot_be_rerolled_for_a_raise_after_its_damage() -> None:
    game = duel()
    game.run(Attack("a", "b", damage="d4"), [7, 1, 1])
    with pytest.raises(RuleError, match="reroll_too_late"):
        game.run(Reroll("a"))


def test_a_reroll_to_a_raise_adds_the_raise_die_and_the_joker_damage() -> None:
    # the damage keeps the modifiers of the attack's moment (Wild Attack +2, seed 000 l.53)
    game = duel()
    game.run(Attack("a", "b", damage="d4", wild_attack=True), [3, 2])
    assert game.c("a").status.vulnerable
    events = game.run(Reroll("a"), [7, 6, 6, 1, 2, 3])  # Wild 6💥+6💥+1 = 13 +2 vs 6: raise
    damage = of(events, DamageRolled)[0].result
    assert damage.raise_die is not None and mods(damage)["wild_attack"] == 2
    assert damage.total == 2 + 3 + 2


def test_spirit_reroll_removes_shaken_and_the_turn_is_normal() -> None:
    # seed 000 lines 67-68: Spirit at the start of the turn; a benny re-rolls it
    game = duel()
    game.run(SetCondition("b", "shaken"))
    game.run(NextTurn(), [2, 3])  # b: Spirit 3 → failure, free actions only
    assert game.c("b").status.free_only
    events = game.run(Reroll("b", by=2), [5, 1])
    assert of(events, ShakenRemoved)[0].reason == "spirit"
    status = game.c("b").status
    assert not status.shaken and not status.free_only
    game.run(TraitRoll("b", "notice", by=2), [3, 3])  # acts normally now


def test_a_failed_test_rerolled_to_a_raise_resists_now() -> None:
    # seed 000 lines 41-43: success → the chosen effect; raise → also Shaken
    game = duel()
    events = game.run(Test("a", "b", "провокация", effect="vulnerable"), [2, 1])
    assert not [e for e in of(events, Rolled) if e.purpose == "resist"]
    events = game.run(Reroll("a"), [7, 2, 2, 1])  # 7 vs b's Smarts 2: a raise
    resist = [e for e in of(events, Rolled) if e.purpose == "resist"]
    assert resist and resist[0].character == "b"
    assert of(events, ConditionAdded)[0].condition.kind == "vulnerable"
    assert of(events, ShakenSet)
    # the target's resisting roll is not a roll the target may re-roll
    with pytest.raises(RuleError, match="reroll_not_allowed"):
        game.run(Reroll("b", by=2))


def test_a_test_rerolled_from_success_to_raise_adds_only_the_shaken() -> None:
    game = duel()
    events = game.run(Test("a", "b", "провокация"), [5, 1, 3, 1])  # 5 vs 3: success
    assert of(events, ConditionAdded)[0].condition.kind == "distracted"
    events = game.run(Reroll("a"), [7, 1])  # 7 vs 3: a raise now
    assert not of(events, ConditionAdded) and of(events, ShakenSet)


def test_support_reroll_raises_the_bonus_within_the_cap() -> None:
    # seed 000 lines 34-36: success +1, raise +2, at most +4
    game = duel()
    game.run(Support("a", "c", "лечение"), [2, 1])  # failure: no bonus
    assert game.c("c").status.condition("support") is None
    game.run(Reroll("a"), [5, 1])  # success: +1
    assert game.c("c").status.condition("support").value == 1  # type: ignore[union-attr]
    game.run(Reroll("a"), [5, 6, 3])  # the Wild Die 6💥+3 = 9: a raise, +2
    assert game.c("c").status.condition("support").value == 2  # type: ignore[union-attr]


def test_escape_reroll_frees_the_bound_character() -> None:
    # seed 000 line 83: Bound −2; official SWADE: success → Entangled, raise → free
    game = duel()
    game.run(SetCondition("a", "bound"))
    game.run(EscapeBonds("a"), [5, 1])  # Athletics 5 −2 = 3: failure
    events = game.run(Reroll("a"), [6, 2, 2])  # 6💥+2 = 8 −2 = 6: success → Entangled
    assert of(events, ConditionRemoved)[0].kind == "bound"
    assert game.c("a").status.has("entangled")
    events = game.run(Reroll("a"), [6, 6, 1, 1])  # 6💥+6💥+1 = 13 −2 = 11: a raise → free
    assert of(events, ConditionRemoved)[0].kind == "entangled"
    assert not game.c("a").status.has("entangled")


def test_rerolling_a_soak_is_another_soak_and_the_best_counts() -> None:
    # seed 000 lines 117-120 and DESIGN.md: a benny re-rolls the Soak roll
    game = duel()
    game.run(Attack("a", "b", damage="3d6"), [7, 1, 5, 5, 5])  # 15 vs 6: two Wounds wait
    assert game.state.pending is not None and game.state.pending.wounds == 2
    with pytest.raises(RuleError, match="damage_pending"):
        game.run(Reroll("a"))
    with pytest.raises(RuleError, match="nothing_to_reroll"):
        game.run(Reroll("b", by=2))  # no Soak rolled yet: /soak first
    game.run(Soak("b", by=2), [2, 1])  # failure: nothing soaked
    events = game.run(Reroll("b", by=2), [5, 1])  # success: one Wound soaked
    assert of(events, BennySpent)[0].purpose == "soak"
    assert of(events, DamageSoaked)[0].soaked == 1
    # no benny left: the rest is taken at once
    assert of(events, DamageApplied)[0].wounds == 1 and game.c("b").status.wounds == 1
    with pytest.raises(RuleError, match="reroll_too_late"):
        game.run(Reroll("b", by=2))


def test_a_critical_failure_on_soak_ends_the_soaking() -> None:
    game = duel(bennies=3)
    game.run(Attack("a", "b", damage="3d6"), [7, 1, 5, 5, 5])
    game.run(Soak("b"), [1, 1])
    for cmd in (Soak("b"), Reroll("b")):
        with pytest.raises(RuleError, match="reroll_critical_failure"):
            game.run(cmd)


def test_replay_undo_and_json_keep_the_reroll() -> None:
    # every die is in the events: replay needs no seed; /undo takes the re-roll back
    game = duel()
    game.run(Attack("a", "b", damage="str+d6"), [2, 3])
    before = game.state
    game.run(Reroll("a"), [7, 1, 4, 3])
    assert replay(json_round_trip(game.log)) == game.state
    back = replay(undo(game.log))
    assert back == before and back.character("a").bennies == 2
    assert not back.character("b").status.shaken
    assert back.last_roll("a") == before.last_roll("a")
