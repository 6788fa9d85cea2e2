"""The example system's one scene, pure: a coin-toss contest. Anyone at the table tosses a
coin (a d2, 2 is heads) as often as they like; each heads is a point; the GM may take the
last toss back (the scene service's undo) and ends the contest. `decide(state, command,
rng) -> events`, `evolve(state, event) -> state` (the dice drawn are in the events) and
`observe` (what a viewer sees: every viewer the same board)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass, replace
from typing import Any

from engine import codec, events
from engine.dice.rng import Rng
from engine.observe import PUBLIC, Observer

KIND = "coin_toss"  # the scene kind: stream keys "coin_toss:<n>"


@dataclass(frozen=True, slots=True)
class Toss:
    by: int  # who tossed (a Telegram user id: the GM too)
    heads: bool


@dataclass(frozen=True, slots=True)
class Contest:
    tosses: tuple[Toss, ...] = ()
    step: int = 0

    def scores(self) -> dict[int, int]:
        """Heads per tosser, in the order they first tossed."""
        scores = {t.by: 0 for t in self.tosses}
        scores.update(Counter(t.by for t in self.tosses if t.heads))
        return scores


@dataclass(frozen=True, slots=True)
class TossCoin:
    """A command: `by` is who tosses (the scene's decide sets it to the sender, GM or not)."""

    by: int = 0


@dataclass(frozen=True, slots=True)
class Event(events.Event):
    """A fact of a contest."""


@dataclass(frozen=True, slots=True)
class Tossed(Event):
    by: int
    face: int  # the d2 drawn: 2 is heads


EVENTS: codec.Family[Event] = codec.Family("type", {"Tossed": Tossed})
Event.family = EVENTS
STATE = codec.codec(Contest)


def decide(state: Contest, command: TossCoin, rng: Rng) -> tuple[Event, ...]:
    return (Tossed(state.step + 1, command.by, rng.randint(1, 2)),)


def evolve(state: Contest, event: Event) -> Contest:
    assert isinstance(event, Tossed)
    return replace(state, tosses=(*state.tosses, Toss(event.by, event.face == 2)), step=event.step)


def observe(state: Contest, observer: Observer) -> dict[str, Any]:
    """Nothing of a contest is hidden: every viewer sees the tosses and the scores."""
    return {
        "tosses": [{"by": t.by, "heads": t.heads} for t in state.tosses],
        "scores": [{"by": by, "heads": n} for by, n in state.scores().items()],
    }


def audience(state: Contest, observer: Observer) -> Hashable:
    return PUBLIC  # one view for all: a push is projected once
