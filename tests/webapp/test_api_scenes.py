"""The shared scene routes (webapp/api/scenes.py) and the live snapshot go by the game's rule
system: each game's snapshot holds its own system's boards and no other's, and the boards of
another system are refused with a stable code before anything is read; the characters routes
likewise."""

from __future__ import annotations

import json

import pytest

from engine.services.types import GameInfo
from tests.webapp.conftest import GM_ID, PLAYER_ID, STRANGER_ID, TOKEN, auth, make_game
from webapp.links import startapp_token
from webapp.systems import registry
from webapp.systems.registry import WebSystem

GENERIC_KEYS = {"type", "seq", "locale", "game", "rolls"}


async def snapshot(client, token, user_id):  # type: ignore[no-untyped-def]
    ws = await client.ws_connect(f"/api/games/{token}/ws", headers=auth(user_id))
    try:
        return await ws.receive_json(timeout=5)
    finally:
        await ws.close()


@pytest.mark.parametrize(("system", "scenes"), [("storyteller", {"st_fight"}), ("duel", {"duel"})])
async def test_a_games_snapshot_holds_only_its_systems_boards(client, db, system, scenes):
    game = await make_game(system)
    token = startapp_token(game.id, bot_token=TOKEN)
    snap = await snapshot(client, token, GM_ID)
    assert snap["type"] == "snapshot" and snap["game"]["system"] == system
    assert set(snap) == GENERIC_KEYS | scenes  # no "encounter", no "chase"


async def test_a_savage_game_has_its_scenes_in_its_snapshot(client, db):
    game = await make_game("savage")
    snap = await snapshot(client, startapp_token(game.id, bot_token=TOKEN), PLAYER_ID)
    assert set(snap) == GENERIC_KEYS | {"encounter", "chase"}
    assert snap["encounter"] is None and snap["chase"] is None  # none open


@pytest.mark.parametrize("scene", ["encounter", "chase"])
async def test_the_boards_of_another_system_are_unknown_scenes(client, game, gtoken, scene):
    path = f"/api/games/{gtoken}/{scene}"
    response = await client.get(path, headers=auth(PLAYER_ID))
    error = (await response.json())["error"]
    assert (response.status, error["code"]) == (404, "unknown_scene")
    body = {"command": "start", "seq": 0, "stream": ""}
    response = await client.post(path, data=json.dumps(body), headers=auth(GM_ID))
    error = (await response.json())["error"]
    assert (response.status, error["code"]) == (404, "unknown_scene")
    assert error["message"]
    # a spectator is refused for the role first, as on every write
    response = await client.post(path, data=json.dumps(body), headers=auth(STRANGER_ID))
    assert (await response.json())["error"]["code"] == "forbidden"


async def test_nothing_was_started_on_the_storyteller_game(client, game: GameInfo, gtoken):
    await client.post(
        f"/api/games/{gtoken}/encounter", json={"command": "start"}, headers=auth(GM_ID)
    )
    snap = await snapshot(client, gtoken, GM_ID)
    assert set(snap) == GENERIC_KEYS | {"st_fight"} and snap["st_fight"] is None


async def test_a_system_without_a_character_editor_says_so(client, db, monkeypatch):
    # every installed system has an editor now: the duel's adapter as if it had none
    monkeypatch.setitem(registry._SYSTEMS, "duel", WebSystem("duel"))
    duel = await make_game("duel")
    gtoken = startapp_token(duel.id, bot_token=TOKEN)
    response = await client.get(f"/api/games/{gtoken}/characters", headers=auth(GM_ID))
    assert response.status == 409
    assert (await response.json())["error"]["code"] == "wrong_system"


async def test_other_paths_keep_the_routers_answers(client, game, gtoken):
    unknown = await client.get(f"/api/games/{gtoken}/nonsense", headers=auth(GM_ID))
    assert (unknown.status, (await unknown.json())["error"]["code"]) == (404, "not_found")
    wrong = await client.post(f"/api/games/{gtoken}/rolls", json={}, headers=auth(GM_ID))
    assert (wrong.status, (await wrong.json())["error"]["code"]) == (405, "method_not_allowed")
