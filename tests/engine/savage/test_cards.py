"""The action deck (seed 000 lines 5-15)."""

from __future__ import annotations

import random

import pytest

from engine.dice.rng import ScriptedRng
from engine.savage import Card, DealRound, Deck, full_deck, shuffled
from engine.savage.events import CardDealt, DeckShuffled

from .helpers import Game, char, of, stack_faces


def test_deck_has_52_cards_and_two_jokers() -> None:
    deck = full_deck()
    assert len(deck) == len(set(deck)) == 54
    assert sum(c.is_joker for c in deck) == 2
    assert {c.suit for c in deck if c.is_joker} == {"red", "black"}


def test_ace_to_two_and_suit_ties() -> None:
    # line 8: «Ходы идут от туза к двойке. ... пики, черви, бубны, трефы.»
    assert Card.parse("AS").beats(Card.parse("KS"))
    assert Card.parse("3C").beats(Card.parse("2S"))
    order = ["AS", "AH", "AD", "AC"]
    cards = sorted((Card.parse(c) for c in reversed(order)), key=lambda c: c.sort_key, reverse=True)
    assert [c.code for c in cards] == order
    # line 13: a Joker acts at any moment — it beats every card
    assert Card.parse("JokerB").beats(Card.parse("AS"))


def test_fresh_deck_order_is_highest_first() -> None:
    codes = [c.code for c in full_deck()[:6]]
    assert codes == ["JokerR", "JokerB", "AS", "AH", "AD", "AC"]
    assert full_deck()[-1].code == "2C"


@pytest.mark.parametrize("code", ["AS", "10H", "2C", "JD", "QH", "KC", "JokerR", "JokerB"])
def test_card_code_round_trip(code: str) -> None:
    assert Card.parse(code).code == code


@pytest.mark.parametrize("bad", ["1S", "15H", "AX", "", "Joker"])
def test_bad_card_codes(bad: str) -> None:
    with pytest.raises(ValueError):
        Card.parse(bad)


def test_shuffle_uses_the_injected_rng_only() -> None:
    a = shuffled(full_deck(), random.Random(7))
    b = shuffled(full_deck(), random.Random(7))
    c = shuffled(full_deck(), random.Random(8))
    assert a == b != c
    assert sorted(a, key=lambda x: x.sort_key) == sorted(full_deck(), key=lambda x: x.sort_key)


def test_stacked_shuffle_helper() -> None:
    faces = stack_faces(full_deck(), ["7H", "JokerB"])
    assert shuffled(full_deck(), ScriptedRng(faces))[:2] == (Card.parse("7H"), Card.parse("JokerB"))


def test_take_from_the_top_and_joker_flag() -> None:
    deck = Deck(draw=(Card.parse("JokerR"), Card.parse("2C")))
    after = deck.take((Card.parse("JokerR"),))
    assert after.draw == (Card.parse("2C"),)
    assert after.joker_dealt
    with pytest.raises(ValueError):
        deck.take((Card.parse("2C"),))


def _two(game: Game) -> None:
    game.add("a", char("A (Дикий) Драка d6", "a"))
    game.add("b", char("B (Дикий) Драка d6", "b"))


def test_first_deal_shuffles_and_deals_from_the_top() -> None:
    game = Game()
    _two(game)
    events = game.run(DealRound(), game.shuffle("KS", "3D"))
    assert of(events, DeckShuffled)[0].reason == "start"
    dealt = {e.combatant: e.kept.code for e in of(events, CardDealt)}
    assert dealt == {"a": "KS", "b": "3D"}
    assert len(game.state.deck.draw) == 52


def test_reshuffle_after_a_round_with_a_joker() -> None:
    # line 15: «После выдачи Джокера колода перемешивается перед следующей раздачей.»
    game = Game()
    _two(game)
    game.run(DealRound(), game.shuffle("JokerR", "3D"))
    assert game.state.deck.joker_dealt
    events = game.run(DealRound(), game.shuffle("QS", "4D"))
    shuffles = of(events, DeckShuffled)
    assert [s.reason for s in shuffles] == ["joker"]
    assert len(shuffles[0].order) == 54  # every card came back: the last round's too
    assert [e.kept.code for e in of(events, CardDealt)] == ["QS", "4D"]
    # a round without a Joker: no reshuffle
    events = game.run(DealRound())
    assert not of(events, DeckShuffled)


def test_running_out_mid_deal_reshuffles_the_discards() -> None:
    game = Game()
    _two(game)
    game.run(DealRound(), game.shuffle("KS", "3D"))
    pile = game.state.deck.draw
    # leave one card in the pile: the second combatant's card comes from a reshuffle
    state = game.state
    from dataclasses import replace

    game.state = replace(state, deck=replace(state.deck, draw=pile[:1], discard=pile[1:]))
    events = game.run(
        DealRound(), stack_faces((*pile[1:], Card.parse("KS"), Card.parse("3D")), ["5H"])
    )
    reasons = [e.reason for e in of(events, DeckShuffled)]
    assert reasons == ["empty"]
    assert [e.kept for e in of(events, CardDealt)] == [pile[0], Card.parse("5H")]
    held = [c.card for c in game.state.combatants]
    deck = game.state.deck
    assert len(deck.draw) + len(deck.discard) + len(held) == 54
