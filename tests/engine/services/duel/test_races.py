"""Exactly once (the issue's item 8): 1,000 concurrent submissions and publish requests at
one turn — one submission is accepted, the turn is published once, every other request is
refused with the reason it lost, and the stored duel is what a replay of its log gives.
`./scripts/test` runs this module on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import random

from engine import duel
from engine.dice.rng import ScriptedRng
from engine.services import aggregates as agg
from engine.services import duel as duels
from engine.services.errors import StaleState
from engine.services.scenes import CommandOutcome
from tests.engine.duel.six_turns import TURNS
from tests.engine.services.conftest import ALICE, BOB, GM

from .conftest import TOPIC

REQUESTS = 1000


async def test_a_thousand_racing_submissions_and_publications_resolve_one_turn_once(
    duel_game,
) -> None:
    rng = random.Random(8)
    await duels.start_duel(duel_game.id, thread=TOPIC, a="Бьорн", b="Такеда", actor_id=GM, rng=rng)
    a, fa, b, _ = TURNS[0]
    await duels.submit_turn(
        duel_game.id, TOPIC, fighter="a", actions=a, turn=1, actor_id=ALICE, rng=ScriptedRng(fa)
    )

    async def submission() -> duels.DuelOutcome:
        # the dice of a copy are its own: each copy that wins would seal other faces
        return await duels.submit_turn(
            duel_game.id, TOPIC, fighter="b", actions=b, turn=1, actor_id=BOB, rng=rng
        )

    async def publication() -> duels.DuelOutcome:
        return await duels.publish_turn(duel_game.id, TOPIC, turn=1, actor_id=GM, rng=rng)

    calls = [submission() if i % 2 else publication() for i in range(REQUESTS)]
    results = await asyncio.gather(*calls, return_exceptions=True)
    kinds: dict[str, int] = {}
    for r in results:
        if isinstance(r, CommandOutcome):
            key = type(r.events[0]).__name__
        elif isinstance(r, duel.DuelError | StaleState):
            key = r.code
        else:
            raise AssertionError(r)
        kinds[key] = kinds.get(key, 0) + 1
    assert kinds.get("Submitted") == 1 and kinds.get("TurnPublished") == 1, kinds
    # the rest lost for a reason: before the submission, after it, after the publication
    assert set(kinds) <= {
        "Submitted",
        "TurnPublished",
        "missing_submission",
        "both_in",
        "wrong_turn",
    }
    assert sum(kinds.values()) == REQUESTS
    view = await duels.current_duel(duel_game.id, TOPIC)
    assert view is not None and view.state.turn == 2 and len(view.state.history) == 1
    steps = await agg.history(duel_game.id, view.stream)
    types = [e["type"] for s in steps for e in s.events]
    # the second seal's step draws the seeded turn's dice (DiceDrawn), once
    assert types == ["Configured", "Submitted", "Submitted", "DiceDrawn", "TurnPublished"]
    assert await agg.load(duels.DUEL, duel_game.id, view.stream, rebuild=True) == (
        view.state,
        view.seq,
    )


async def test_duels_started_at_once_in_one_topic_start_one(duel_game) -> None:
    """The topic's open duel is read after the game's lock is taken, on PostgreSQL too
    (a start that waited for it sees the duel the other one started)."""
    starts = [
        duels.start_duel(
            duel_game.id, thread=TOPIC, a="Бьорн", b="Такеда", actor_id=GM, rng=random.Random(i)
        )
        for i in range(5)
    ]
    results = await asyncio.gather(*starts, return_exceptions=True)
    started = [r for r in results if isinstance(r, CommandOutcome)]
    refused = [getattr(r, "code", r) for r in results if not isinstance(r, CommandOutcome)]
    assert len(started) == 1 and refused == ["duel_active"] * 4, refused
    open_duels = [v for v in await duels.open_duels(duel_game.id) if not v.state.over]
    assert [v.stream for v in open_duels] == [started[0].stream]
