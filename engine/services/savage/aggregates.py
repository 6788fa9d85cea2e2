"""The SWADE engines as event-sourced streams: `ENCOUNTER` (engine.savage, the fight) and
`CHASE` (engine.savage.chase)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import savage
from engine.savage import chase
from engine.services.aggregates.model import Aggregate
from engine.services.savage.codec import (
    encounter_from_dict,
    encounter_to_dict,
    event_from_dict,
    event_to_dict,
)


def _initial_encounter(params: Mapping[str, Any]) -> savage.Encounter:
    return savage.Encounter()


ENCOUNTER: Aggregate[savage.Encounter, savage.Event] = Aggregate(
    name="encounter",
    initial=_initial_encounter,
    evolve=savage.evolve,
    # The engine's own format (serial.py), through a faster compiled codec.
    event_to_dict=event_to_dict,  # {"type": <class name>, ...}
    event_from_dict=event_from_dict,
    state_to_dict=encounter_to_dict,
    state_from_dict=encounter_from_dict,
    version=1,  # bump when Encounter.to_dict's format changes
    snapshot_every=1,
)


def _initial_chase(params: Mapping[str, Any]) -> chase.ChaseState:
    return chase.ChaseState()


def _chase_event_to_dict(event: chase.Event) -> dict[str, Any]:
    # Chase events are tagged "kind"; the store wants "type" (event_from_dict ignores it).
    data = event.to_dict()
    return {"type": data["kind"], **data}


CHASE: Aggregate[chase.ChaseState, chase.Event] = Aggregate(
    name="chase",
    initial=_initial_chase,
    evolve=chase.evolve,
    event_to_dict=_chase_event_to_dict,
    event_from_dict=chase.event_from_dict,
    state_to_dict=chase.ChaseState.to_dict,
    state_from_dict=chase.ChaseState.from_dict,
    version=2,  # bump when ChaseState.to_dict's format changes (2: participants' health)
    snapshot_every=1,
)
