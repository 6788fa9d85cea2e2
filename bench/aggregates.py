"""Benchmark: `engine.services.aggregates.execute` of one command on a 50-combatant state.

Run: ``uv run python bench/aggregates.py [DATABASE_URL]`` (default: a fresh SQLite file in a
temporary folder; a PostgreSQL URL works too — its tables are reused, so give it an empty db).

The aggregate is synthetic (the real engines are still moving) but sized like an encounter:
50 combatants with ~20 fields each, conditions and traits; a command is "damage one combatant"
deciding two events. Reported: wall time per execute() (load snapshot + tail, decide, write
events, head and snapshot; one transaction), with a snapshot after every command and after
every 25, the pure-Python share of that, load() and undo_last_step(), and the SQL statements
one execute() sends (besides BEGIN/COMMIT), counted from Tortoise's db_client log.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import services
from engine.services import aggregates as agg
from engine.store.db import close_db, init_db, migrate

GM = 5_000_000_001
KEY = "encounter:1"


@dataclass(frozen=True)
class Combatant:
    id: str
    name: str
    wild_card: bool
    agility: str
    smarts: str
    spirit: str
    strength: str
    vigor: str
    skills: tuple[tuple[str, str], ...]
    pace: int
    parry: int
    toughness: int
    armor: int
    wounds: int = 0
    fatigue: int = 0
    shaken: bool = False
    stunned: bool = False
    bennies: int = 0
    card: str | None = None
    on_hold: bool = False
    conditions: tuple[str, ...] = ()


@dataclass(frozen=True)
class Encounter:
    round: int = 0
    turn: int = 0
    combatants: tuple[Combatant, ...] = ()


@dataclass(frozen=True)
class Damaged:
    target: int
    roll: tuple[int, ...]
    wounds: int


@dataclass(frozen=True)
class TurnPassed:
    pass


def _initial(params: Any) -> Encounter:
    people = tuple(
        Combatant(
            id=f"c{i}",
            name=f"Синигами №{i}",
            wild_card=i < 6,
            agility="d8",
            smarts="d6",
            spirit="d8",
            strength="d6",
            vigor="d8",
            skills=tuple((s, "d6") for s in ("Драка", "Стрельба", "Внимание", "Запугивание")),
            pace=6,
            parry=6,
            toughness=7,
            armor=1,
            bennies=2 if i < 6 else 0,
            card="AS",
            conditions=("distracted",) if i % 7 == 0 else (),
        )
        for i in range(50)
    )
    return Encounter(combatants=people)


def _evolve(state: Encounter, event: Any) -> Encounter:
    if isinstance(event, Damaged):
        people = list(state.combatants)
        c = people[event.target]
        people[event.target] = replace(c, wounds=min(c.wounds + event.wounds, 4), shaken=True)
        return replace(state, combatants=tuple(people))
    return replace(state, turn=(state.turn + 1) % 50, round=state.round + (state.turn == 49))


def _event_to_dict(e: Any) -> dict[str, Any]:
    return {"type": type(e).__name__, **asdict(e)}


def _event_from_dict(d: dict[str, Any]) -> Any:
    if d["type"] == "Damaged":
        return Damaged(d["target"], tuple(d["roll"]), d["wounds"])
    return TurnPassed()


def _state_to_dict(state: Encounter) -> dict[str, Any]:
    # Hand-written: dataclasses.asdict alone costs ~3.4 ms on this state (deep copies).
    people = [
        {**vars(c), "skills": [list(s) for s in c.skills], "conditions": list(c.conditions)}
        for c in state.combatants
    ]
    return {"round": state.round, "turn": state.turn, "combatants": people}


def _state_from_dict(d: dict[str, Any]) -> Encounter:
    people = tuple(
        Combatant(
            **{
                **c,
                "skills": tuple(tuple(s) for s in c["skills"]),
                "conditions": tuple(c["conditions"]),
            }
        )
        for c in d["combatants"]
    )
    return Encounter(d["round"], d["turn"], people)


def make(snapshot_every: int) -> agg.Aggregate[Encounter, Any]:
    return agg.Aggregate(
        name="bench",
        initial=_initial,
        evolve=_evolve,
        event_to_dict=_event_to_dict,
        event_from_dict=_event_from_dict,
        state_to_dict=_state_to_dict,
        state_from_dict=_state_from_dict,
        snapshot_every=snapshot_every,
    )


def damage(rng: random.Random) -> Callable[[Encounter], list[Any]]:
    def decide(state: Encounter) -> list[Any]:
        target = rng.randrange(len(state.combatants))
        roll = (rng.randint(1, 8), rng.randint(1, 6))
        wounds = max(0, (sum(roll) - state.combatants[target].toughness) // 4)
        return [Damaged(target, roll, wounds), TurnPassed()]

    return decide


async def timed(fn: Callable[[], Awaitable[Any]], n: int) -> list[float]:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        await fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def summary(ms: list[float]) -> str:
    ms = sorted(ms)
    p95 = ms[int(len(ms) * 0.95) - 1]
    median, mean = statistics.median(ms), statistics.mean(ms)
    return f"median {median:6.2f} ms  mean {mean:6.2f}  p95 {p95:6.2f}"


class Statements(logging.Handler):
    """Counts the statements Tortoise's clients log (every execute_*; not BEGIN/COMMIT)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.kinds: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.kinds.append(record.getMessage().split(None, 1)[0].upper())


async def statements(fn: Callable[[], Awaitable[Any]]) -> list[str]:
    logger = logging.getLogger("tortoise.db_client")
    handler, level = Statements(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        await fn()
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    return handler.kinds


def pure_share(aggregate: agg.Aggregate[Encounter, Any], rng: random.Random, n: int) -> float:
    """CPU per command without the database: decode snapshot, decide, evolve, encode."""
    blob = aggregate.state_to_dict(aggregate.initial({}))
    t = time.perf_counter()
    for _ in range(n):
        state = aggregate.state_from_dict(blob)
        events = damage(rng)(state)
        rows = [aggregate.event_to_dict(e) for e in events]
        blob = aggregate.state_to_dict(aggregate.fold(state, events))
        json.dumps([rows, blob])  # what the JSON fields do on the way in
    return (time.perf_counter() - t) * 1000 / n


async def main(url: str | None) -> None:
    tmp = tempfile.TemporaryDirectory()
    url = url or f"sqlite://{tmp.name}/bench.sqlite3"
    await migrate(url)
    ctx = await init_db(url)
    try:
        await services.touch_user(GM, "Мастер")
        rng = random.Random(1)
        size = len(json.dumps(make(1).state_to_dict(_initial({})), ensure_ascii=False))
        print(f"database: {url.split('://')[0]}; state JSON: {size / 1024:.1f} KiB, 50 combatants")
        load = "/".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"load average 1/5/15 min at start: {load} ({os.cpu_count()} CPUs)")
        for every in (1, 25):
            game = await services.create_game(
                chat_id=-100 - every, topic_id=None, system="savage", name="b", creator_id=GM
            )
            aggregate = make(every)

            def run(a: agg.Aggregate[Encounter, Any] = aggregate, g: int = game.id) -> Any:
                return agg.execute(a, g, KEY, damage(rng), actor_id=GM)

            await timed(run, 20)  # warm-up (also creates the stream)
            ms = await timed(run, 300)
            print(f"execute, snapshot every {every:>2}: {summary(ms)}")
            if every == 1:
                sent = await statements(run)
                print(f"  statements per execute: {len(sent)} ({', '.join(sent)})")
            ms = await timed(lambda a=aggregate, g=game.id: agg.load(a, g, KEY), 100)
            print(f"load,    snapshot every {every:>2}: {summary(ms)}")
        ms = await timed(lambda: agg.undo_last_step(aggregate, game.id, KEY, actor_id=GM), 20)
        print(f"undo_last_step after ~320 steps (from a checkpoint): {summary(ms)}")
        print(f"pure part of one command (no database): {pure_share(make(1), rng, 300):.2f} ms")
    finally:
        await close_db(ctx)
        tmp.cleanup()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else None))
