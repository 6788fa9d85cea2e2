"""The duel engine (engine/duel) as an event-sourced stream: one stream per duel, keyed by
the forum topic it runs in ("duel:<topic>:<n>", topic 0 outside forums), so a game holds one
open duel per topic and any number over its topics. The stream's params hold the duel's
first state (both fighters, their owners and the readings); the events do the rest."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import codec
from engine.duel import EVENTS, DuelState, Event, evolve
from engine.services.aggregates.model import Aggregate

_STATE = codec.codec(DuelState)
EVENTS.prepare()


def _initial(params: Mapping[str, Any]) -> DuelState:
    return _STATE.from_data(params["initial"])


DUEL: Aggregate[DuelState, Event] = Aggregate(
    name="duel",
    initial=_initial,
    evolve=evolve,
    event_to_dict=EVENTS.to_data,  # {"type": <class name>, ...}
    event_from_dict=EVENTS.from_data,
    state_to_dict=_STATE.to_data,
    state_from_dict=_STATE.from_data,
    version=1,  # bump when DuelState's stored format changes
    snapshot_every=1,
)


def prefix(thread: int) -> str:
    return f"{DUEL.name}:{int(thread)}:"


def thread_of(key: str) -> int:
    """The topic of a duel's stream key ("duel:<topic>:<n>")."""
    return int(key.split(":")[1])
