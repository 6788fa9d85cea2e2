"""`CHASE`: the pure SWADE chase engine (`engine.savage.chase`) as an event-sourced stream."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.savage import chase
from engine.services.aggregates.model import Aggregate, register_aggregate


def _initial(params: Mapping[str, Any]) -> chase.ChaseState:
    return chase.ChaseState()


def _event_to_dict(event: chase.Event) -> dict[str, Any]:
    # Chase events are tagged "kind"; the store wants "type" (event_from_dict ignores it).
    data = event.to_dict()
    return {"type": data["kind"], **data}


CHASE: Aggregate[chase.ChaseState, chase.Event] = register_aggregate(
    Aggregate(
        name="chase",
        initial=_initial,
        evolve=chase.evolve,
        event_to_dict=_event_to_dict,
        event_from_dict=chase.event_from_dict,
        state_to_dict=chase.ChaseState.to_dict,
        state_from_dict=chase.ChaseState.from_dict,
        version=2,  # bump when ChaseState.to_dict's format changes (2: participants' health)
        snapshot_every=1,
    )
)
