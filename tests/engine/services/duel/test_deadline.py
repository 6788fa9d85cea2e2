"""A duel's deadline over the store, with a fixed clock: kept with the duel (so the loop of a
restarted process finds it), passed once however many passes race, the default defense."""

from __future__ import annotations

import asyncio
import random

import pytest

from engine import duel
from engine.dice.rng import ScriptedRng
from engine.services import duel as duels
from tests.engine.duel.six_turns import TURNS
from tests.engine.services.conftest import ALICE, BOB, GM

from .conftest import TOPIC

T0 = 1_800_000_000.0
DAY = 24 * 3600.0


async def _started(game_id: int) -> None:
    await duels.start_duel(
        game_id, thread=TOPIC, a="Бьорн", b="Такеда", actor_id=GM, rng=random.Random(1)
    )
    await duels.set_deadline(
        game_id, TOPIC, hours=24, policy="ask", actor_id=GM, rng=random.Random(1), now=T0
    )
    a, fa, _, _ = TURNS[0]
    await duels.submit_turn(
        game_id, TOPIC, fighter="a", actions=a, turn=1, actor_id=ALICE, rng=ScriptedRng(fa)
    )


async def test_the_deadline_is_stored_and_passed_once(duel_game) -> None:
    await _started(duel_game.id)
    with pytest.raises(duel.DuelError):  # only the GM sets it
        await duels.set_deadline(
            duel_game.id, TOPIC, hours=1, actor_id=ALICE, rng=random.Random(1), now=T0
        )
    assert await duels.due_duels(T0 + DAY - 1) == []
    [due] = await duels.due_duels(T0 + DAY)
    assert due.state.missing() == ("b",) and due.state.deadline == duel.Deadline(24, "ask")

    async def attempt() -> bool:
        try:
            out = await duels.pass_deadline(
                duel_game.id, TOPIC, turn=1, now=T0 + DAY, rng=random.Random(2)
            )
        except duel.DuelError as refused:
            assert refused.code == "deadline_not_due"
            return False
        assert out is not None
        return True

    results = await asyncio.gather(*(attempt() for _ in range(20)))
    assert results.count(True) == 1
    assert await duels.due_duels(T0 + 2 * DAY) == []
    view = await duels.current_duel(duel_game.id, TOPIC)
    assert view is not None and view.state.overdue


async def test_the_gm_seals_a_default_defense_and_the_next_turn_has_its_time(duel_game) -> None:
    await _started(duel_game.id)
    await duels.pass_deadline(duel_game.id, TOPIC, turn=1, now=T0 + DAY, rng=random.Random(2))
    with pytest.raises(duel.DuelError) as player:
        await duels.default_turn(
            duel_game.id, TOPIC, turn=1, fighter="b", actor_id=BOB, rng=ScriptedRng([1, 5, 5])
        )
    assert player.value.code == "gm_only"
    out = await duels.default_turn(
        duel_game.id, TOPIC, turn=1, fighter="b", actor_id=GM, rng=ScriptedRng([1, 5, 5])
    )
    sealed = out.state.sealed("b")
    assert sealed is not None and sealed.default
    assert sealed.submission.actions == (duel.FullDefense("left"),)
    published = await duels.publish_turn(
        duel_game.id, TOPIC, turn=1, actor_id=GM, rng=random.Random(3), now=T0 + DAY + 60
    )
    assert published.state.turn == 2 and published.state.due == T0 + 2 * DAY + 60
