"""`ENCOUNTER`: the pure SWADE combat engine (`engine.savage`) as an event-sourced stream."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import savage
from engine.services.aggregates.model import Aggregate, register_aggregate
from engine.services.encounters_codec import (
    encounter_from_dict,
    encounter_to_dict,
    event_from_dict,
    event_to_dict,
)


def _initial(params: Mapping[str, Any]) -> savage.Encounter:
    return savage.Encounter()


ENCOUNTER: Aggregate[savage.Encounter, savage.Event] = register_aggregate(
    Aggregate(
        name="encounter",
        initial=_initial,
        evolve=savage.evolve,
        # The engine's own format (serial.py), through a faster compiled codec.
        event_to_dict=event_to_dict,  # {"type": <class name>, ...}
        event_from_dict=event_from_dict,
        state_to_dict=encounter_to_dict,
        state_from_dict=encounter_from_dict,
        version=1,  # bump when Encounter.to_dict's format changes
        snapshot_every=1,
    )
)
