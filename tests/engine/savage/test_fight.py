"""The scripted three-round fight of issue 3 (seed 000), every face and card scripted.

Cast: Ichigo (Level Headed), Rukia (Quick), Orihime (support), Grimmjow (Wild Card NPC)
and two Hardy Hollows (a group of Extras on one card).
"""

from __future__ import annotations

import json

from engine.savage import (
    ApplyDamage,
    Attack,
    DeclareActions,
    Encounter,
    Hold,
    Interrupt,
    NextTurn,
    Soak,
    Support,
    Test,
    replay,
    undo,
)
from engine.savage.events import (
    CardDealt,
    DamageApplied,
    DamagePending,
    DeckShuffled,
    FreeActionsOnly,
    Incapacitated,
    Interrupted,
    Rolled,
    ShakenRemoved,
    ShakenSet,
    TurnStarted,
)
from engine.savage.modifiers import LABELS

from .helpers import Game, char, group, json_round_trip, mods, of, produced_labels

ICHIGO = (
    "Ичиго (Дикий) Ловкость d8, Смекалка d6, Дух d8, Сила d10, Выносливость d8; "
    "Драка d10, Атлетика d8; Защита 7, Стойкость 8 (2); Бенни 3; Черты: Хладнокровие"
)
RUKIA = (
    "Рукия (Дикая) Ловкость d8, Смекалка d8, Дух d8, Сила d6, Выносливость d6; "
    "Драка d8, Стрельба d8, Атлетика d8, Провокация d8; Защита 6, Стойкость 5; Бенни 2; "
    "Черты: Быстрая"
)
ORIHIME = "Орихиме (Дикая) Дух d10, Выносливость d6; Лечение d8, Драка d4; Бенни 1"
GRIMMJOW = (
    "Гриммджо (Дикий) Ловкость d10, Смекалка d6, Дух d8, Сила d12, Выносливость d10; "
    "Драка d12, Атлетика d10; Защита 8, Стойкость 9 (1); Бенни 0"
)
HOLLOWS = "Пустой (Статист, ×2) Дух d4, Сила d8; Драка d6; Защита 5, Стойкость 7; Черты: Стойкий"


def labels(event: Rolled) -> dict[str, int]:
    return mods(event.result)


def test_three_round_fight() -> None:
    game = Game()
    game.add("ichigo", char(ICHIGO, "ichigo", owner=1))
    game.add("rukia", char(RUKIA, "rukia", owner=2))
    game.add("orihime", char(ORIHIME, "orihime", owner=3))
    game.add("grimmjow", char(GRIMMJOW, "grimmjow"))
    game.add("hollows", *group(HOLLOWS, "hollow"), name="Пустые ×2")

    # ---- Round 1 ------------------------------------------------------------------
    # Ichigo, Level Headed, draws 3♣ and Q♥ and keeps the Queen; Rukia, Quick, redraws
    # her 4♦ and gets the red Joker (seed 000 lines 5-15; DESIGN.md).
    events = game.run(NextTurn(), game.shuffle("3C", "QH", "4D", "JokerR", "9S", "KS", "2H"))
    dealt = of(events, CardDealt)
    assert [(e.combatant, e.kept.code, e.rules) for e in dealt] == [
        ("ichigo", "QH", ("level_headed",)),
        ("rukia", "4D", ()),
        ("rukia", "JokerR", ("quick",)),
        ("orihime", "9S", ()),
        ("grimmjow", "KS", ()),
        ("hollows", "2H", ()),
    ]
    assert [c.id for c in game.state.order()] == [
        "rukia",
        "grimmjow",
        "ichigo",
        "orihime",
        "hollows",
    ]
    assert game.state.current == "rukia"

    # Rukia taunts Grimmjow (Test, lines 41-43): the Joker's +2 is added by itself (line 14).
    # Taunt d8 aces 8+5, +2 = 15; Grimmjow's Smarts 3: three raises → Distracted + Shaken.
    events = game.run(Test("rukia", "grimmjow", "taunt", by=2), [8, 5, 2, 2, 3])
    attack, resist = of(events, Rolled)
    assert labels(attack) == {"joker": 2} and attack.result.total == 15
    assert resist.trait == "smarts" and "joker" not in labels(resist)  # never leaks
    assert game.c("grimmjow").status.distracted and game.c("grimmjow").status.shaken

    # Grimmjow's turn: the Spirit roll (lines 67-68) at −2 Distracted fails.
    events = game.run(NextTurn(), [3, 2])
    assert labels(of(events, Rolled)[0]) == {"distracted": -2}
    assert of(events, FreeActionsOnly) and game.c("grimmjow").status.distracted
    # Distracted lasts until the end of *his* next turn: it ends with this one (line 42).
    events = game.run(NextTurn())
    assert not game.c("grimmjow").status.distracted
    assert game.state.current == "ichigo"

    # Ichigo declares two attacks (lines 27-29): −2 on each.
    game.run(DeclareActions("ichigo", 2, by=1))
    # d10 aces 10+3 −2 = 11 vs Parry 8: hit; Str d10 6 + d6 4 = 10 vs 9: a Shaken result on
    # a Shaken target becomes a Wound (line 63).
    events = game.run(Attack("ichigo", "grimmjow", damage="str+d6", by=1), [10, 3, 1, 6, 4])
    assert labels(of(events, Rolled)[0]) == {"multi_action": -2}
    assert of(events, DamageApplied)[0].wounds == 1
    assert game.c("grimmjow").status.wounds == 1
    # second attack: 7 −2 = 5 vs Parry 5; 3 + 4 = 7 vs Toughness 7: Shaken
    events = game.run(Attack("ichigo", "hollow-1", damage="str+d6", by=1), [7, 1, 3, 4])
    assert labels(of(events, Rolled)[0]) == {"multi_action": -2}
    assert game.c("hollow-1").status.shaken and not game.c("hollow-2").status.shaken

    # Orihime supports Ichigo's Fighting twice (lines 34-37): raise +2, success +1.
    game.run(NextTurn())
    game.run(DeclareActions("orihime", 2, by=3))
    game.run(Support("orihime", "ichigo", "healing", for_trait="fighting", by=3), [8, 4, 1])
    game.run(Support("orihime", "ichigo", "healing", for_trait="fighting", by=3), [7, 6, 1])
    assert game.c("ichigo").status.condition("support").value == 3

    # The Hollows: the Shaken one fails its Spirit roll (an Extra: no Wild Die).
    events = game.run(NextTurn(), [2])
    assert of(events, Rolled)[0].result.wild_die is None and of(events, FreeActionsOnly)

    # ---- Round 2 ------------------------------------------------------------------
    # A Joker was dealt: the deck is reshuffled before the deal (line 15).
    top = ["5C", "8D", "10S", "7H", "JS", "6D", "3S", "QD", "4C", "KH", "2S"]
    events = game.run(NextTurn(), [*game.shuffle(*top), 6, 1])
    assert [e.reason for e in of(events, DeckShuffled)] == ["joker"]
    assert [c.id for c in game.state.order()] == [
        "grimmjow",
        "rukia",
        "ichigo",
        "orihime",
        "hollows",
    ]
    # Grimmjow shakes off the Shaken: 6 −1 Wound = 5.
    assert labels(of(events, Rolled)[0]) == {"wounds": -1} and of(events, ShakenRemoved)

    # Wild Attack (line 53): +2 Fighting and damage, then Vulnerable.
    # d12 11 −1 +2 = 12 vs Parry 7: raise; 7 + 5 + raise 3 + 2 = 17 vs 8: two Wounds.
    events = game.run(
        Attack("grimmjow", "ichigo", damage="str+d8", wild_attack=True), [11, 2, 7, 5, 3]
    )
    assert labels(of(events, Rolled)[0]) == {"wounds": -1, "wild_attack": 2}
    assert of(events, DamagePending)[0].wounds == 2
    assert game.c("grimmjow").status.vulnerable
    # Ichigo Soaks (lines 117-119): Vigor 8+3 = 11, a success and a raise: both Wounds.
    events = game.run(Soak("ichigo", by=1), [8, 3, 2])
    assert of(events, DamageApplied)[0].clear_shaken
    ichigo = game.c("ichigo")
    assert ichigo.status.wounds == 0 and not ichigo.status.shaken and ichigo.bennies == 2

    # Rukia supports Ichigo too: a raise (+2) would make 5; the cap is +4 (line 36).
    game.run(NextTurn())
    game.run(Support("rukia", "ichigo", "fighting", for_trait="fighting", by=2), [6, 6, 2])
    assert game.c("ichigo").status.condition("support").value == 4

    # Ichigo goes on Hold (lines 19-21); Orihime and the Hollows pass.
    game.run(NextTurn())
    events = game.run(Hold("ichigo", by=1))
    assert game.state.combatant("ichigo").hold and game.state.current == "orihime"
    events = game.run(NextTurn(), [1])  # the Shaken Hollow fails again
    # Hardy (lines 87-88): another Shaken result does not become a Wound.
    game.run(ApplyDamage("hollow-1", amount=8))
    assert game.c("hollow-1").status.shaken and game.c("hollow-1").status.wounds == 0

    # ---- Round 3 ------------------------------------------------------------------
    # No Joker last round: no reshuffle. Ichigo keeps Hold and gets no card (line 21);
    # Rukia's 3♠ is redrawn (Quick).
    events = game.run(NextTurn())
    assert not of(events, DeckShuffled)
    assert "ichigo" not in {e.combatant for e in of(events, CardDealt)}
    assert [e.kept.code for e in of(events, CardDealt) if e.combatant == "rukia"] == ["3S", "QD"]
    assert game.state.current == "grimmjow" and game.c("grimmjow").status.vulnerable

    # Ichigo interrupts from Hold: opposed Athletics with Wild Dice (line 20): 7 vs 4 −1.
    events = game.run(Interrupt("ichigo", by=1), [7, 3, 4, 2])
    interrupted = of(events, Interrupted)[0]
    assert [r.total for r in interrupted.rolls] == [7, 3] and interrupted.winner == "ichigo"
    assert of(events, TurnStarted)[0].via == "interrupt"

    # Support +4 and Vulnerable +2 apply by themselves: 6 +4 +2 = 12 vs Parry 8: raise.
    # Damage 10+2 + 6+1 + raise 4 = 23 vs 9: three Wounds, beyond the limit: Incapacitated,
    # Vigor 4 −3 = 1 fails (line 112): a permanent injury (2d6 = 6: guts, d6 5: busted)
    # and Bleeding Out.
    events = game.run(
        Attack("ichigo", "grimmjow", damage="str+d6", by=1), [6, 1, 10, 2, 6, 1, 4, 2, 4, 3, 3, 5]
    )
    assert labels(of(events, Rolled)[0]) == {"support": 4, "vulnerable": 2}
    assert not game.c("ichigo").status.has("support")  # used up
    incap_roll = of(events, Rolled)[1]
    assert incap_roll.purpose == "incapacitation" and labels(incap_roll) == {"wounds": -3}
    incap = of(events, Incapacitated)[0]
    assert incap.outcome == "bleeding_out" and incap.injury.kind == "guts_busted"
    grimmjow = game.c("grimmjow").status
    assert grimmjow.incapacitated and grimmjow.bleeding_out and grimmjow.wounds == 3

    # Ichigo's turn ends; Grimmjow's interrupted turn resumes and ends: his Vulnerable from
    # the Wild Attack lasts to the end of that turn (his next after the attack).
    game.run(NextTurn())
    assert game.state.current == "grimmjow" and game.c("grimmjow").status.vulnerable
    game.run(NextTurn())
    assert game.state.current == "rukia" and not game.c("grimmjow").status.has("vulnerable")

    # Rukia's kido at medium range: 7 −2 = 5 hits; 3d6 = 11 vs 7: a Wound takes the Extra
    # out at once (line 75), no Soak, no roll.
    before = game.state
    events = game.run(
        Attack("rukia", "hollow-2", skill="shooting", damage="3d6", range="medium", by=2),
        [7, 2, 4, 4, 3],
    )
    assert labels(of(events, Rolled)[0]) == {"range": -2}
    assert of(events, Incapacitated)[0].outcome == "out"
    assert game.c("hollow-2").status.out and not game.c("hollow-1").status.out
    assert game.state.combatant("hollows").in_fight  # the group fights on

    # Replay without a seed, through JSON; undo drops the last step.
    assert replay(game.log) == game.state
    assert replay(json_round_trip(game.log)) == game.state
    assert Encounter.from_dict(json.loads(json.dumps(game.state.to_dict()))) == game.state
    assert replay(undo(game.log)) == before
    assert len(undo(game.log)) == len(game.log) - len(events)
    assert of(game.log, ShakenSet)  # the Test raise shook Grimmjow
    assert produced_labels(game.log) <= set(LABELS)
