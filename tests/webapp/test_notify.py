"""engine.services.notify: the bound notifier's subscribers get every write; a failing one
breaks nothing; two notifiers (two apps) never hear each other."""

from __future__ import annotations

import random

from engine import savage
from engine.services import log_roll, updates
from engine.services.notify import Notification, Notifier, current, notify, origin, using
from engine.services.savage import encounter_command
from tests.webapp.conftest import GM_ID, PLAYER_ID, auth
from tests.webapp.systems.savage.fight import make_fight
from webapp.keys import NOTIFIER
from webapp.links import startapp_token


async def test_subscribers_get_each_write_and_failures_are_contained(db):
    game = await make_fight()
    seen: list[Notification] = []

    def broken(note: Notification) -> None:
        raise RuntimeError("boom")

    async def record(note: Notification) -> None:
        seen.append(note)

    notifier = Notifier()
    stop_broken, stop = notifier.subscribe(broken), notifier.subscribe(record)
    with using(notifier):
        out = await encounter_command(
            game.id, savage.NextTurn(), actor_id=GM_ID, rng=random.Random(1)
        )
        with origin("webapp"):
            await notify(game.id, "chase", seq=1)
        await notify(None, "roll")  # no game: nobody is told
    await notify(game.id, "chase", seq=2)  # no notifier bound: nobody is told
    stop_broken()
    stop()
    stop()  # idempotent
    with using(notifier):
        await notify(game.id, "chase", seq=3)  # unsubscribed
    assert [n.topic for n in seen] == ["encounter", "chase"]
    first = seen[0]
    assert first.game_id == game.id and first.info["seq"] == out.seq and first.origin == "chat"
    assert first.info["events"] == out.events and first.info["actor_id"] == GM_ID
    assert seen[1].origin == "webapp"


async def test_two_notifiers_do_not_hear_each_other(db):
    game = await make_fight()
    a, b = Notifier(), Notifier()
    heard_a: list[Notification] = []
    heard_b: list[Notification] = []
    a.subscribe(heard_a.append)
    b.subscribe(heard_b.append)
    with using(a):
        await encounter_command(game.id, savage.NextTurn(), actor_id=GM_ID, rng=random.Random(1))
    with using(b):
        await notify(game.id, "game", change="test")
    assert [n.topic for n in heard_a] == ["encounter"]
    assert [n.topic for n in heard_b] == ["game"]


async def test_two_apps_in_one_process_do_not_see_each_others_changes(db, aiohttp_client, make_app):
    game = await make_fight()
    one, two = make_app(), make_app()
    assert one[NOTIFIER] is not two[NOTIFIER]
    heard: dict[str, list[str]] = {"one": [], "two": []}
    one[NOTIFIER].subscribe(lambda n: heard["one"].append(n.topic))
    two[NOTIFIER].subscribe(lambda n: heard["two"].append(n.topic))
    client_one, client_two = await aiohttp_client(one), await aiohttp_client(two)
    assert current() is None  # nothing bound in the test itself
    token = startapp_token(game.id, bot_token="123456:TEST-token-for-the-mini-app")

    # a roll made through app one: its request binds app one's notifier only
    roll = {"command": "pool", "args": "3 6", "hidden": False}
    made = await client_one.post(f"/api/games/{token}/roll", json=roll, headers=auth(PLAYER_ID))
    assert made.status == 200
    # a step made through app two
    dealt = await client_two.post(
        f"/api/games/{token}/encounter", json={"command": "next"}, headers=auth(GM_ID)
    )
    assert dealt.status == 200
    # and a roll from the chat side of app one's process
    with using(one[NOTIFIER]):
        await log_roll(
            user_id=PLAYER_ID, chat_id=game.chat_id, topic_id=None, game_id=game.id,
            command="r", args="2d6", result={"kind": "roll", "total": 7},
        )  # fmt: skip
    assert heard == {"one": ["roll", "roll"], "two": ["encounter"]}


async def test_within_a_handlers_step_the_subscribers_hear_of_it_once_it_committed(db):
    """A step inside `step_with_effects` (a handler's step and its chat calls, one
    transaction): the subscribers are told after the commit — another worker reading the
    database then finds the step — and not at all when it rolled back."""
    game = await make_fight()
    seen: list[str] = []

    async def record(note: Notification) -> None:
        seen.append(note.topic)

    notifier = Notifier()
    notifier.subscribe(record)
    with using(notifier):
        async with updates.step_with_effects():
            await encounter_command(
                game.id, savage.NextTurn(), actor_id=GM_ID, rng=random.Random(1)
            )
            await log_roll(
                user_id=PLAYER_ID,
                chat_id=game.chat_id,
                topic_id=None,
                game_id=game.id,
                command="roll",
                args="d6",
                result={"total": 3},
            )
            assert seen == []  # not yet committed
        assert seen == ["encounter", "roll"]
        try:
            async with updates.step_with_effects():
                await encounter_command(
                    game.id, savage.NextTurn(), actor_id=GM_ID, rng=random.Random(2)
                )
                raise RuntimeError("the handler broke after its step")
        except RuntimeError:
            pass
    assert seen == ["encounter", "roll"]
