"""Damage vs Toughness, Wounds, Soak, Incapacitation, Fatigue (seed 000 lines 56-88,
107-120; DESIGN.md for the official SWADE parts)."""

from __future__ import annotations

import pytest

from engine.savage import (
    AcceptDamage,
    ApplyDamage,
    ChangeFatigue,
    NextTurn,
    RuleError,
    SetCondition,
    SetStatus,
    Soak,
    roll_modifiers,
)
from engine.savage.damage import injury_kind
from engine.savage.events import DamageApplied, DamagePending, Incapacitated, Rolled

from .helpers import Game, char, group, mods, of

HERO = "Герой (Дикий) Дух d8, Выносливость d8; Драка d8; Стойкость 8 (2); Бенни 2"


def hero_game(**changes: object) -> Game:
    game = Game()
    game.add("h", char(HERO, "h", **changes))
    game.add("x", *group("Пустой (Статист, ×2) Драка d6; Стойкость 6; Черты: Стойкий", "x"))
    game.add("m", char("Менос (Статист) Драка d6; Стойкость 6", "m"))
    return game


@pytest.mark.parametrize(
    ("amount", "shaken", "wounds"),
    [(5, False, 0), (6, True, 0), (9, True, 0), (10, True, 1), (13, True, 1), (14, True, 2)],
)
def test_damage_against_toughness(amount: int, shaken: bool, wounds: int) -> None:
    # lines 60-62: below nothing; at Toughness or up to 3 over Shaken; each full 4 a Wound
    game = hero_game(bennies=0)
    game.run(ApplyDamage("h", amount=amount + 2))  # Toughness 8
    status = game.c("h").status
    assert (status.shaken, status.wounds) == (shaken, wounds)


def test_ap_reduces_only_the_armor_part() -> None:
    game = hero_game(bennies=0)
    game.run(ApplyDamage("h", amount=6, ap=4))  # Toughness 8 (2): AP 4 only removes 2
    assert game.c("h").status.shaken and game.c("h").status.wounds == 0


def test_shaken_again_becomes_a_wound() -> None:
    # line 63: «Если уже находящаяся в Шоке цель снова получает результат «Шок» ... Рану»
    game = hero_game(bennies=0)
    game.run(ApplyDamage("h", amount=8))
    game.run(ApplyDamage("h", amount=8))
    assert game.c("h").status.wounds == 1 and game.c("h").status.shaken


def test_hardy_extra_ignores_only_the_second_shaken() -> None:
    # lines 87-88
    game = hero_game()
    game.run(ApplyDamage("x-1", amount=6))
    game.run(ApplyDamage("x-1", amount=7))
    assert game.c("x-1").status.shaken and not game.c("x-1").status.out
    events = game.run(ApplyDamage("x-1", amount=10))  # a Wound by the margin: taken normally
    assert of(events, Incapacitated)[0].outcome == "out"


def test_extra_is_out_at_its_first_wound() -> None:
    # line 75: «Статист обычно становится Недееспособным от первой Раны»
    game = hero_game()
    events = game.run(ApplyDamage("m", amount=10))
    assert not of(events, DamagePending) and not of(events, Rolled)
    assert game.c("m").status.incapacitated and not game.c("m").status.dead


def test_wound_penalty_caps_at_three_and_slows_pace() -> None:
    # line 73: «Каждая Рана даёт −1 к Темпу и проверкам параметров, максимум −3»
    game = hero_game(bennies=0)
    game.run(SetStatus("h", (("wounds", 3), ("fatigue", 2))))
    labels = mods_of(roll_modifiers(game.state, "h", "free"))
    assert labels == {"wounds": -3, "fatigue": -2}
    assert game.c("h").current_pace() == 3


def mods_of(ms) -> dict[str, int]:  # type: ignore[no-untyped-def]
    return {m.label: m.value for m in ms}


def test_soak_removes_all_wounds_and_the_shaken() -> None:
    # lines 117-119
    game = hero_game()
    game.run(SetCondition("h", "shaken"))
    events = game.run(ApplyDamage("h", amount=16))  # two Wounds: wait for Soak
    assert of(events, DamagePending)[0].wounds == 2
    with pytest.raises(RuleError, match="damage_pending"):
        game.run(NextTurn())
    events = game.run(Soak("h"), [8, 1, 1])  # Vigor 8+1 (ace) = 9: success and a raise
    applied = of(events, DamageApplied)[0]
    assert (applied.wounds, applied.clear_shaken) == (0, True)
    status = game.c("h").status
    assert status.wounds == 0 and not status.shaken and game.c("h").bennies == 1
    assert game.state.pending is None


def test_partial_soak_then_accept() -> None:
    game = hero_game()
    game.run(ApplyDamage("h", amount=16))
    game.run(Soak("h"), [5, 2])  # one Wound soaked
    assert game.state.pending is not None and game.state.pending.soaked == 1
    game.run(AcceptDamage("h"))
    assert game.c("h").status.wounds == 1 and game.c("h").status.shaken


def test_soak_never_against_shaken_alone() -> None:
    # line 120: «Поглощение нельзя использовать только против Шока»
    game = hero_game()
    game.run(ApplyDamage("h", amount=8))
    with pytest.raises(RuleError, match="cannot_soak_shaken_only"):
        game.run(Soak("h"))


@pytest.mark.parametrize(
    ("faces", "outcome", "duration"),
    [
        ([1, 1], "dead", None),
        ([3, 2, 3, 4, 2], "bleeding_out", "permanent"),  # 2d6 = 7: guts, d6 = 2 broken
        ([7, 1, 6, 4], "injured", "until_healed"),  # 10: leg
        ([8, 4, 2, 6, 6, 5], "injured_24h", "24h"),  # 12 −3 = 9: raise; 12: head
    ],
)
def test_incapacitation_roll(faces: list[int], outcome: str, duration: str | None) -> None:
    # lines 112-113 and DESIGN.md: an immediate Vigor roll with the current wound penalties
    game = hero_game(bennies=0)
    game.run(SetStatus("h", (("wounds", 2),)))
    events = game.run(ApplyDamage("h", amount=18), faces)  # two more Wounds: beyond three
    roll = of(events, Rolled)[0]
    # the penalty of the Wounds now on the character (three: −3)
    assert roll.purpose == "incapacitation" and mods(roll.result) == {"wounds": -3}
    event = of(events, Incapacitated)[0]
    assert event.outcome == outcome
    status = game.c("h").status
    assert status.incapacitated and status.wounds == 3
    assert status.dead == (outcome == "dead")
    assert status.bleeding_out == (outcome == "bleeding_out")
    if duration:
        assert event.injury is not None and event.injury.duration == duration
        assert status.injuries == (event.injury,)


def test_injury_table() -> None:
    assert injury_kind(2, None) == "unmentionables"
    assert injury_kind(4, None) == "arm"
    assert [injury_kind(7, d) for d in (1, 3, 5)] == ["guts_broken", "guts_battered", "guts_busted"]
    assert injury_kind(10, None) == "leg"
    assert [injury_kind(12, d) for d in (2, 4, 6)] == [
        "head_scar",
        "head_blinded",
        "head_brain_damage",
    ]


def test_fatigue_levels_then_out() -> None:
    # line 79: «каждый уровень даёт −1 ...; третий уровень выводит персонажа из строя»
    game = hero_game()
    game.run(ChangeFatigue("h", 1))
    assert mods_of(roll_modifiers(game.state, "h", "free")) == {"fatigue": -1}
    game.run(ChangeFatigue("h", 1))
    assert mods_of(roll_modifiers(game.state, "h", "free")) == {"fatigue": -2}
    events = game.run(ChangeFatigue("h", 1))
    assert of(events, Incapacitated)[0].outcome == "exhausted"
