"""The stored format of every SWADE event and state: drawn at random with every field set,
each must encode to exactly the documented format (tests/engine/strategies.py `reference`)
and decode back to an equal object, through the engine API and the aggregates."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import savage
from engine.savage import chase
from engine.savage.chase.events import EVENT_TYPES as CHASE_EVENT_TYPES
from engine.savage.events import TurnStarted
from engine.services.savage.aggregates import CHASE, ENCOUNTER
from tests.engine.strategies import reference, register

SETTINGS = settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
STATES = (savage.Encounter, savage.Character, chase.ChaseState)
for cls in (*savage.EVENT_TYPES.values(), *CHASE_EVENT_TYPES.values(), *STATES):
    register(cls)


def same_json(a: Any, b: Any) -> bool:
    """Equal as stored: the same JSON text, key order included."""
    return json.dumps(a, ensure_ascii=False) == json.dumps(b, ensure_ascii=False)


def through_json(data: Any) -> Any:
    return json.loads(json.dumps(data))


@pytest.mark.parametrize("cls", list(savage.EVENT_TYPES.values()), ids=lambda c: c.__name__)
@SETTINGS
@given(data=st.data())
def test_every_encounter_event_round_trips_in_the_stored_format(cls: type, data: Any) -> None:
    event = data.draw(st.from_type(cls))
    stored = ENCOUNTER.event_to_dict(event)
    assert same_json(stored, {"type": cls.__name__, **reference(event)})
    assert same_json(event.to_dict(), stored)
    assert ENCOUNTER.event_from_dict(through_json(stored)) == event
    assert savage.event_from_dict(through_json(stored)) == event


@pytest.mark.parametrize("cls", list(CHASE_EVENT_TYPES.values()), ids=lambda c: c.__name__)
@SETTINGS
@given(data=st.data())
def test_every_chase_event_round_trips_in_the_stored_format(cls: type, data: Any) -> None:
    event = data.draw(st.from_type(cls))
    kind = cls.kind  # type: ignore[attr-defined]
    assert same_json(event.to_dict(), {"kind": kind, **reference(event)})
    stored = CHASE.event_to_dict(event)
    assert same_json(stored, {"type": kind, "kind": kind, **reference(event)})
    assert CHASE.event_from_dict(through_json(stored)) == event
    assert chase.event_from_dict(through_json(event.to_dict())) == event


@pytest.mark.parametrize("cls", STATES, ids=lambda c: c.__name__)
@SETTINGS
@given(data=st.data())
def test_states_round_trip_in_the_stored_format(cls: type, data: Any) -> None:
    state = data.draw(st.from_type(cls))
    stored = state.to_dict()
    assert same_json(stored, reference(state))
    assert cls.from_dict(through_json(stored)) == state  # type: ignore[attr-defined]
    aggregate = {savage.Encounter: ENCOUNTER, chase.ChaseState: CHASE}.get(cls)
    if aggregate is not None:
        assert same_json(aggregate.state_to_dict(state), stored)
        assert aggregate.state_from_dict(through_json(stored)) == state


def test_events_stored_before_a_field_existed_take_its_default() -> None:
    old = {"type": "TurnStarted", "step": 3, "combatant": "ichigo"}  # no "via" yet
    assert savage.event_from_dict(old) == TurnStarted(3, "ichigo", "card")
    resolved = {"kind": "critical_failure_resolved", "step": 2, "pending": "p1", "choice": "x"}
    assert chase.event_from_dict(resolved).participant == ""  # type: ignore[attr-defined]


def test_unknown_types_and_bad_values_are_refused() -> None:
    with pytest.raises(ValueError):
        savage.event_from_dict({"type": "Teleported", "step": 1})
    with pytest.raises(ValueError):
        chase.event_from_dict({"kind": "teleported", "step": 1})
    with pytest.raises(ValueError):  # not a card
        savage.event_from_dict({"type": "DeckShuffled", "step": 1, "order": ["ZZ"], "reason": "x"})
    with pytest.raises(savage.RuleError) as err:  # the engine's own error for a bad die
        savage.Character.from_dict({"id": "a", "name": "A", "skills": [["fighting", "d7"]]})
    assert err.value.code == "sheet_bad_die"
