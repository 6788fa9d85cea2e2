"""One of several processes racing on one game: `python -m tests.support.race_worker URL GAME
SEQ COPIES START_AT` fires COPIES copies of the GM's «deal» (NextTurn, as a board button
sends it: with the seq it showed) at wall-clock START_AT, through its own connection (pool),
and prints {"applied": n, "stale": n, "other": [...]} as JSON."""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time

from engine import savage, services
from engine.services import savage as swade
from engine.services.errors import StaleState
from engine.store.db import close_db, init_db

GM = 5_000_000_001


async def main(url: str, game_id: int, seq: int, copies: int, start_at: float) -> None:
    ctx = await init_db(url)
    rng = random.Random()
    try:
        await asyncio.sleep(max(0.0, start_at - time.time()))
        results = await asyncio.gather(
            *(
                swade.encounter_command(
                    game_id, savage.NextTurn(), actor_id=GM, rng=rng, expected_seq=seq
                )
                for _ in range(copies)
            ),
            return_exceptions=True,
        )
    finally:
        await close_db(ctx)
    applied = sum(isinstance(r, services.CommandOutcome) for r in results)
    stale = sum(isinstance(r, StaleState) for r in results)
    other = [repr(r) for r in results if not isinstance(r, services.CommandOutcome | StaleState)]
    print(json.dumps({"applied": applied, "stale": stale, "other": other}))


if __name__ == "__main__":
    url, game, seq, copies, start_at = sys.argv[1:6]
    asyncio.run(main(url, int(game), int(seq), int(copies), float(start_at)))
