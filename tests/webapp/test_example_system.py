"""A fourth system in the Mini App's API, from the test tree (tests/support/coins): once
registered its roll is one of the roller's commands in a game of any system, stored in the
roll log and shown in the feed by its own name; its contest is served by the shared scene
routes in its games only."""

from __future__ import annotations

from typing import Any

from tests.support import coins
from tests.webapp.conftest import GM_ID, OTHER_ID, PLAYER_ID, STRANGER_ID, TOKEN, auth, make_game
from webapp.links import startapp_token


async def test_its_roll_is_made_and_listed_by_the_api(client, game, gtoken):  # type: ignore[no-untyped-def]
    with coins.installed():
        response = await client.post(
            f"/api/games/{gtoken}/roll", json={"command": "coin", "args": "4"}, headers=auth(GM_ID)
        )
        assert response.status == 200, await response.text()
        made = (await response.json())["roll"]
        assert made["command"] == "coin" and made["result"]["kind"] == "coin"
        assert len(made["result"]["faces"]) == 4
        listed = await (await client.get(f"/api/games/{gtoken}/rolls", headers=auth(GM_ID))).json()
        assert [r["command"] for r in listed["rolls"]] == ["coin"]
    refused = await client.post(
        f"/api/games/{gtoken}/roll", json={"command": "coin", "args": "4"}, headers=auth(GM_ID)
    )
    assert refused.status == 400  # taken out with the system


async def test_its_contest_is_started_played_and_undone_through_the_api(  # type: ignore[no-untyped-def]
    db, aiohttp_client, make_app
):
    """The scene's routes come from its registration: start, end and undo as every scene
    kind has them, its own toss; the engine's observation is what every viewer reads."""
    with coins.installed():
        game = await make_game("coins")
        client = await aiohttp_client(make_app())
        path = f"/api/games/{startapp_token(game.id, bot_token=TOKEN)}/coin_toss"

        async def post(user: int, command: str, status: int = 200) -> dict[str, Any]:
            response = await client.post(path, json={"command": command}, headers=auth(user))
            assert response.status == status, await response.text()
            answer: dict[str, Any] = await response.json()
            return answer

        assert (await post(PLAYER_ID, "start", 403))["error"]["code"] == "forbidden"
        assert (await post(GM_ID, "start"))["coin_toss"] == {
            "stream": "coin_toss:1", "seq": 0, "tosses": [], "scores": []
        }  # fmt: skip
        assert (await post(GM_ID, "start", 409))["error"]["code"] == "scene_active"
        await post(PLAYER_ID, "toss")
        tossed = (await post(OTHER_ID, "toss"))["coin_toss"]
        for viewer in (PLAYER_ID, STRANGER_ID):  # a spectator too: nothing of it is hidden
            read = await (await client.get(path, headers=auth(viewer))).json()
            assert read["coin_toss"] == tossed and tossed["seq"] == 2
        assert [t["by"] for t in tossed["tosses"]] == [PLAYER_ID, OTHER_ID]
        undone = (await post(GM_ID, "undo"))["coin_toss"]
        assert [t["by"] for t in undone["tosses"]] == [PLAYER_ID] and undone["seq"] == 3
        assert (await post(GM_ID, "end"))["coin_toss"] is None
        assert (await post(PLAYER_ID, "toss", 409))["error"]["message"] == (
            "Такого в этой игре сейчас не идёт."
        )


async def test_its_scene_is_no_scene_of_a_game_of_another_system(  # type: ignore[no-untyped-def]
    db, aiohttp_client, make_app
):
    with coins.installed():
        game = await make_game()  # a Storyteller game
        client = await aiohttp_client(make_app())
        path = f"/api/games/{startapp_token(game.id, bot_token=TOKEN)}/coin_toss"
        response = await client.post(path, json={"command": "start"}, headers=auth(GM_ID))
        assert response.status == 404
        assert (await response.json())["error"]["code"] == "unknown_scene"
