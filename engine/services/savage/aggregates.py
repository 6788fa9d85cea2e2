"""The SWADE engines as event-sourced streams: `ENCOUNTER` (engine.savage, the fight) and
`CHASE` (engine.savage.chase)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import codec, savage
from engine.savage import chase
from engine.savage.chase.events import EVENTS as CHASE_EVENTS
from engine.savage.events import EVENTS as ENCOUNTER_EVENTS
from engine.services.aggregates.model import Aggregate

# The engines' own formats (engine.codec), every adapter built once, at start-up: not in
# the first step a process serves.
_ENCOUNTER = codec.codec(savage.Encounter)
_CHASE = codec.codec(chase.ChaseState)
ENCOUNTER_EVENTS.prepare()
CHASE_EVENTS.prepare()


def _initial_encounter(params: Mapping[str, Any]) -> savage.Encounter:
    return savage.Encounter()


ENCOUNTER: Aggregate[savage.Encounter, savage.Event] = Aggregate(
    name="encounter",
    initial=_initial_encounter,
    evolve=savage.evolve,
    event_to_dict=ENCOUNTER_EVENTS.to_data,  # {"type": <class name>, ...}
    event_from_dict=ENCOUNTER_EVENTS.from_data,
    state_to_dict=_ENCOUNTER.to_data,
    state_from_dict=_ENCOUNTER.from_data,
    state_to_json=_ENCOUNTER.to_json,
    version=1,  # bump when Encounter.to_dict's format changes
    # A fight step (3–4 events) encodes its state only every few steps: the state a step
    # left is kept in memory for the next one (aggregates/states.py); a cold read (a restart,
    # another worker) folds the few events since the snapshot.
    snapshot_every=12,
)


def _initial_chase(params: Mapping[str, Any]) -> chase.ChaseState:
    return chase.ChaseState()


def _chase_event_to_dict(event: chase.Event) -> dict[str, Any]:
    # Chase events are tagged "kind"; the store wants "type" (event_from_dict ignores it).
    data = CHASE_EVENTS.to_data(event)
    return {"type": data["kind"], **data}


CHASE: Aggregate[chase.ChaseState, chase.Event] = Aggregate(
    name="chase",
    initial=_initial_chase,
    evolve=chase.evolve,
    event_to_dict=_chase_event_to_dict,
    event_from_dict=CHASE_EVENTS.from_data,
    state_to_dict=_CHASE.to_data,
    state_from_dict=_CHASE.from_data,
    state_to_json=_CHASE.to_json,
    version=2,  # bump when ChaseState.to_dict's format changes (2: participants' health)
    snapshot_every=1,
)
