"""Benchmark (issue 3): deal and order a round for 50 combatants, persistence included.

Run: ``uv run python bench/initiative.py [DATABASE_URL] [--rounds N]`` (default: a fresh
SQLite file in a temporary folder; a PostgreSQL URL works too on an empty database).

One measured round is what the bot does on /deal: ``swade.encounter_command(game,
DealRound())`` — the role check, the active encounter lookup and ``aggregates.execute``
(lock, snapshot read, decide: shuffle if needed + 50 deals with Level Headed/Quick/Hesitant,
write ~55 events, head and snapshot; one transaction) — then ``state.order()`` for the
initiative board. The baseline is the pure part alone, ``decide`` + ``evolve`` + ``order()``,
timed right after each persisted round on the state that round started from with the rng
it used (the same deal): both series see the same machine load. Target: median < 20 ms on
SQLite. The load average is printed with the figures (the machine may be shared).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import savage, services
from engine.services import savage as swade
from engine.services.savage.aggregates import ENCOUNTER
from engine.store.db import close_db, init_db, migrate

GM = 5_000_000_001
COMBATANTS = 50
TARGET_MS = 20.0
EDGES = ("Хладнокровие", "Быстрый", "Нерешительный", "Улучшенное хладнокровие", "")


def cast() -> list[savage.Character]:
    """50 single combatants: 12 Wild Cards with initiative edges, 38 Extras."""
    out = []
    for i in range(COMBATANTS):
        wild = i < 12
        edges = f"; Черты: {EDGES[i % len(EDGES)]}" if wild and EDGES[i % len(EDGES)] else ""
        text = (
            f"Боец {i} ({'Дикий' if wild else 'Статист'}) Ловкость d8, Смекалка d6, Дух d8, "
            f"Сила d8, Выносливость d6; Драка d8, Атлетика d6, Внимание d6; "
            f"Защита 6, Стойкость 6 (1){edges}"
        )
        character = savage.parse_sheet(text).character
        out.append(dataclasses.replace(character, id=f"c{i}"))
    return out


def stats(ms: list[float]) -> tuple[float, float]:
    ms = sorted(ms)
    return statistics.median(ms), ms[max(0, int(len(ms) * 0.95) - 1)]


def line(label: str, ms: list[float]) -> str:
    median, p95 = stats(ms)
    return f"{label:<44} median {median:6.2f} ms   p95 {p95:6.2f}   min {min(ms):6.2f}"


def baseline(state: savage.Encounter, rng: random.Random) -> tuple[float, savage.Encounter]:
    """decide + evolve + order() of one deal, without the database: (ms, state after)."""
    t = time.perf_counter()
    events = savage.decide(state, savage.DealRound(), rng)
    after = ENCOUNTER.fold(state, events)
    after.order()
    return (time.perf_counter() - t) * 1000, after


async def main(url: str | None, rounds: int) -> None:
    tmp = tempfile.TemporaryDirectory()
    url = url or f"sqlite://{tmp.name}/bench.sqlite3"
    await migrate(url)
    ctx = await init_db(url)
    try:
        await services.touch_user(GM, "Мастер")
        game = await services.create_game(
            chat_id=-100, topic_id=None, system="savage", name="bench", creator_id=GM
        )
        await swade.start_encounter(game.id, actor_id=GM)
        rng = random.Random(1)
        for c in cast():
            add = savage.AddCombatant(c.id, c.name, (c,))
            await swade.encounter_command(game.id, add, actor_id=GM, rng=rng)

        persisted: list[float] = []
        cpu: list[float] = []  # process CPU time: ~ wall time when the path is CPU-bound
        pure: list[float] = []
        events = 0
        load_before = os.getloadavg()
        for i in range(rounds + 10):  # the first 10 warm up
            before = await swade.current_encounter(game.id)
            assert before is not None
            twin = random.Random()
            twin.setstate(rng.getstate())
            t, c = time.perf_counter(), time.process_time()
            out = await swade.encounter_command(game.id, savage.DealRound(), actor_id=GM, rng=rng)
            board = out.state.order()
            elapsed = (time.perf_counter() - t) * 1000
            used = (time.process_time() - c) * 1000
            assert len(board) == COMBATANTS
            ms, after = baseline(before.state, twin)
            assert after == out.state  # the baseline did the same deal
            if i >= 10:
                persisted.append(elapsed)
                cpu.append(used)
                pure.append(ms)
                events += len(out.events)

        size = len(json.dumps(ENCOUNTER.state_to_dict(before.state), ensure_ascii=False))
        load = " / ".join(
            f"{a:.2f}→{b:.2f}" for a, b in zip(load_before, os.getloadavg(), strict=True)
        )
        print(
            f"database: {url.split('://')[0]}; {COMBATANTS} combatants; {rounds} rounds; "
            f"{events / rounds:.0f} events per deal; state JSON {size / 1024:.1f} KiB"
        )
        print(f"load average 1/5/15 min, start→end: {load} ({os.cpu_count()} CPUs)")
        print(line("deal + order, persisted (encounter_command)", persisted))
        print(line("  of which process CPU time", cpu))
        print(line("baseline: decide + evolve + order (no db)", pure))
        median = stats(persisted)[0]
        verdict = "OK" if median < TARGET_MS else "OVER TARGET"
        ratio = median / stats(pure)[0]
        print(f"persisted / baseline (median): {ratio:.1f}x; target {TARGET_MS:.0f} ms: {verdict}")
    finally:
        await close_db(ctx)
        tmp.cleanup()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", nargs="?", help="DATABASE_URL (default: a temporary SQLite file)")
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    asyncio.run(main(args.url, args.rounds))
