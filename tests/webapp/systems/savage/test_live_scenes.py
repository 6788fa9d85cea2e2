"""Changes made from the chat (the services called directly, as the bot does) reach open
boards over a real WebSocket within 100 ms, projected per viewer; a roll is pushed once."""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import pytest

from engine import savage
from engine.savage import chase
from engine.services import join_game, log_roll, touch_user, transfer_gm
from engine.services.savage import chase_command, encounter_command
from engine.services.types import GameInfo
from tests.webapp.conftest import GM_ID, OTHER_ID, PLAYER_ID, STRANGER_ID, TOKEN, auth
from tests.webapp.systems.savage.fight import make_fight
from webapp.links import startapp_token


@pytest.fixture
async def fight(db) -> GameInfo:  # type: ignore[no-untyped-def]
    return await make_fight(chase_too=True)


async def connect(client, fight, user_id):  # type: ignore[no-untyped-def]
    token = startapp_token(fight.id, bot_token=TOKEN)
    ws = await client.ws_connect(f"/api/games/{token}/ws", headers=auth(user_id))
    snapshot = await ws.receive_json(timeout=5)
    assert snapshot["type"] == "snapshot"
    return ws, snapshot


async def test_a_chat_command_reaches_a_players_board_within_100_ms(client, fight):
    ws, snap = await connect(client, fight, PLAYER_ID)
    assert snap["encounter"]["round"] == 0 and snap["chase"]["row"]
    started = time.perf_counter()
    out = await encounter_command(fight.id, savage.NextTurn(), actor_id=GM_ID, rng=random.Random(1))
    push = await ws.receive_json(timeout=2)
    elapsed = time.perf_counter() - started
    # numbered by the stream itself: the step's seq, as the command's answer gives it
    assert push["type"] == "encounter" and (push["stream"], push["seq"]) == (out.stream, out.seq)
    assert push["seq"] == push["encounter"]["seq"] > snap["encounter"]["seq"]
    assert push["encounter"]["round"] == 1 and push["encounter"]["current"]
    assert elapsed < 0.1, f"{elapsed * 1000:.0f} ms"
    names = {m["name"]: m for c in push["encounter"]["combatants"] for m in c["members"]}
    assert "sheet" in names["Ичиго"] and "sheet" not in names["Гриммджо"]
    follow = await ws.receive_json(timeout=2)  # the chase follows the fight: its round opens
    assert follow["type"] == "chase" and follow["chase"]["round"] == 1

    started = time.perf_counter()
    await chase_command(
        fight.id, chase.PlaceParticipant("grimmdzho", 7), actor_id=GM_ID, rng=random.Random(1)
    )
    moved: dict[str, Any] = {}
    while moved.get("grimmdzho", {}).get("position") != 7:  # the chase round the deal opened
        push = await ws.receive_json(timeout=2)  # may come first, read before or after the move
        assert push["type"] == "chase"
        moved = {p["id"]: p for p in push["chase"]["participants"]}
    assert time.perf_counter() - started < 0.1
    assert "stats" not in moved["grimmdzho"]
    await ws.close()


async def test_every_viewer_gets_their_own_projection_and_app_writes_push_once(client, fight):
    gm, _ = await connect(client, fight, GM_ID)
    guest, _ = await connect(client, fight, STRANGER_ID)
    token = startapp_token(fight.id, bot_token=TOKEN)
    response = await client.post(
        f"/api/games/{token}/encounter", json={"command": "next"}, headers=auth(GM_ID)
    )
    assert response.status == 200
    gm_push, guest_push = await gm.receive_json(timeout=2), await guest.receive_json(timeout=2)
    assert gm_push["type"] == guest_push["type"] == "encounter"
    assert '"sheet"' in json.dumps(gm_push) and '"sheet"' not in json.dumps(guest_push)
    # the chase follows the fight: a chase round opens (pushed after the encounter)
    follow = await gm.receive_json(timeout=2)
    assert follow["type"] == "chase" and follow["chase"]["round"] == 1

    # a roll from the chat (log_roll) is pushed once, as a roll from the app
    await log_roll(
        user_id=PLAYER_ID, chat_id=fight.chat_id, topic_id=None, game_id=fight.id,
        command="r", args="2d6", result={"kind": "roll", "total": 7},
    )  # fmt: skip
    await asyncio.sleep(0.05)
    frames = []
    while True:
        try:
            frames.append(await guest.receive_json(timeout=0.2))
        except TimeoutError:
            break
    rolls = [f for f in frames if f["type"] == "roll"]
    assert len(rolls) == 1 and rolls[0]["roll"]["args"] == "2d6"
    for ws in (gm, guest):
        await ws.close()


async def test_membership_changes_send_a_fresh_snapshot_with_the_new_role(client, fight):
    ws, snap = await connect(client, fight, STRANGER_ID)
    assert snap["game"]["role"] == "spectator"
    await touch_user(STRANGER_ID, "Гость")
    await join_game(fight.id, STRANGER_ID)
    push = await ws.receive_json(timeout=2)
    assert push["type"] == "snapshot" and push["game"]["role"] == "player"
    await transfer_gm(fight.id, actor_id=GM_ID, new_gm_id=STRANGER_ID)
    push = await ws.receive_json(timeout=2)
    assert push["type"] == "snapshot" and push["game"]["role"] == "gm"
    assert any("sheet" in m for c in push["encounter"]["combatants"] for m in c["members"])
    await ws.close()
    assert OTHER_ID  # Борис stays a player
