"""An open socket follows its viewer's role: every change of a game's members or its end
(made from the chat, i.e. the services called directly) sends a fresh snapshot with the new
role, and every later push is projected for that role."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import savage
from engine.services import create_hidden_roll, end_game, join_game, touch_user, transfer_gm
from engine.services.savage import encounter_command
from engine.services.types import GameInfo
from tests.webapp.conftest import GM_ID, OTHER_ID, PLAYER_ID, STRANGER_ID, TOKEN, auth
from tests.webapp.systems.savage.fight import make_fight
from webapp.bridge import BRIDGE
from webapp.links import startapp_token

EVERYONE = {"Ичиго", "Рукия", "Гриммджо", "Пустой 1", "Пустой 2", "Пустой 3"}


@pytest.fixture
async def fight(db) -> GameInfo:  # type: ignore[no-untyped-def]
    return await make_fight(chase_too=True)


async def connect(client: Any, game: GameInfo, user_id: int) -> tuple[Any, dict[str, Any]]:
    token = startapp_token(game.id, bot_token=TOKEN)
    ws = await client.ws_connect(f"/api/games/{token}/ws", headers=auth(user_id))
    snapshot = await ws.receive_json(timeout=5)
    assert snapshot["type"] == "snapshot"
    return ws, snapshot


def sheets(encounter: dict[str, Any]) -> set[str]:
    """Names of the characters whose GM-only sheet the viewer got."""
    return {m["name"] for c in encounter["combatants"] for m in c["members"] if "sheet" in m}


def stats(chase: dict[str, Any]) -> set[str]:
    return {p["id"] for p in chase["participants"] if "stats" in p}


async def test_a_spectator_who_joins_gets_a_snapshot_as_a_player(client, fight):
    token = startapp_token(fight.id, bot_token=TOKEN)
    roll = {"command": "pool", "args": "3 6", "hidden": False}
    refused = await client.post(f"/api/games/{token}/roll", json=roll, headers=auth(STRANGER_ID))
    assert refused.status == 403
    ws, before = await connect(client, fight, STRANGER_ID)
    await touch_user(STRANGER_ID, "Гость")
    await join_game(fight.id, STRANGER_ID)
    after = await ws.receive_json(timeout=2)
    assert (before["game"]["role"], after["type"], after["game"]["role"]) == (
        "spectator", "snapshot", "player",
    )  # fmt: skip
    assert STRANGER_ID in [p["id"] for p in after["game"]["players"]]
    # the new player may roll now, and the socket keeps going with the new role
    made = await client.post(f"/api/games/{token}/roll", json=roll, headers=auth(STRANGER_ID))
    assert made.status == 200
    push = await ws.receive_json(timeout=2)
    assert push["type"] == "roll" and push["seq"] == (await made.json())["roll"]["id"]
    assert push["prev"] == after["seq"]  # the game's newest roll as the snapshot showed it
    await ws.close()


async def test_after_a_gm_transfer_only_the_new_gm_gets_gm_only_data(client, fight):
    old, snap = await connect(client, fight, GM_ID)
    new, snap_new = await connect(client, fight, OTHER_ID)
    assert sheets(snap["encounter"]) == EVERYONE
    assert sheets(snap_new["encounter"]) == {"Рукия"} and stats(snap_new["chase"]) == {"rukiya"}

    await transfer_gm(fight.id, actor_id=GM_ID, new_gm_id=OTHER_ID)
    old_snap, new_snap = await old.receive_json(timeout=2), await new.receive_json(timeout=2)
    assert old_snap["type"] == new_snap["type"] == "snapshot"
    assert old_snap["game"]["role"] == "player" and new_snap["game"]["role"] == "gm"
    assert sheets(old_snap["encounter"]) == set() and stats(old_snap["chase"]) == set()
    assert stats(new_snap["chase"]) == {"ichigo", "rukiya", "grimmdzho"}

    # the next push (an encounter change by the new GM) is projected for the new roles
    await encounter_command(fight.id, savage.NextTurn(), actor_id=OTHER_ID, rng=random.Random(1))
    old_push, new_push = await old.receive_json(timeout=2), await new.receive_json(timeout=2)
    assert old_push["type"] == new_push["type"] == "encounter"
    assert old_push["encounter"]["round"] == new_push["encounter"]["round"] == 1
    assert sheets(old_push["encounter"]) == set()
    assert sheets(new_push["encounter"]) == EVERYONE
    # the chase follows the fight (its round opens), projected for the new roles too
    old_follow, new_follow = await old.receive_json(timeout=2), await new.receive_json(timeout=2)
    assert old_follow["type"] == new_follow["type"] == "chase"
    assert stats(old_follow["chase"]) == set()
    assert stats(new_follow["chase"]) == {"ichigo", "rukiya", "grimmdzho"}

    # a player's hidden roll: sealed for the old GM, open for the new one
    await create_hidden_roll(
        user_id=PLAYER_ID, game_id=fight.id, chat_id=fight.chat_id, topic_id=None,
        command="r", args="2d6 тайна", result={"kind": "roll", "total": 7},
    )  # fmt: skip
    old_roll, new_roll = await old.receive_json(timeout=2), await new.receive_json(timeout=2)
    assert old_roll["roll"]["sealed"] is True and "args" not in old_roll["roll"]
    assert new_roll["roll"]["sealed"] is False and new_roll["roll"]["args"] == "2d6 тайна"
    for ws in (old, new):
        await ws.close()


async def test_the_end_of_the_game_sends_a_snapshot_with_active_false(client, fight):
    gm, _ = await connect(client, fight, GM_ID)
    guest, _ = await connect(client, fight, STRANGER_ID)
    await end_game(fight.id, actor_id=GM_ID)
    for ws, role in ((gm, "gm"), (guest, "spectator")):
        push = await ws.receive_json(timeout=2)
        assert push["type"] == "snapshot" and push["game"]["active"] is False
        assert push["game"]["role"] == role
        await ws.close()


async def test_every_snapshot_re_reads_the_role_even_without_a_game_push(client, fight):
    """A snapshot after a dropped backlog (or one racing the connection) must not show the
    role read earlier: here the `game` notification never reaches the socket at all."""
    ws, snap = await connect(client, fight, GM_ID)
    assert snap["game"]["role"] == "gm"
    bridge = client.app[BRIDGE]
    bridge.stop()
    try:
        await transfer_gm(fight.id, actor_id=GM_ID, new_gm_id=OTHER_ID)
    finally:
        bridge.start()
    await ws.send_json({"type": "resync"})
    again = await ws.receive_json(timeout=2)
    assert again["type"] == "snapshot" and again["game"]["role"] == "player"
    assert sheets(again["encounter"]) == set()
    await encounter_command(fight.id, savage.NextTurn(), actor_id=OTHER_ID, rng=random.Random(1))
    push = await ws.receive_json(timeout=2)
    assert push["type"] == "encounter" and sheets(push["encounter"]) == set()
    await ws.close()


async def test_handing_the_game_to_oneself_sends_nothing(client, fight):
    ws, snap = await connect(client, fight, PLAYER_ID)
    await transfer_gm(fight.id, actor_id=GM_ID, new_gm_id=GM_ID)
    out = await encounter_command(fight.id, savage.NextTurn(), actor_id=GM_ID, rng=random.Random(1))
    push = await ws.receive_json(timeout=2)
    assert push["type"] == "encounter" and push["seq"] == out.seq > snap["encounter"]["seq"]
    await ws.close()
