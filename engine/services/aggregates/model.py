"""What a kind of stream is (`Aggregate`) and the plain results the store returns."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import reduce
from typing import Any, Generic, TypeVar

S = TypeVar("S")  # state
E = TypeVar("E")  # event

UNDO = "$undo"  # type of the marker event of an undo step; engine event types never start "$"
CAUSE = "$cause"  # the last row of a step another stream's step caused (`execute(cause=...)`)


def is_marker(event_type: str) -> bool:
    """A store marker ($undo, $cause), not an engine event."""
    return event_type.startswith("$")


KEY_MAX = 64


@dataclass(frozen=True)
class Aggregate(Generic[S, E]):
    """A kind of event-sourced stream: the pure engine plus its JSON codecs.

    `version` describes `state_to_dict`'s format: bump it when that changes and older
    snapshots and checkpoints are ignored (the state is rebuilt from the log). A snapshot is
    written once `snapshot_every` events have piled up past the last valid one (1 = after
    every command). A checkpoint (the state kept at that point for good) is written at every
    `checkpoint_every`-th step (0 = never): an undo replays the steps since the newest one
    before the step it takes back, not the whole log.
    """

    name: str
    initial: Callable[[Mapping[str, Any]], S]
    evolve: Callable[[S, E], S]
    event_to_dict: Callable[[E], dict[str, Any]]
    event_from_dict: Callable[[dict[str, Any]], E]
    state_to_dict: Callable[[S], dict[str, Any]]
    state_from_dict: Callable[[dict[str, Any]], S]
    version: int = 1
    snapshot_every: int = 1
    checkpoint_every: int = 50
    # the state as JSON text in one go, where the codec can (faster than the dict and then
    # the text); None: `state_to_dict` and the store's encoder
    state_to_json: Callable[[S], str] | None = None

    def replay(self, events: Iterable[E], params: Mapping[str, Any] | None = None) -> S:
        """The state after `events`, from `initial(params)` — what the store must agree with."""
        return self.fold(self.initial(params or {}), events)

    def fold(self, state: S, events: Iterable[E]) -> S:
        return reduce(self.evolve, events, state)


_REGISTERED: dict[str, Aggregate[Any, Any]] = {}


def register_aggregate(aggregate: Aggregate[S, E]) -> Aggregate[S, E]:
    """Make the aggregate known by its name (e.g. to decode the events of an outbox row)."""
    known = _REGISTERED.setdefault(aggregate.name, aggregate)
    if known is not aggregate:
        raise ValueError(f"another aggregate is registered as {aggregate.name!r}")
    return aggregate


def aggregate_named(name: str) -> Aggregate[Any, Any]:
    try:
        return _REGISTERED[name]
    except KeyError:
        raise KeyError(f"no aggregate registered as {name!r}") from None


@dataclass(frozen=True)
class Decision(Generic[S, E]):
    """What a `decide` may return instead of its events when it already holds the state
    after them (a decide that evolves a working copy as it emits, so that later rules see
    earlier effects): `execute` then takes `state` instead of folding the events again.
    `state` must be `aggregate.fold(<the state decided on>, events)`: it is returned and
    snapshotted as such (`load(..., rebuild=True)` recomputes it from the log)."""

    events: tuple[E, ...]
    state: S


@dataclass(frozen=True)
class ExecuteResult(Generic[S, E]):
    state: S  # after the events
    events: tuple[E, ...]  # as decided; empty = nothing was written
    step_id: int | None  # None when decide returned no events
    seq: int  # the stream's sequence number after the write
    attempts: int = 1  # decide calls (more than one after a conflict)


@dataclass(frozen=True)
class UndoResult(Generic[S, E]):
    state: S  # without the undone step
    undone_step: int
    undone_events: tuple[E, ...]
    step_id: int  # the undo's own step
    seq: int


@dataclass(frozen=True)
class Step:
    """One step of a stream's history; `events` are the stored dicts (decode them with the
    aggregate's `event_from_dict`). An undo step holds one `{"step": n}` marker; a step
    caused by another stream's step has that `cause` (its marker is not in `events`)."""

    step: int
    kind: str  # "command" | "undo"
    actor_id: int | None
    created_at: datetime
    first_seq: int
    last_seq: int
    events: tuple[dict[str, Any], ...]
    undoes: int | None = None  # kind == "undo": the step it took back
    undone_by: int | None = None  # kind == "command": the undo step that took it back
    cause: dict[str, Any] | None = None  # another stream's step that caused this one


@dataclass(frozen=True)
class StreamInfo:
    game_id: int
    key: str
    aggregate: str
    seq: int
    step: int
    created_at: datetime
    updated_at: datetime
    closed_at: datetime | None

    @property
    def closed(self) -> bool:
        return self.closed_at is not None


def check_key(key: str) -> None:
    if not key or len(key) > KEY_MAX:
        raise ValueError(f"stream key must be 1..{KEY_MAX} characters: {key!r}")
