"""A live push is projected and encoded once per distinct view, every socket of the view
gets the same frame, different viewers still get their own; pushes are numbered by the
stream (and a roll by its id), the same in every process."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from typing import Any

import pytest

from engine import savage
from engine.services import log_roll
from engine.services.notify import Notifier, using
from engine.services.savage import encounter_command
from engine.services.types import GameInfo
from tests.webapp.conftest import GM_ID, OTHER_ID, PLAYER_ID, STRANGER_ID, TOKEN, auth
from tests.webapp.systems.savage.fight import make_fight
from webapp.keys import NOTIFIER
from webapp.links import startapp_token
from webapp.projection import Viewer
from webapp.systems import registry

SPECTATORS = [STRANGER_ID + i for i in range(8)]


@pytest.fixture
async def fight(db) -> GameInfo:  # type: ignore[no-untyped-def]
    return await make_fight()


@pytest.fixture
def projected(monkeypatch: pytest.MonkeyPatch) -> Counter[int]:
    """Calls of the savage adapter's encounter projection, by viewer (the real projection,
    counted: the adapter as registered, with its `project` wrapped)."""
    calls: Counter[int] = Counter()
    system = registry.adapter("savage")
    scene = system.scene("encounter")
    assert scene is not None
    project = scene.project

    def counting(data: Any, viewer: Viewer) -> dict[str, Any] | None:
        calls[viewer.user_id] += 1
        return project(data, viewer)

    scenes = tuple(
        dataclasses.replace(s, project=counting) if s.kind == "encounter" else s
        for s in system.scenes
    )
    monkeypatch.setitem(registry._SYSTEMS, "savage", dataclasses.replace(system, scenes=scenes))
    return calls


async def connect(client: Any, game: GameInfo, user_id: int) -> tuple[Any, dict[str, Any]]:
    token = startapp_token(game.id, bot_token=TOKEN)
    ws = await client.ws_connect(f"/api/games/{token}/ws", headers=auth(user_id))
    snapshot = await ws.receive_json(timeout=5)
    assert snapshot["type"] == "snapshot"
    return ws, snapshot


async def next_frame(ws: Any) -> str:
    msg = await ws.receive(timeout=5)
    assert isinstance(msg.data, str), msg
    return msg.data


def sheets(push: dict[str, Any]) -> set[str]:
    members = [m for c in push["encounter"]["combatants"] for m in c["members"]]
    return {m["name"] for m in members if "sheet" in m}


async def test_a_push_is_projected_once_per_view_and_each_view_gets_one_frame(
    client, fight, projected
):
    viewers = [GM_ID] * 3 + [PLAYER_ID] * 3 + [OTHER_ID] * 2 + SPECTATORS
    sockets = [(uid, (await connect(client, fight, uid))[0]) for uid in viewers]
    projected.clear()  # the snapshots project per socket; the push is what is counted

    out = await encounter_command(fight.id, savage.NextTurn(), actor_id=GM_ID, rng=random.Random(1))
    frames = [(uid, await next_frame(ws)) for uid, ws in sockets]

    # four views: the GM, Аня (Ичиго's owner), Борис (Рукия's), everyone else
    assert projected == Counter({GM_ID: 1, PLAYER_ID: 1, OTHER_ID: 1, STRANGER_ID: 1})
    texts: dict[int, set[str]] = {}
    for uid, text in frames:
        texts.setdefault(uid if uid not in SPECTATORS else STRANGER_ID, set()).add(text)
    assert all(len(same) == 1 for same in texts.values())  # one frame per view, byte for byte
    push = {uid: json.loads(next(iter(same))) for uid, same in texts.items()}
    assert {p["seq"] for p in push.values()} == {out.seq}
    assert sheets(push[GM_ID]) == {"Ичиго", "Рукия", "Гриммджо", "Пустой 1", "Пустой 2", "Пустой 3"}
    assert sheets(push[PLAYER_ID]) == {"Ичиго"} and sheets(push[OTHER_ID]) == {"Рукия"}
    assert sheets(push[STRANGER_ID]) == set()
    assert '"sheet"' not in next(iter(texts[STRANGER_ID]))
    for _, ws in sockets:
        await ws.close()


async def test_a_roll_push_has_two_views_at_most_sealed_and_open(client, fight, projected):
    sockets = [(uid, (await connect(client, fight, uid))[0]) for uid in [GM_ID, GM_ID, *SPECTATORS]]
    token = startapp_token(fight.id, bot_token=TOKEN)
    body = {"command": "pool", "args": "4 6 — тайна", "hidden": True}
    made = await client.post(f"/api/games/{token}/roll", json=body, headers=auth(PLAYER_ID))
    roll = (await made.json())["roll"]
    frames = [(uid, await next_frame(ws)) for uid, ws in sockets]
    assert len({text for uid, text in frames if uid == GM_ID}) == 1
    sealed = {text for uid, text in frames if uid != GM_ID}
    assert len(sealed) == 1 and "тайна" not in next(iter(sealed))
    gm = json.loads(frames[0][1])
    assert gm["roll"]["sealed"] is False and gm["roll"]["args"] == "4 6 — тайна"
    assert gm["seq"] == roll["id"] and gm["prev"] == 0
    for _, ws in sockets:
        await ws.close()


async def test_two_processes_number_the_same_pushes_alike(db, aiohttp_client, make_app, fight):
    """Two apps with their own broadcasters (as two workers behind one fan-out of the
    notifier) send the same `seq` for the same step and roll: the stream's and the roll's."""
    shared = Notifier()
    apps = [make_app(), make_app()]
    for app in apps:  # the fan-out: both hear the same notifications
        app[NOTIFIER] = shared
    clients = [await aiohttp_client(app) for app in apps]
    first = [await connect(c, fight, STRANGER_ID) for c in clients]
    with using(shared):
        out = await encounter_command(
            fight.id, savage.NextTurn(), actor_id=GM_ID, rng=random.Random(1)
        )
        pushes = [json.loads(await next_frame(ws)) for ws, _ in first]
        assert [(p["stream"], p["seq"]) for p in pushes] == [(out.stream, out.seq)] * 2
        assert all(out.seq > snap["encounter"]["seq"] for _, snap in first)
        record = await log_roll(
            user_id=PLAYER_ID, chat_id=fight.chat_id, topic_id=None, game_id=fight.id,
            command="r", args="2d6", result={"kind": "roll", "total": 7},
        )  # fmt: skip
        rolls = [json.loads(await next_frame(ws)) for ws, _ in first]
    assert [(r["type"], r["seq"], r["prev"]) for r in rolls] == [("roll", record.id, 0)] * 2
    # a second socket of the first process starts where the roll pushes continue
    ws, snap = await connect(clients[0], fight, OTHER_ID)
    assert snap["seq"] == record.id
    for socket in [ws, *(w for w, _ in first)]:
        await socket.close()
