"""engine.services.notify: subscribers get every write; a failing one breaks nothing."""

from __future__ import annotations

import random

from engine import savage
from engine.services.notify import Notification, notify, origin, subscribe
from engine.services.savage import encounter_command
from tests.webapp.conftest import GM_ID
from tests.webapp.systems.savage.fight import make_fight


async def test_subscribers_get_each_write_and_failures_are_contained(db):
    game = await make_fight()
    seen: list[Notification] = []

    def broken(note: Notification) -> None:
        raise RuntimeError("boom")

    async def record(note: Notification) -> None:
        seen.append(note)

    stop_broken, stop = subscribe(broken), subscribe(record)
    try:
        out = await encounter_command(
            game.id, savage.NextTurn(), actor_id=GM_ID, rng=random.Random(1)
        )
        with origin("webapp"):
            await notify(game.id, "chase", seq=1)
        await notify(None, "roll")  # no game: nobody is told
    finally:
        stop_broken()
        stop()
        stop()  # idempotent
    assert [n.topic for n in seen] == ["encounter", "chase"]
    first = seen[0]
    assert first.game_id == game.id and first.info["seq"] == out.seq and first.origin == "chat"
    assert first.info["events"] == out.events and first.info["actor_id"] == GM_ID
    assert seen[1].origin == "webapp"
