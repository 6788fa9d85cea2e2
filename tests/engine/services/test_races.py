"""Racing copies of one step: exactly one is applied, every other is refused as stale, and
the stored state is what a replay of the log gives — in one process, and across two
processes with their own connections (what several workers are), on SQLite and PostgreSQL
(`./scripts/test` runs this module on both)."""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from pathlib import Path

from engine import services
from engine.savage import NextTurn
from engine.services import aggregates as agg
from engine.services import savage as swade
from engine.services.errors import StaleState
from tests.engine.services.conftest import GM
from tests.engine.services.savage.test_encounters import add_cast

ROOT = Path(__file__).resolve().parents[3]


async def fight(game: services.GameInfo) -> int:
    """A fight of four, not dealt yet; the seq a board shows for it."""
    await swade.save_character(game.id, "Ичиго (Дикий) Ловкость d8, Драка d10", actor_id=GM)
    for name in ("Рукия", "Гриммджо", "Пустой"):
        await swade.save_character(game.id, f"{name} Драка d6", actor_id=GM)
    await swade.start_encounter(game.id, actor_id=GM)
    await add_cast(game.id, random.Random(1))
    view = await swade.current_encounter(game.id)
    assert view is not None and view.state.round == 0
    return view.seq


async def consistent(game_id: int) -> swade.EncounterView:
    view = await swade.current_encounter(game_id)
    assert view is not None
    replayed = await agg.load(swade.ENCOUNTER, game_id, view.stream, rebuild=True)
    assert replayed == (view.state, view.seq)
    return view


async def test_a_hundred_racing_deals_in_one_process_apply_once(
    game: services.GameInfo,
) -> None:
    seq = await fight(game)
    rng = random.Random(2)
    results = await asyncio.gather(
        *(
            swade.encounter_command(game.id, NextTurn(), actor_id=GM, rng=rng, expected_seq=seq)
            for _ in range(100)
        ),
        return_exceptions=True,
    )
    applied = [r for r in results if isinstance(r, services.CommandOutcome)]
    stale = [r for r in results if isinstance(r, StaleState)]
    assert (len(applied), len(stale)) == (1, 99), [r for r in results if r not in applied + stale]
    view = await consistent(game.id)
    assert view.state.round == 1 and view.seq == applied[0].seq


async def test_a_hundred_racing_deals_from_two_processes_apply_once(
    game: services.GameInfo, db_url_of_current: str
) -> None:
    seq = await fight(game)
    start_at = time.time() + 3.0  # both interpreters imported and connected by then
    workers = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.support.race_worker",
            db_url_of_current,
            str(game.id),
            str(seq),
            "50",
            str(start_at),
            cwd=ROOT,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        for _ in range(2)
    ]
    reports = []
    for worker in workers:
        out, err = await asyncio.wait_for(worker.communicate(), 120)
        assert worker.returncode == 0, err.decode()
        reports.append(json.loads(out.decode().strip().splitlines()[-1]))
    assert [r["other"] for r in reports] == [[], []], reports
    assert sum(r["applied"] for r in reports) == 1, reports
    assert sum(r["stale"] for r in reports) == 99, reports
    view = await consistent(game.id)
    assert view.state.round == 1
    steps = await agg.history(game.id, view.stream)
    assert sum(1 for s in steps if any(e["type"] == "RoundStarted" for e in s.events)) == 1
