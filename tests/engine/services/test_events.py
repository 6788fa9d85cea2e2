from __future__ import annotations

import asyncio

import pytest

from engine import services


async def test_append_with_expected_seq(game: services.GameInfo) -> None:
    assert await services.last_event_seq(game.id) == 1  # game_created
    event = await services.append_event(game.id, "turn", {"n": 1}, expected_seq=1)
    assert (event.seq, event.type, event.payload) == (2, "turn", {"n": 1})
    with pytest.raises(services.EventConflict) as stale:
        await services.append_event(game.id, "turn", {"n": 1}, expected_seq=1)
    assert stale.value.code == "event_conflict"
    with pytest.raises(services.EventConflict):  # no gaps either
        await services.append_event(game.id, "turn", {}, expected_seq=5)
    assert [e.seq for e in await services.game_events(game.id)] == [1, 2]
    assert [e.seq for e in await services.game_events(game.id, after_seq=1)] == [2]


async def test_racing_second_writer_is_rejected(game: services.GameInfo) -> None:
    seen = await services.last_event_seq(game.id)
    results = await asyncio.gather(
        *(services.append_event(game.id, "resolve", {"w": i}, expected_seq=seen) for i in range(3)),
        return_exceptions=True,
    )
    ok = [r for r in results if isinstance(r, services.EventInfo)]
    conflicts = [r for r in results if isinstance(r, services.EventConflict)]
    assert len(ok) == 1 and len(conflicts) == 2, results
    log = await services.game_events(game.id)
    assert [e.seq for e in log] == [1, 2] and log[1].payload == ok[0].payload


async def test_unique_constraint_rejects_a_writer_that_passed_the_check(
    game: services.GameInfo,
) -> None:
    """The database constraint, not the pre-check, is what stops the second writer."""
    from tortoise.exceptions import IntegrityError

    from engine.store.models import GameEvent

    await GameEvent.create(game_id=game.id, seq=2, type="a", payload={})
    with pytest.raises(IntegrityError):
        await GameEvent.create(game_id=game.id, seq=2, type="b", payload={})


async def test_events_of_a_missing_game(db: object) -> None:
    with pytest.raises(services.NoGame):
        await services.game_events(404)
    with pytest.raises(services.NoGame):
        await services.append_event(404, "x", {}, expected_seq=0)
