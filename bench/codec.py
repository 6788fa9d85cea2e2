"""Benchmark: the JSON codec of the SWADE aggregates, without the database.

Run: ``uv run python bench/codec.py [--runs N]``.

Subjects (µs per call: the best and the median of ``--runs`` runs; on a shared machine the
best is the steadier figure): the state of a 50-combatant encounter
after a few rounds (bench/initiative.py's cast, ~40 KiB of JSON) — `state_to_dict` and
`state_from_dict` of `ENCOUNTER`, what every step writes and every load reads — and the
events of those rounds (event_to_dict / event_from_dict per event), a chase state with its
events, and the dice results of /r, /t and /dmg (`to_dict`, `result_from_dict`).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.initiative import cast
from engine import dice, savage
from engine.savage import chase
from engine.savage import dice as savage_dice
from engine.services.savage.aggregates import CHASE, ENCOUNTER


def per_call(fn: Callable[[], Any], n: int, runs: int) -> tuple[float, float]:
    """(best, median) µs per call over `runs` runs of `n` calls."""
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        times.append((time.perf_counter() - t) / n * 1e6)
    return min(times), statistics.median(times)


def each(timing: tuple[float, float], count: int) -> tuple[float, float]:
    return timing[0] / count, timing[1] / count


def encounter() -> tuple[savage.Encounter, list[savage.Event]]:
    rng = random.Random(1)
    state, events = savage.Encounter(), []
    for c in cast():
        events += savage.decide(state, savage.AddCombatant(c.id, c.name, (c,)), rng)
        state = ENCOUNTER.fold(state, events[-1:])
    for _ in range(120):
        new = savage.decide(state, savage.NextTurn(), rng)
        acting = ENCOUNTER.fold(state, new).acting
        if acting is not None and state.round < 3:
            try:
                target = state.combatants[-1].id
                new += savage.decide(
                    ENCOUNTER.fold(state, new), savage.Attack(acting.id, target), rng
                )
            except savage.RuleError:
                pass
        state = ENCOUNTER.fold(state, new)
        events += new
        if state.pending is not None:
            more = savage.decide(state, savage.AcceptDamage(state.pending.character), rng)
            state, events = ENCOUNTER.fold(state, more), events + list(more)
    return state, events


def a_chase() -> tuple[chase.ChaseState, list[chase.Event]]:
    rng = random.Random(2)
    state: chase.ChaseState = chase.ChaseState()
    events: list[chase.Event] = []
    commands: list[Any] = [chase.StartChase(cards=12)]
    commands += [chase.AddParticipant(f"p{i}", "ab"[i % 2], i, die=8) for i in range(8)]
    commands += [chase.StartRound()]
    for command in commands:
        new = chase.decide(state, command, rng)
        state, events = CHASE.fold(state, new), events + list(new)
    return state, events


def main(runs: int) -> None:
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    state, events = encounter()
    blob = ENCOUNTER.state_to_dict(state)
    assert ENCOUNTER.state_from_dict(blob) == state
    rows = [ENCOUNTER.event_to_dict(e) for e in events]
    size = len(json.dumps(blob, ensure_ascii=False))
    print(f"encounter: {len(state.combatants)} combatants, {size} chars, {len(events)} events")
    report = {
        "encounter state_to_dict": per_call(lambda: ENCOUNTER.state_to_dict(state), 20, runs),
        "encounter state_from_dict": per_call(lambda: ENCOUNTER.state_from_dict(blob), 20, runs),
        "Encounter.to_dict (engine API)": per_call(state.to_dict, 20, runs),
        "Encounter.from_dict (engine API)": per_call(
            lambda: savage.Encounter.from_dict(blob), 20, runs
        ),
        "encounter events to_dict (per event)": each(
            per_call(lambda: [ENCOUNTER.event_to_dict(e) for e in events], 2, runs), len(events)
        ),
        "encounter events from_dict (per event)": each(
            per_call(lambda: [ENCOUNTER.event_from_dict(r) for r in rows], 2, runs), len(events)
        ),
    }
    cstate, cevents = a_chase()
    cblob = CHASE.state_to_dict(cstate)
    crows = [CHASE.event_to_dict(e) for e in cevents]
    report |= {
        "chase state_to_dict": per_call(lambda: CHASE.state_to_dict(cstate), 200, runs),
        "chase state_from_dict": per_call(lambda: CHASE.state_from_dict(cblob), 200, runs),
        "chase events to_dict (per event)": each(
            per_call(lambda: [CHASE.event_to_dict(e) for e in cevents], 50, runs), len(cevents)
        ),
        "chase events from_dict (per event)": each(
            per_call(lambda: [CHASE.event_from_dict(r) for r in crows], 50, runs), len(cevents)
        ),
    }
    rng = random.Random(3)
    results = [
        dice.roll("6#4d6kh3+2", rng),
        savage_dice.trait("d8+1 -2 цн 6", rng),
        savage_dice.damage("2d6+1 vs 6 подъём", rng),
    ]
    dicts = [r.to_dict() for r in results]
    report |= {
        "dice to_dict (/r, /t, /dmg)": per_call(lambda: [r.to_dict() for r in results], 200, runs),
        "dice result_from_dict (/r, /t, /dmg)": per_call(
            lambda: [dice.result_from_dict(d) for d in dicts], 200, runs
        ),
    }
    print(f"{'':<42} {'best':>9} {'median':>9}")
    for label, (best, median) in report.items():
        print(f"{label:<42} {best:9.1f} {median:9.1f} µs")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    main(parser.parse_args().runs)
