"""Test helpers: characters from text blocks, a game driver, stacked shuffles."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Sequence

from engine.dice.rng import Rng, ScriptedRng
from engine.savage import (
    AddCombatant,
    Card,
    Character,
    Command,
    Encounter,
    Event,
    Table,
    decide,
    event_from_dict,
    evolve,
    instantiate,
    parse_sheet,
)


def char(text: str, cid: str, *, owner: int | None = None, **changes: object) -> Character:
    c = dataclasses.replace(parse_sheet(text, owner=owner).character, id=cid)
    return dataclasses.replace(c, **changes) if changes else c


def group(text: str, base_id: str) -> tuple[Character, ...]:
    spec = parse_sheet(text)
    return instantiate(spec.character, spec.count, base_id)


def stack_faces(pile: Sequence[Card], top: Iterable[str]) -> list[int]:
    """The rng faces that make ``engine.savage.cards.shuffled(pile)`` put ``top`` first
    (the rest keeps the pile order): Fisher-Yates run backwards."""
    wanted = [Card.parse(c) for c in top]
    desired = wanted + [c for c in pile if c not in wanted]
    order = list(pile)
    faces = []
    for i in range(len(order) - 1, 0, -1):
        j = order.index(desired[i])
        faces.append(j)
        order[i], order[j] = order[j], order[i]
    assert tuple(order) == tuple(desired)
    return faces


class Game:
    """Runs commands through decide/evolve, keeping the event log."""

    def __init__(self, state: Encounter | None = None) -> None:
        self.initial = state or Encounter()
        self.state = self.initial
        self.log: list[Event] = []

    def run(
        self,
        cmd: Command,
        faces: Sequence[int] = (),
        *,
        rng: Rng | None = None,
        table: Table | None = None,
    ) -> tuple[Event, ...]:
        source = rng if rng is not None else ScriptedRng(faces)
        events = decide(self.state, cmd, source, table=table)
        if isinstance(source, ScriptedRng):
            assert source.remaining == 0, f"{source.remaining} scripted faces unused"
        for e in events:
            self.state = evolve(self.state, e)
        self.log.extend(events)
        return events

    def add(self, cid: str, *members: Character, name: str = "") -> None:
        self.run(AddCombatant(cid, name or cid, tuple(members)))

    def shuffle(self, *top: str) -> list[int]:
        """Faces for the shuffle at the next deal with ``top`` on top: the pile, the
        discards and the cards the round's end puts on the discards."""
        deck = self.state.deck
        in_play = tuple(c.card for c in self.state.combatants if c.card is not None)
        return stack_faces(deck.draw + deck.discard + in_play, top)

    def c(self, cid: str) -> Character:
        return self.state.character(cid)


def of(events: Iterable[Event], cls: type) -> list:
    return [e for e in events if isinstance(e, cls)]


def json_round_trip(events: Iterable[Event]) -> list[Event]:
    return [event_from_dict(json.loads(json.dumps(e.to_dict()))) for e in events]


def mods(result) -> dict[str, int]:  # type: ignore[no-untyped-def]
    return {m.label: m.value for m in result.modifiers}


def produced_labels(events: Iterable[Event]) -> set[str]:
    """Every modifier label in the rolls of a log."""
    found: set[str] = set()
    for e in events:
        result = getattr(e, "result", None)
        found |= {m.label for m in getattr(result, "modifiers", ())}
        for r in getattr(e, "rolls", ()):
            found |= {m.label for m in getattr(r, "modifiers", ())}
    return found
