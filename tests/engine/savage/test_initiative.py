"""Initiative, Joker, Hold, interrupts and start-of-turn procedures (seed 000 lines 5-21,
65-69, 80; DESIGN.md defaults)."""

from __future__ import annotations

import random

import pytest

from engine.savage import (
    ActNow,
    DealRound,
    DrawNewCard,
    Hold,
    Interrupt,
    NextTurn,
    RuleError,
    SetCondition,
    SetStatus,
    Unshake,
    roll_modifiers,
)
from engine.savage.events import (
    BleedingOutResolved,
    CardDealt,
    DeckShuffled,
    FreeActionsOnly,
    HoldLost,
    Interrupted,
    Rolled,
    ShakenRemoved,
    StunnedRemoved,
    TurnStarted,
)

from .helpers import Game, char, group, mods, of

BASE = "Ловкость d6, Дух d8, Выносливость d8; Атлетика d8, Драка d8"


def make(*specs: tuple[str, str]) -> Game:
    game = Game()
    for owner, (cid, extra) in enumerate(specs, start=1):
        game.add(cid, char(f"{cid.upper()} (Дикий) {BASE}; Бенни 2{extra}", cid, owner=owner))
    return game


def test_every_wild_card_and_each_group_gets_one_card_without_rolls() -> None:
    # line 7: «каждому Дикому персонажу и каждой ... группе Статистов раздаётся карта»
    # line 9: «Это не проверка Сноровки» — the only randomness is the shuffle
    game = make(("a", ""))
    game.add("h", *group("Пустой (Статист, ×4) Драка d6", "h"))
    events = game.run(DealRound(), game.shuffle("9S", "10C"))
    assert [(e.combatant, e.kept.code) for e in of(events, CardDealt)] == [
        ("a", "9S"),
        ("h", "10C"),
    ]
    assert not of(events, Rolled)
    assert [c.id for c in game.state.order()] == ["h", "a"]  # line 8: Ace → 2


def test_suit_breaks_ties_and_next_follows_the_order() -> None:
    game = make(("a", ""), ("b", ""), ("c", ""))
    game.run(DealRound(), game.shuffle("7C", "7S", "7H"))
    order = []
    for _ in range(3):
        events = game.run(NextTurn())
        order.append(of(events, TurnStarted)[0].combatant)
    assert order == ["b", "c", "a"]  # spades, hearts, clubs (line 8)


def test_level_headed_draws_two_keeps_best() -> None:
    game = make(("a", "; Черты: Хладнокровие"))
    event = of(game.run(DealRound(), game.shuffle("4D", "QH")), CardDealt)[0]
    assert [c.code for c in event.drawn] == ["4D", "QH"] and event.kept.code == "QH"
    assert event.rules == ("level_headed",)
    assert game.state.deck.discard[-1].code == "4D"


def test_improved_level_headed_draws_three() -> None:
    game = make(("a", "; Черты: Улучшенное хладнокровие"))
    event = of(game.run(DealRound(), game.shuffle("4D", "2H", "9C")), CardDealt)[0]
    assert len(event.drawn) == 3 and event.kept.code == "9C"


def test_quick_redraws_five_or_lower() -> None:
    game = make(("a", "; Черты: Быстрый"))
    events = of(game.run(DealRound(), game.shuffle("5S", "3H", "6C")), CardDealt)
    assert [e.kept.code for e in events] == ["5S", "3H", "6C"]
    assert [e.rules for e in events] == [(), ("quick",), ("quick",)]
    assert game.state.combatant("a").card.code == "6C"


@pytest.mark.parametrize(("top", "kept"), [(("KD", "3S"), "3S"), (("KD", "JokerB"), "JokerB")])
def test_hesitant_keeps_the_lowest_unless_a_joker(top: tuple[str, str], kept: str) -> None:
    game = make(("a", "; Черты: Нерешительный"))
    event = of(game.run(DealRound(), game.shuffle(*top)), CardDealt)[0]
    assert event.kept.code == kept and event.rules == ("hesitant",)


def test_benny_for_a_new_card_keeps_the_better() -> None:
    game = make(("a", ""), ("b", ""))
    game.run(DealRound(), game.shuffle("3S", "8H", "QC"))
    game.run(DrawNewCard("a", by=1))
    assert game.state.combatant("a").card.code == "QC"
    assert game.c("a").bennies == 1
    with pytest.raises(RuleError, match="not_your_character"):
        game.run(DrawNewCard("b", by=1))


def test_joker_gives_plus_two_to_its_holder_only() -> None:
    # line 14: «До конца раунда он получает +2 ко всем проверкам параметров и броскам урона»
    game = make(("a", ""), ("b", ""))
    game.run(DealRound(), game.shuffle("JokerR", "8H"))
    assert ("joker", 2) in [(m.label, m.value) for m in roll_modifiers(game.state, "a", "action")]
    assert [m.label for m in roll_modifiers(game.state, "a", "damage")] == ["joker"]
    assert roll_modifiers(game.state, "b", "action") == ()
    game.run(NextTurn())
    game.run(NextTurn())
    game.run(NextTurn(), game.shuffle("2S", "3S"))  # new round: the Joker is gone
    assert roll_modifiers(game.state, "a", "action") == ()


def test_joker_acts_at_any_moment_without_a_roll() -> None:
    # line 13: «действует в любой момент раунда, в том числе прерывая обычный порядок»
    game = make(("a", ""), ("b", ""), ("c", ""))
    game.run(DealRound(), game.shuffle("KS", "5C", "JokerB"))
    game.run(NextTurn())
    assert game.state.current == "c"  # the Joker comes first by card
    game.run(Hold("c"))
    assert game.state.current == "a"
    events = game.run(Interrupt("c"))  # no Athletics roll for a Joker
    assert of(events, Interrupted)[0].rolls == () and game.state.current == "c"
    game.run(NextTurn())
    assert game.state.current == "a"
    with pytest.raises(RuleError, match="cannot_act_now"):
        game.run(ActNow("c"))  # the Joker has acted this round


def test_hold_carries_over_without_a_new_card() -> None:
    # line 21: «Неиспользованное Ожидание переносится в следующий раунд, и новая карта такому
    # персонажу не выдаётся»
    game = make(("a", ""), ("b", ""))
    game.run(DealRound(), game.shuffle("KS", "5C"))
    game.run(NextTurn())
    events = game.run(Hold("a", by=1))
    assert game.state.combatant("a").hold
    assert of(events, TurnStarted)[0].combatant == "b"
    events = game.run(NextTurn())  # b ends; a holds: the round ends, a gets no card
    assert [e.combatant for e in of(events, CardDealt)] == ["b"]
    assert game.state.combatant("a").hold and game.state.combatant("a").card is None
    with pytest.raises(RuleError, match="on_hold_already"):
        game.run(Hold("a"))
    game.run(ActNow("a", by=1))  # b is acting: a goes right after b
    events = game.run(NextTurn())
    assert of(events, TurnStarted)[-1].via == "hold"
    assert not game.state.combatant("a").hold


def test_shaken_or_stunned_loses_hold() -> None:
    game = make(("a", ""), ("b", ""))
    game.run(DealRound(), game.shuffle("KS", "5C"))
    game.run(NextTurn())
    game.run(Hold("a"))
    events = game.run(SetCondition("a", "shaken"))
    assert of(events, HoldLost)[0].reason == "shaken"
    assert not game.state.combatant("a").hold


def test_shaken_cannot_go_on_hold() -> None:
    game = make(("a", ""), ("b", ""))
    game.run(DealRound(), game.shuffle("KS", "5C"))
    game.run(SetCondition("a", "shaken"))
    game.run(NextTurn(), [2, 3])  # Spirit roll fails
    with pytest.raises(RuleError, match="cannot_hold"):
        game.run(Hold("a"))


def _held_a_and_b_acting() -> Game:
    game = make(("a", ""), ("b", ""))
    game.run(DealRound(), game.shuffle("KS", "5C"))
    game.run(NextTurn())
    game.run(Hold("a"))
    return game


def test_interrupt_won_by_opposed_athletics() -> None:
    # line 20: «стороны делают встречные проверки Атлетики; победитель действует первым»
    game = _held_a_and_b_acting()
    events = game.run(Interrupt("a"), [7, 2, 3, 4])  # a: d8=7 (wild 2); b: d8=3 (wild 4)
    event = of(events, Interrupted)[0]
    assert [r.total for r in event.rolls] == [7, 4]
    assert all(r.wild_die is not None for r in event.rolls)  # Wild Dice included
    assert event.winner == "a" and game.state.current == "a"
    assert game.state.suspended == ("b",)
    events = game.run(NextTurn())
    assert of(events, TurnStarted)[0].via == "resume" and game.state.current == "b"


def test_interrupt_lost_acts_after_the_foe() -> None:
    game = _held_a_and_b_acting()
    events = game.run(Interrupt("a"), [2, 1, 6, 5])
    assert of(events, Interrupted)[0].winner == "b"
    assert game.state.current == "b" and game.state.queued == ("a",)
    events = game.run(NextTurn())
    assert (
        of(events, TurnStarted)[0].combatant == "a" and of(events, TurnStarted)[0].via == "queued"
    )


def test_interrupt_tie_is_simultaneous_and_the_interrupter_goes_first() -> None:
    game = _held_a_and_b_acting()
    event = of(game.run(Interrupt("a"), [5, 1, 5, 2]), Interrupted)[0]
    assert event.simultaneous and event.winner == "a"


def test_interrupt_needs_hold_or_joker() -> None:
    game = make(("a", ""), ("b", ""))
    game.run(DealRound(), game.shuffle("KS", "5C"))
    game.run(NextTurn())
    with pytest.raises(RuleError, match="not_on_hold"):
        game.run(Interrupt("b"))
    with pytest.raises(RuleError, match="cannot_interrupt_self"):
        game.run(Interrupt("a"))


def test_shaken_spirit_roll_at_start_of_turn() -> None:
    # lines 67-68: success removes Shaken and acts normally; failure free actions only
    game = make(("a", ""), ("b", ""))
    game.run(DealRound(), game.shuffle("KS", "5C"))
    game.run(SetCondition("a", "shaken"))
    game.run(SetCondition("b", "shaken"))
    events = game.run(NextTurn(), [5, 1])
    assert of(events, Rolled)[0].purpose == "spirit" and of(events, ShakenRemoved)
    events = game.run(NextTurn(), [1, 3])
    assert of(events, FreeActionsOnly) and game.c("b").status.shaken
    # line 69: a benny removes Shaken at once
    game.run(Unshake("b"))
    assert not game.c("b").status.shaken and not game.c("b").status.free_only


def test_stunned_recovery() -> None:
    # line 80 (official SWADE): Vigor at the start of the turn; success → no longer Stunned,
    # Vulnerable until the end of the next turn
    game = make(("a", ""), ("b", ""))
    game.run(DealRound(), game.shuffle("KS", "5C"))
    game.run(SetCondition("a", "stunned"))
    a = game.c("a").status
    assert a.stunned and a.distracted and a.vulnerable and a.has("prone")
    events = game.run(NextTurn(), [6, 2])  # Vigor 6 (−2 Distracted) = 4: success
    assert mods(of(events, Rolled)[0].result) == {"distracted": -2}
    assert of(events, StunnedRemoved)
    assert game.c("a").status.vulnerable
    game.run(NextTurn())  # a's turn ends: Distracted ends, Vulnerable lasts one more turn
    assert not game.c("a").status.distracted and game.c("a").status.vulnerable
    game.run(NextTurn())  # round 2: a acts first (the red Joker from the pile)
    assert game.state.current == "a" and game.c("a").status.vulnerable
    game.run(NextTurn())
    assert not game.c("a").status.vulnerable


def test_bleeding_out_roll_each_turn() -> None:
    from engine.savage import SetStatus

    game = make(("a", ""), ("b", ""))
    game.run(DealRound(), game.shuffle("KS", "5C"))
    game.run(SetStatus("a", (("incapacitated", 1), ("bleeding_out", 1), ("wounds", 3))))
    events = game.run(NextTurn(), [7, 3])  # 7 −3 = 4: success, roll again next turn
    assert of(events, BleedingOutResolved)[0].outcome == "bleeding"
    game.run(NextTurn())
    events = game.run(NextTurn(), [8, 6, 4])  # round 2: d8 aces 8+6 = 14, −3 = 11: raise
    assert of(events, BleedingOutResolved)[0].outcome == "stable"
    assert not game.c("a").status.bleeding_out and not game.c("a").status.dead


def test_players_only_move_their_own_characters() -> None:
    game = make(("a", ""), ("bb", ""))
    game.run(DealRound(), game.shuffle("KS", "5C"))
    game.run(NextTurn())
    with pytest.raises(RuleError, match="not_your_turn"):
        game.run(NextTurn(by=2))
    with pytest.raises(RuleError, match="gm_only"):
        game.run(DealRound(by=1))
    game.run(NextTurn(by=1))
    assert game.state.current == "bb"


def test_two_hundred_fighters_are_dealt_from_more_than_one_deck() -> None:
    """Seed 000 line 7: «каждому Дикому персонажу и каждой … группе Статистов раздаётся
    карта действий» — every one of 200 separate fighters. One deck holds 54 cards: when the
    pile and the discards run short, another deck is shuffled in (docs/rules/savage.md
    «Running out of cards»), instead of refusing the deal."""
    game = Game()
    for i in range(200):
        game.add(f"f{i}", char(f"Боец {i} (Дикий) Драка d6", f"f{i}"))
    events = game.run(DealRound(), rng=random.Random(7))
    assert all(c.card is not None for c in game.state.combatants)
    added = [e for e in of(events, DeckShuffled) if e.reason == "another_deck"]
    assert len(added) == 3  # 54 + 3 × 54 = 216 cards for 200 fighters
    deck = game.state.deck
    in_play = [c.card for c in game.state.combatants]
    assert len(in_play) + len(deck.draw) + len(deck.discard) == 4 * 54
    assert len(game.state.order()) == 200
    game.run(NextTurn(), rng=random.Random(1))  # the first turn starts as usual
    assert game.state.current == game.state.order()[0].id
    for _ in range(3):  # later rounds deal again from the bigger pile
        game.run(DealRound(), rng=random.Random(2))
        assert all(c.card is not None for c in game.state.combatants)


def test_a_dead_character_gets_no_ping_and_no_queued_turn() -> None:
    """Seed 000 line 111: «Недееспособный персонаж не может выполнять действия» — and the dead
    least of all: its owner is not called to act, and a turn it had queued is dropped."""
    game = Game()
    game.add("a", char("A (Дикий) Драка d6", "a", owner=1))
    game.add("b", char("B (Дикий) Драка d6", "b", owner=2))
    game.run(SetCondition("a", "shaken"))
    game.run(DealRound(), game.shuffle("KS", "5C"))
    game.run(NextTurn(), [3, 4])  # a: Spirit d4 3, Wild Die 4 — Shaken is gone
    game.run(Hold("a", by=1))  # b acts; a waits on Hold
    game.run(ActNow("a", by=1))  # a asks to act right after b's turn
    assert game.state.queued == ("a",)
    game.run(SetStatus("a", (("dead", 1),)))
    assert game.state.owners("a") == ()
    game.run(NextTurn())  # b's turn ends: the dead a does not act
    assert game.state.current != "a"
