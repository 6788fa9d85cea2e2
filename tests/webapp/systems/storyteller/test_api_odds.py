"""GET /api/games/{token}/odds: a pool's exact odds before the roll (the roller's «шанс
успеха»), for every member of the game; bad pools are 400."""

from __future__ import annotations

from fractions import Fraction

from engine.dice.odds import odds
from tests.webapp.conftest import GM_ID, PLAYER_ID, STRANGER_ID, auth


async def test_the_odds_of_a_pool(client, gtoken):  # type: ignore[no-untyped-def]
    response = await client.get(
        f"/api/games/{gtoken}/odds", params={"pool": "5 6 спец"}, headers=auth(PLAYER_ID)
    )
    assert response.status == 200
    found = (await response.json())["odds"]
    expected = odds("p 5 6 спец")
    assert found["success"] == float(expected.probability("success"))
    assert abs(sum(found[k] for k in ("botch", "failure", "success")) - 1) < 1e-9
    # one die at difficulty 6: half the faces succeed, the 1 is a botch
    one = await client.get(f"/api/games/{gtoken}/odds", params={"pool": "1 6"}, headers=auth(GM_ID))
    data = (await one.json())["odds"]
    assert data["success"] == float(Fraction(5, 10)) and data["botch"] == float(Fraction(1, 10))
    seen = await client.get(
        f"/api/games/{gtoken}/odds", params={"pool": "3 7"}, headers=auth(STRANGER_ID)
    )
    assert seen.status == 200  # the token is enough to look: a spectator


async def test_a_bad_pool_is_refused(client, gtoken):  # type: ignore[no-untyped-def]
    for pool in ("", "0 6", "5 11", "x" * 200):
        response = await client.get(
            f"/api/games/{gtoken}/odds", params={"pool": pool}, headers=auth(GM_ID)
        )
        assert response.status == 400, pool
        assert (await response.json())["error"]["code"] == "bad_request"
