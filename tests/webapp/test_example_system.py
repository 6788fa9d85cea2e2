"""A fourth system's roll in the Mini App's API, from the test tree (tests/support/coins): once
registered it is one of the roller's commands in a game of any system, stored in the roll
log and shown in the feed by its own name."""

from __future__ import annotations

from tests.support import coins
from tests.webapp.conftest import GM_ID, auth


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
