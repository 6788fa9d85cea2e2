"""Events of a duel: facts produced by ``decide`` and applied by ``evolve``; every die is
inside them (the submissions, a seeded turn's in ``DiceDrawn``), so ``replay`` needs no
seed. Stored as ``{"type": <class
name>, …fields}`` (``EVENTS``, engine.codec)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import codec, events

from .options import Deadline, DuelOptions
from .proposal import Published, Sealed, Step
from .submission import Submission


@dataclass(frozen=True, slots=True)
class Event(events.Event):
    """A fact of a duel."""


@dataclass(frozen=True, slots=True)
class Submitted(Event):
    """A fighter's sealed submission (the thread sees who, when, and the receipt)."""

    sealed: Sealed


@dataclass(frozen=True, slots=True)
class DiceDrawn(Event):
    """Both turns are sealed: the dice of a seeded turn, drawn from the seed and both
    receipts (dice.py), each sealed submission with its dice (replayed as they are)."""

    turn: int
    submissions: tuple[Submission, ...]


@dataclass(frozen=True, slots=True)
class TurnPublished(Event):
    published: Published
    due: float | None = None  # when the next turn's time runs out (a deadline is set)
    seed: str = ""  # the next turn's dice seed (secret until that turn is published)


@dataclass(frozen=True, slots=True)
class Configured(Event):
    options: DuelOptions
    seed: str = ""  # the duel's start: the first turn's dice seed


@dataclass(frozen=True, slots=True)
class Adjusted(Event):
    """One change of the GM to this turn's proposal (``adjusted_roll`` / ``adjusted_value``)."""

    adjustment: Step


@dataclass(frozen=True, slots=True)
class DeadlineSet(Event):
    deadline: Deadline | None
    due: float | None  # this turn's


@dataclass(frozen=True, slots=True)
class DeadlinePassed(Event):
    """This turn's time ran out with ``missing`` not submitted (a default defense, if the
    policy seals one, follows as their ``Submitted``)."""

    turn: int
    missing: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Stopped(Event):
    """The GM stopped the duel at ``turn`` (the turn's sealed submissions dropped)."""

    turn: int


EVENTS: codec.Family[Event] = codec.Family(
    "type",
    {
        cls.__name__: cls
        for cls in (
            Submitted, TurnPublished, Configured, Adjusted, DeadlineSet, DeadlinePassed,
            Stopped, DiceDrawn,
        )
    },
)  # fmt: skip
Event.family = EVENTS


def event_from_dict(data: dict[str, Any]) -> Event:
    return EVENTS.from_data(data)
