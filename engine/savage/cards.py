"""The action deck: 52 cards plus a red and a black Joker (seed 000, lines 5-15).

Order (seed 000 line 8): «Ходы идут от туза к двойке. При одинаковом достоинстве масти идут в
порядке: пики, черви, бубны, трефы.» Jokers beat every card (line 13); between the two Jokers
the red one goes first (our reading: the seed does not order them).

Everything here is pure: a shuffle takes the rng and returns a new order, which `decide`
stores in an event so the deck can be rebuilt without the seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine import codec
from engine.dice.rng import Rng

SUITS: tuple[str, ...] = ("clubs", "diamonds", "hearts", "spades")  # low -> high (line 8)
SUIT_LETTERS = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}
JOKER_COLOURS: tuple[str, ...] = ("black", "red")  # low -> high
RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}
JOKER_RANK = 15
DECK_SIZE = 54


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card: ``rank`` 2..14 (Ace = 14) with a suit, or a Joker (rank 15, suit =
    colour "red"/"black"). Serialised as a short code: "AS", "10H", "2C", "JokerR"."""

    rank: int
    suit: str

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    @property
    def value(self) -> int:
        """Rank used by Quick ("5 or lower"); a Joker counts as highest."""
        return self.rank

    @property
    def sort_key(self) -> tuple[int, int]:
        """Higher key acts first."""
        if self.is_joker:
            return (JOKER_RANK, JOKER_COLOURS.index(self.suit))
        return (self.rank, SUITS.index(self.suit))

    def beats(self, other: Card) -> bool:
        return self.sort_key > other.sort_key

    @property
    def code(self) -> str:
        # looked up: every snapshot of a fight writes its whole deck as codes
        found = _CODES.get((self.rank, self.suit))
        return found if found is not None else _code(self.rank, self.suit)

    def __str__(self) -> str:
        return self.code

    @classmethod
    def parse(cls, code: str) -> Card:
        if code in ("JokerR", "JokerB"):
            return cls(JOKER_RANK, "red" if code == "JokerR" else "black")
        rank_text, letter = code[:-1], code[-1:]
        suits = {v: k for k, v in SUIT_LETTERS.items()}
        ranks = {v: k for k, v in RANK_NAMES.items()}
        if letter not in suits:
            raise ValueError(f"not a card: {code!r}")
        rank = ranks.get(rank_text) or (int(rank_text) if rank_text.isdigit() else 0)
        if not 2 <= rank <= 14:
            raise ValueError(f"not a card: {code!r}")
        return cls(rank, suits[letter])


def _code(rank: int, suit: str) -> str:
    if rank == JOKER_RANK:
        return "Joker" + suit[0].upper()
    return RANK_NAMES.get(rank, str(rank)) + SUIT_LETTERS[suit]


_CODES = {
    (rank, suit): _code(rank, suit)
    for rank, suits in ((JOKER_RANK, JOKER_COLOURS), *((r, SUITS) for r in range(2, 15)))
    for suit in suits
}

# Stored as its code ("AS", "JokerR") wherever a state or an event holds a card.
codec.scalar(Card, encode=lambda card: card.code, decode=Card.parse)


def full_deck() -> tuple[Card, ...]:
    """The 54 cards, highest first (the order a fresh, unshuffled deck is kept in)."""
    cards = [Card(rank, suit) for rank in range(2, 15) for suit in SUITS]
    cards += [Card(JOKER_RANK, colour) for colour in JOKER_COLOURS]
    return tuple(sorted(cards, key=lambda c: c.sort_key, reverse=True))


def shuffled(cards: Sequence[Card], rng: Rng) -> tuple[Card, ...]:
    """Fisher-Yates with the injected rng; returns a new order."""
    order = list(cards)
    for i in range(len(order) - 1, 0, -1):
        j = rng.randint(0, i)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def best(cards: Iterable[Card]) -> Card:
    return max(cards, key=lambda c: c.sort_key)


def worst(cards: Iterable[Card]) -> Card:
    return min(cards, key=lambda c: c.sort_key)


@dataclass(frozen=True, slots=True)
class Deck:
    """``draw`` is the face-down pile (index 0 is the top), ``discard`` the used cards.
    ``joker_dealt`` is set when a Joker leaves the pile and cleared by a shuffle: the next
    deal starts with a reshuffle (seed 000 line 15: «После выдачи Джокера колода
    перемешивается перед следующей раздачей»)."""

    draw: tuple[Card, ...] = ()
    discard: tuple[Card, ...] = ()
    joker_dealt: bool = False

    @classmethod
    def fresh(cls) -> Deck:
        """All 54 cards in the discard pile: the first deal shuffles them."""
        return cls(draw=(), discard=full_deck(), joker_dealt=False)

    @property
    def needs_shuffle(self) -> bool:
        return self.joker_dealt or not self.draw

    def shuffled_order(self, rng: Rng) -> tuple[Card, ...]:
        """A new draw pile: the remaining pile and the discards shuffled together (cards in
        front of combatants stay out)."""
        return shuffled(self.draw + self.discard, rng)

    def with_order(self, order: tuple[Card, ...], *, mid_deal: bool = False) -> Deck:
        """The pile after a shuffle. A shuffle forced by an empty pile in the middle of a
        deal keeps the Joker flag: a Joker dealt earlier in that deal still forces the
        reshuffle before the next deal."""
        return Deck(draw=order, discard=(), joker_dealt=self.joker_dealt and mid_deal)

    def take(self, cards: tuple[Card, ...]) -> Deck:
        """Remove ``cards`` from the top of the pile (they must be exactly the top cards)."""
        if self.draw[: len(cards)] != cards:
            raise ValueError("cards are not the top of the draw pile")
        joker = self.joker_dealt or any(c.is_joker for c in cards)
        return Deck(draw=self.draw[len(cards) :], discard=self.discard, joker_dealt=joker)

    def discarded(self, cards: Iterable[Card]) -> Deck:
        return Deck(
            draw=self.draw, discard=self.discard + tuple(cards), joker_dealt=self.joker_dealt
        )
