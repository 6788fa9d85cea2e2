"""Live updates over a real WebSocket: per-viewer pushes, resync, latency."""

from __future__ import annotations

import asyncio
import json
import statistics
import time

from engine.services import log_roll
from engine.services.notify import using
from tests.webapp.conftest import GM_ID, OTHER_ID, PLAYER_ID, STRANGER_ID, auth, init_for
from webapp.api import ws as live_socket
from webapp.keys import BROADCASTER
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
    # a roll push is numbered by the roll's id and names the game's roll before it
    assert gm_push["type"] == "roll" and gm_push["seq"] == stored["id"]
    assert gm_push["prev"] == snap["seq"] == 0
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
        assert push["seq"] == stored["id"] and "prev" not in push
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
    assert snap["seq"] == 0 and snap2["seq"] == hidden["id"]  # the newest roll
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


async def test_the_local_broadcaster_orders_events_per_game_and_isolates_failures():
    hub = LocalBroadcaster()
    a, b, broken = Recorder(), Recorder(), Recorder(fail=True)
    hub.subscribe(1, broken)
    hub.subscribe(1, a)
    hub.subscribe(2, b)
    await hub.publish(1, "roll", "x", seq=40, prev=12)
    await hub.publish(1, "roll", "y", seq=41, prev=40)
    await hub.publish(2, "roll", "z", seq=42)
    # `order` is the process's own; `seq`/`prev` are what the publisher read (a roll's ids)
    assert [(e.order, e.seq, e.prev, e.data) for e in a.events] == [
        (1, 40, 12, "x"),
        (2, 41, 40, "y"),
    ]
    assert [(e.order, e.seq, e.prev) for e in b.events] == [(1, 42, None)]
    assert hub.current_order(1) == 2 and hub.subscriber_count(1) == 2
    hub.unsubscribe(1, a)
    hub.unsubscribe(1, broken)
    assert hub.subscriber_count(1) == 0


async def test_a_socket_whose_queue_overflows_gets_a_snapshot_and_holds_back_nobody(
    client, game, gtoken, monkeypatch
):
    prompt, _ = await connect(client, gtoken, OTHER_ID)
    monkeypatch.setattr(live_socket, "QUEUE_SIZE", 2)
    slow, _ = await connect(client, gtoken, STRANGER_ID)
    with using(None):  # stored without a push: the test publishes it itself
        record = await log_roll(
            user_id=PLAYER_ID, chat_id=game.chat_id, topic_id=None, game_id=game.id,
            command="p", args="3 6", result={"kind": "pool", "total": 1},
        )  # fmt: skip
    hub = client.app[BROADCASTER]
    for _ in range(5):  # no await in between: the writers cannot drain their queues
        await hub.publish(game.id, "roll", record, seq=record.id, prev=0)
    frames = [await next_text(prompt) for _ in range(5)]
    assert len(set(frames)) == 1 and json.loads(frames[0])["seq"] == record.id
    after = json.loads(await next_text(slow))
    assert after["type"] == "snapshot" and after["seq"] == record.id  # instead of the backlog
    await hub.publish(game.id, "roll", record, seq=record.id, prev=0)
    assert json.loads(await next_text(slow))["type"] == "roll"  # and it goes on
    for ws in (prompt, slow):
        await ws.close()
