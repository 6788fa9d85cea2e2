"""Live updates over a real WebSocket: per-viewer pushes, resync, latency."""

from __future__ import annotations

import asyncio
import json
import statistics
import time

from tests.webapp.conftest import GM_ID, OTHER_ID, PLAYER_ID, STRANGER_ID, auth, init_for
from webapp.live import LiveEvent, LocalBroadcaster


async def connect(client, gtoken, user_id, *, first_message=False):  # type: ignore[no-untyped-def]
    path = f"/api/games/{gtoken}/ws"
    if first_message:
        ws = await client.ws_connect(path)
        await ws.send_str(json.dumps({"type": "auth", "initData": init_for(user_id)}))
    else:
        ws = await client.ws_connect(path, headers=auth(user_id))
    snapshot = await ws.receive_json(timeout=5)
    assert snapshot["type"] == "snapshot"
    return ws, snapshot


async def next_text(ws) -> str:  # type: ignore[no-untyped-def]
    msg = await ws.receive(timeout=5)
    assert isinstance(msg.data, str), msg
    return msg.data


async def post_roll(client, gtoken, user_id, args, hidden=False):  # type: ignore[no-untyped-def]
    response = await client.post(
        f"/api/games/{gtoken}/roll",
        json={"command": "pool", "args": args, "hidden": hidden},
        headers=auth(user_id),
    )
    assert response.status == 200, await response.text()
    return (await response.json())["roll"]


async def test_a_hidden_roll_reaches_the_gm_and_only_a_sealed_receipt_reaches_players(
    client, game, gtoken
):
    gm, snap = await connect(client, gtoken, GM_ID)
    roller, _ = await connect(client, gtoken, PLAYER_ID, first_message=True)
    other, _ = await connect(client, gtoken, OTHER_ID)
    spectator, _ = await connect(client, gtoken, STRANGER_ID)
    assert snap["game"]["role"] == "gm" and snap["rolls"] == []

    stored = await post_roll(client, gtoken, PLAYER_ID, "6 6 — секретный удар", hidden=True)

    gm_push = json.loads(await next_text(gm))
    assert gm_push["type"] == "roll" and gm_push["seq"] == snap["seq"] + 1
    assert gm_push["roll"]["id"] == stored["id"]
    assert gm_push["roll"]["result"]["comment"] == "секретный удар"
    roller_push = json.loads(await next_text(roller))
    assert roller_push["roll"]["sealed"] is False and roller_push["roll"]["result"]
    for ws in (other, spectator):
        raw = await next_text(ws)
        push = json.loads(raw)
        assert push["roll"]["sealed"] is True
        assert push["roll"]["receipt"] == stored["receipt"]
        assert "result" not in push["roll"] and "args" not in push["roll"]
        assert "секретный" not in raw and '"dice"' not in raw

    response = await client.post(
        f"/api/games/{gtoken}/rolls/{stored['id']}/reveal", headers=auth(GM_ID)
    )
    assert response.status == 200
    for ws in (gm, roller, other, spectator):
        push = json.loads(await next_text(ws))
        assert push["type"] == "roll_revealed" and push["roll"]["sealed"] is False
        assert push["roll"]["result"]["comment"] == "секретный удар"
        assert push["roll"]["salt"]
    for ws in (gm, roller, other, spectator):
        await ws.close()


async def test_a_reconnecting_client_gets_a_snapshot_with_what_it_missed(client, game, gtoken):
    ws, snap = await connect(client, gtoken, OTHER_ID)
    await ws.close()
    await post_roll(client, gtoken, PLAYER_ID, "3 6 — пока вас не было")
    hidden = await post_roll(client, gtoken, PLAYER_ID, "3 6 — тайна", hidden=True)
    ws, snap2 = await connect(client, gtoken, OTHER_ID)
    assert snap2["seq"] == snap["seq"] + 2
    assert [r.get("args") for r in snap2["rolls"]] == ["3 6 — пока вас не было", None]
    assert snap2["rolls"][1]["id"] == hidden["id"] and snap2["rolls"][1]["sealed"] is True
    await ws.send_str(json.dumps({"type": "resync", "since": 0}))
    again = json.loads(await next_text(ws))
    assert again["type"] == "snapshot" and again["seq"] == snap2["seq"]
    await ws.send_str(json.dumps({"type": "ping"}))
    assert json.loads(await next_text(ws)) == {"type": "pong"}
    await ws.close()


async def test_push_latency_is_under_100_ms(client, game, gtoken):
    gm, _ = await connect(client, gtoken, GM_ID)
    other, _ = await connect(client, gtoken, OTHER_ID)
    latencies = []
    for i in range(10):
        started = time.perf_counter()
        response_task = asyncio.create_task(post_roll(client, gtoken, PLAYER_ID, f"4 6 — {i}"))
        push = json.loads(await next_text(other))
        latencies.append((time.perf_counter() - started) * 1000)
        await response_task
        await next_text(gm)
        assert push["roll"]["args"] == f"4 6 — {i}"
    median = statistics.median(latencies)
    print(f"request-to-push latency: median {median:.1f} ms, max {max(latencies):.1f} ms")
    assert median < 100
    await gm.close()
    await other.close()


async def test_an_unknown_game_closes_the_socket_with_4404(client, game):
    ws = await client.ws_connect("/api/games/g999-aaaaaaaaaaaa/ws", headers=auth(GM_ID))
    msg = await ws.receive_json(timeout=5)
    assert msg["error"]["code"] == "not_found"
    await ws.receive(timeout=5)
    assert ws.close_code == 4404


class Recorder:
    def __init__(self, fail: bool = False) -> None:
        self.events: list[LiveEvent] = []
        self.fail = fail

    def deliver(self, event: LiveEvent) -> None:
        if self.fail:
            raise RuntimeError("broken subscriber")
        self.events.append(event)


async def test_the_local_broadcaster_numbers_events_per_game_and_isolates_failures():
    hub = LocalBroadcaster()
    a, b, broken = Recorder(), Recorder(), Recorder(fail=True)
    hub.subscribe(1, broken)
    hub.subscribe(1, a)
    hub.subscribe(2, b)
    await hub.publish(1, "roll", "x")
    await hub.publish(1, "roll", "y")
    await hub.publish(2, "roll", "z")
    assert [(e.seq, e.data) for e in a.events] == [(1, "x"), (2, "y")]
    assert [(e.seq, e.data) for e in b.events] == [(1, "z")]
    assert hub.current_seq(1) == 2 and hub.subscriber_count(1) == 2
    hub.unsubscribe(1, a)
    hub.unsubscribe(1, broken)
    assert hub.subscriber_count(1) == 0
