"""Every chase event has one description (or is declared silent), filled by its params."""

from __future__ import annotations

import json
import random

from engine import describe
from engine.savage.chase import (
    EVENT_TYPES,
    AddParticipant,
    ChaseError,
    ChaseOptions,
    ChaseState,
    StartChase,
    decide,
    replay,
)
from engine.savage.chase import describe as d

from .test_log import _random_command

SURFACE_KINDS = {describe.NAME, describe.CARD, d.CARD_FACE, d.MANEUVER_ROLL}


def test_every_event_type_is_described_or_silent() -> None:
    assert set(EVENT_TYPES.values()) == d.DESCRIBED | d.SILENT
    assert not d.DESCRIBED & d.SILENT


def test_the_descriptions_of_random_chases_fill_their_templates() -> None:
    seen: set[str] = set()
    for seed in range(20):
        rng = random.Random(seed)
        state = ChaseState()
        log = list(decide(state, StartChase(ChaseOptions(round_limit=6)), rng))
        state = replay(log)
        for i, (pid, side) in enumerate([("a", "quarry"), ("b", "quarry"), ("c", "pursuers")]):
            events = decide(state, AddParticipant(pid, side, i * 3), rng)
            log += events
            state = replay(events, state)
        for _ in range(150):
            if state.ended:
                break
            try:
                events = decide(state, _random_command(rng, state), rng)
            except ChaseError:
                continue
            log += events
            state = replay(events, state)
        for event in log:
            description = d.describe_event(event)
            if description is None:
                assert type(event) in d.SILENT
                continue
            code, params = description.code, dict(description.params)
            used = describe.placeholders(description.template)
            assert describe.known(code) and used <= set(params), code
            assert json.loads(json.dumps(params)) == params
            for key in used:
                kind = describe.kind_of(code, key)
                if kind is not None and kind.startswith(describe.LABEL):
                    label = describe.label_code(kind.removeprefix(describe.LABEL), params[key])
                    assert label.split(".")[1] == params[key], (code, params[key])
                else:
                    assert kind is None or kind in SURFACE_KINDS, (code, key)
            seen.add(code)
    assert {"chase_event.started", "chase_event.joined", "chase_event.turn_started"} <= seen
    assert len(seen) >= 12, sorted(seen)
