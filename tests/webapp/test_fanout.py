"""The live fan-out between workers (webapp/fanout.py) on a real redis-server: two apps in one
process stand for two workers — each its own notifier, broadcaster and sockets, sharing only
the database and Redis. A change made on worker A reaches a socket open on worker B."""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import pytest
from pydantic import SecretStr

from bot.settings import Settings
from engine.services import join_game, touch_user
from engine.services.notify import Notifier, using
from tests.webapp.conftest import GM_ID, PLAYER_ID, STRANGER_ID, TOKEN, auth, init_for
from webapp.app import create_app
from webapp.fanout import FANOUT
from webapp.keys import NOTIFIER


def worker(redis_url: str) -> Any:
    settings = Settings(bot_token=SecretStr(TOKEN), redis_url=redis_url, _env_file=None)  # type: ignore[call-arg]
    return create_app(settings, notifier=Notifier(), rng=random.Random(3))


@pytest.fixture
async def workers(db, aiohttp_client, redis_url):  # type: ignore[no-untyped-def]
    a = await aiohttp_client(worker(redis_url))
    b = await aiohttp_client(worker(redis_url))
    for client in (a, b):
        await asyncio.wait_for(client.app[FANOUT].connected.wait(), 5)
    return a, b


async def connect(client, gtoken, user_id):  # type: ignore[no-untyped-def]
    ws = await client.ws_connect(f"/api/games/{gtoken}/ws")
    await ws.send_str(json.dumps({"type": "auth", "initData": init_for(user_id)}))
    snapshot = await ws.receive_json(timeout=5)
    assert snapshot["type"] == "snapshot"
    return ws


async def roll(client, gtoken, user_id, args, hidden=False):  # type: ignore[no-untyped-def]
    response = await client.post(
        f"/api/games/{gtoken}/roll",
        json={"command": "pool", "args": args, "hidden": hidden},
        headers=auth(user_id),
    )
    assert response.status == 200, await response.text()
    return (await response.json())["roll"]


async def test_a_roll_on_worker_a_reaches_a_socket_on_worker_b_within_100_ms(
    workers, game, gtoken
) -> None:
    a, b = workers
    on_a, on_b = await connect(a, gtoken, PLAYER_ID), await connect(b, gtoken, GM_ID)
    latencies = []
    for i in range(5):
        started = time.perf_counter()
        stored = await roll(a, gtoken, PLAYER_ID, f"5 6 бросок {i}")
        push = await on_b.receive_json(timeout=5)
        latencies.append(1000 * (time.perf_counter() - started))
        assert push["type"] == "roll" and push["roll"]["id"] == stored["id"]
        assert (await on_a.receive_json(timeout=5))["roll"]["id"] == stored["id"]
    assert max(latencies) < 100, latencies
    await asyncio.sleep(0.1)  # a worker's own changes do not come back to it through Redis
    assert b.app[FANOUT].received == 5 and a.app[FANOUT].received == 0


async def test_a_hidden_roll_stays_sealed_for_players_on_the_other_worker(
    workers, game, gtoken
) -> None:
    a, b = workers
    gm_on_b, player_on_b = await connect(b, gtoken, GM_ID), await connect(b, gtoken, STRANGER_ID)
    stored = await roll(a, gtoken, PLAYER_ID, "6 6 засада", hidden=True)
    to_gm = await gm_on_b.receive_json(timeout=5)
    assert to_gm["roll"]["result"]["comment"] == "засада"
    raw = (await player_on_b.receive(timeout=5)).data
    assert json.loads(raw)["roll"]["sealed"] is True and "засада" not in raw

    response = await a.post(f"/api/games/{gtoken}/rolls/{stored['id']}/reveal", headers=auth(GM_ID))
    assert response.status == 200
    revealed = await player_on_b.receive_json(timeout=5)
    assert revealed["type"] == "roll_revealed" and revealed["roll"]["sealed"] is False


async def test_a_game_change_made_by_worker_a_refreshes_the_board_on_worker_b(
    workers, game, gtoken
) -> None:
    a, b = workers
    on_b = await connect(b, gtoken, GM_ID)
    await touch_user(3001, "Вера")
    with using(a.app[NOTIFIER]):
        await join_game(game.id, 3001)
    snapshot = await on_b.receive_json(timeout=5)
    assert snapshot["type"] == "snapshot"
    assert 3001 in [p["id"] for p in snapshot["game"]["players"]]


async def test_without_redis_steps_go_on_and_the_fan_out_resumes_when_it_is_back(
    workers, game, gtoken, redis_server, caplog: pytest.LogCaptureFixture
) -> None:
    a, b = workers
    on_a, on_b = await connect(a, gtoken, PLAYER_ID), await connect(b, gtoken, GM_ID)
    redis_server.stop()
    try:
        stored = await roll(a, gtoken, PLAYER_ID, "4 6 без редиса")  # the step itself works
        assert (await on_a.receive_json(timeout=5))["roll"]["id"] == stored["id"]
    finally:
        redis_server.start()
    assert any("fan-out through Redis is down" in r.getMessage() for r in caplog.records)
    for client in (a, b):
        await asyncio.wait_for(client.app[FANOUT].connected.wait(), 10)
    assert any("fan-out through Redis resumed" in r.getMessage() for r in caplog.records)
    after = await roll(a, gtoken, PLAYER_ID, "4 6 снова с редисом")
    pushes = []
    while not pushes or pushes[-1]["roll"]["id"] != after["id"]:
        pushes.append(await on_b.receive_json(timeout=5))
    assert pushes[-1]["type"] == "roll"
