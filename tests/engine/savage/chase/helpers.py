"""Test helpers: a chase game that records its event log and checks replay at every step."""

from __future__ import annotations

import json

from engine.dice.rng import Rng, ScriptedRng
from engine.savage.cards import Card
from engine.savage.chase import (
    AddParticipant,
    ChaseOptions,
    ChaseState,
    Command,
    Event,
    StartRound,
    StartTurn,
    decide,
    event_from_dict,
    replay,
)
from engine.savage.chase.events import ChaseStarted

# A row of nine cards with every suit and a Joker: index -> card.
NINE = ("2S", "3H", "4D", "5C", "JokerR", "6S", "7H", "8D", "9C")
# Action cards.
SPADES_ACTION = Card.parse("KS")
CLUBS_ACTION = Card.parse("QC")
JOKER_ACTION = Card.parse("JokerB")


def row(*codes: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in codes)


class Game:
    """Applies commands through decide/evolve, keeping the log; after every command it checks
    that the scripted dice were used up, that replaying the log gives the same state, and
    that every event survives a JSON round trip."""

    def __init__(self, cards: tuple[str, ...] = NINE, **options: object) -> None:
        started = ChaseStarted(step=1, options=ChaseOptions(**options), row=row(*cards))
        self.log: list[Event] = [started]
        self.state: ChaseState = replay(self.log)

    def do(self, command: Command, *faces: int, rng: Rng | None = None) -> tuple[Event, ...]:
        scripted = ScriptedRng(faces)
        events = decide(self.state, command, rng or scripted)
        assert scripted.remaining == 0, "scripted dice left unused"
        for e in events:
            assert event_from_dict(json.loads(json.dumps(e.to_dict()))) == e
        self.log.extend(events)
        self.state = replay(events, self.state)
        assert replay(self.log) == self.state
        return events

    def add(self, pid: str, side: str, position: int | None, **kw: object) -> None:
        self.do(AddParticipant(pid, side, position, **kw))

    def round(self) -> None:
        self.do(StartRound())

    def turn(self, pid: str, card: Card | None = SPADES_ACTION, *faces: int) -> tuple[Event, ...]:
        return self.do(StartTurn(pid, card), *faces)

    def pos(self, pid: str) -> int:
        return self.state.participant(pid).position


def of(events: tuple[Event, ...], cls: type) -> list:
    return [e for e in events if isinstance(e, cls)]


def duel(**options: object) -> Game:
    """Runner (side "quarry", d8 Athletics) on card 4, hunter (side "pursuers") on card 2,
    round 1 started."""
    g = Game(**options)
    g.add("runner", "quarry", 4, die=8)
    g.add("hunter", "pursuers", 2, die=8)
    g.round()
    return g
