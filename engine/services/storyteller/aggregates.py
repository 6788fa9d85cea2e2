"""The Storyteller fight (engine.storyteller) as an event-sourced stream: `FIGHT`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import codec
from engine.services.aggregates.model import Aggregate
from engine.storyteller.events import EVENTS, Event
from engine.storyteller.evolve import evolve
from engine.storyteller.fight import Fight
from engine.storyteller.options import Options

_FIGHT = codec.codec(Fight)  # built once, at start-up
EVENTS.prepare()


def _initial(params: Mapping[str, Any]) -> Fight:
    """A new fight with the options its game had when it began (the stream's params)."""
    stored = params.get("options")
    return Fight(options=Options.from_dict(stored)) if stored else Fight()


FIGHT: Aggregate[Fight, Event] = Aggregate(
    name="st_fight",
    initial=_initial,
    evolve=evolve,
    event_to_dict=EVENTS.to_data,  # {"type": <class name>, ...}
    event_from_dict=EVENTS.from_data,
    state_to_dict=_FIGHT.to_data,
    state_from_dict=_FIGHT.from_data,
    version=1,  # bump when Fight's stored format changes
    snapshot_every=1,
)
