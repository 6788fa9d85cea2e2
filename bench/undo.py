"""Benchmark: undo and history of a stream as it ages (10, 300 and 3,000 steps).

Run: ``uv run python bench/undo.py [DATABASE_URL] [--sizes 10,300,3000] [--runs 15]``
(default: a fresh SQLite file in a temporary folder; a PostgreSQL URL works too — give it an
empty database, the games it creates are left behind).

Two subjects, each on new streams of every size:

- "synthetic": bench/aggregates.py's aggregate, sized like a 50-combatant encounter (20 KiB
  of state JSON, a "damage" command deciding two events, a snapshot after every command),
  through `aggregates.execute` / `undo_last_step` / `load`;
- "encounter": the real SWADE encounter of 12 combatants (bench/initiative.py's cast)
  through the services the bot calls: `encounter_command(NextTurn())` (a new round is
  dealt when everyone has acted), `undo_encounter` (which also looks for chase steps to
  take back), `current_encounter`.

Reported per size (medians of `--runs` runs, ms):

- execute: one plain command, the baseline of the same run and database;
- undo: an undo of the newest command (each followed by an untimed command, so the stream
  keeps its size);
- walk: one of 20 consecutive undos (repeated undos walk further back), then as many
  commands to come back;
- history: `history()` of the whole stream (audits; fewer runs at the larger sizes), and
  `history(last=8)`, the newest 8 steps, where the store offers it;
- load: `load()` (snapshot at the head) / `current_encounter`;
- board: "encounter" only, what the Mini App reads per change of the encounter
  (`webapp.systems.savage.scenes.load_encounter`: the state and the log of its newest steps).
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.aggregates import GM, KEY, damage, make
from bench.initiative import cast
from engine import savage, services
from engine.services import aggregates as agg
from engine.services import savage as swade
from engine.store.db import close_db, init_db, migrate
from webapp.systems.savage.scenes import load_encounter

WALK = 20
LAST = 8
FIGHTERS = 12


@dataclass
class Subject:
    game_id: int
    key: str
    command: Callable[[], Awaitable[Any]]
    undo: Callable[[], Awaitable[Any]]
    load: Callable[[], Awaitable[Any]]
    board: Callable[[], Awaitable[Any]] | None = None


async def synthetic(game_id: int, seed: int) -> Subject:
    aggregate, rng = make(1), random.Random(seed)
    return Subject(
        game_id,
        KEY,
        lambda: agg.execute(aggregate, game_id, KEY, damage(rng), actor_id=GM),
        lambda: agg.undo_last_step(aggregate, game_id, KEY, actor_id=GM),
        lambda: agg.load(aggregate, game_id, KEY),
    )


async def encounter(game_id: int, seed: int) -> Subject:
    view = await swade.start_encounter(game_id, actor_id=GM)
    rng = random.Random(seed)
    for c in cast()[:FIGHTERS]:
        add = savage.AddCombatant(c.id, c.name, (c,))
        await swade.encounter_command(game_id, add, actor_id=GM, rng=rng)
    return Subject(
        game_id,
        view.stream,
        lambda: swade.encounter_command(game_id, savage.NextTurn(), actor_id=GM, rng=rng),
        lambda: swade.undo_encounter(game_id, actor_id=GM),
        lambda: swade.current_encounter(game_id),
        lambda: load_encounter(game_id),
    )


SUBJECTS = {"synthetic": synthetic, "encounter": encounter}


def loadavg() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


async def timed(fn: Callable[[], Awaitable[Any]]) -> float:
    t = time.perf_counter()
    await fn()
    return (time.perf_counter() - t) * 1000


def median(ms: list[float]) -> str:
    return f"{statistics.median(ms):9.2f}" if ms else f"{'-':>9}"


async def measure(make_subject: Any, size: int, runs: int, chat: int) -> str:
    game = await services.create_game(
        chat_id=chat, topic_id=None, system="savage", name="b", creator_id=GM
    )
    it: Subject = await make_subject(game.id, size)
    for _ in range(size):
        await it.command()
    execute_ms = [await timed(it.command) for _ in range(runs)]
    undo_ms = []
    for _ in range(runs):
        undo_ms.append(await timed(it.undo))
        await it.command()
    walk = min(WALK, size // 2)
    walk_ms = [await timed(it.undo) for _ in range(walk)]
    for _ in range(walk):
        await it.command()
    full_runs = max(3, runs // (1 + size // 300))
    history_ms = [await timed(lambda: agg.history(game.id, it.key)) for _ in range(full_runs)]
    last_ms: list[float] = []
    if "last" in inspect.signature(agg.history).parameters:
        last_ms = [
            await timed(lambda: agg.history(game.id, it.key, last=LAST)) for _ in range(runs)
        ]
    load_ms = [await timed(it.load) for _ in range(runs)]
    board_ms = [await timed(it.board) for _ in range(runs)] if it.board else []
    columns = (execute_ms, undo_ms, walk_ms, history_ms, last_ms, load_ms, board_ms)
    return f"{size:>6}" + "".join(median(c) for c in columns)


async def main(url: str | None, subjects: list[str], sizes: list[int], runs: int) -> None:
    tmp = tempfile.TemporaryDirectory()
    url = url or f"sqlite://{tmp.name}/bench.sqlite3"
    await migrate(url)
    ctx = await init_db(url)
    try:
        await services.touch_user(GM, "Мастер")
        print(f"database: {url.split('://')[0]}; medians of {runs} runs, ms")
        print(f"load average 1/5/15 min at start: {loadavg()} ({os.cpu_count()} CPUs)")
        header: tuple[str, ...] = ("steps", "execute", "undo", f"walk {WALK}", "history")
        header += (f"last {LAST}",)
        header += ("load", "board")
        chat = -200
        for name in subjects:
            print(f"{name}:")
            print(f"{header[0]:>6}" + "".join(f"{h:>9}" for h in header[1:]))
            for size in sizes:
                chat -= 1
                print(await measure(SUBJECTS[name], size, runs, chat), flush=True)
        print(f"load average 1/5/15 min at the end: {loadavg()}")
    finally:
        await close_db(ctx)
        tmp.cleanup()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("url", nargs="?")
    parser.add_argument("--subjects", default=",".join(SUBJECTS))
    parser.add_argument("--sizes", default="10,300,3000")
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    asyncio.run(main(args.url, args.subjects.split(","), sizes, args.runs))
