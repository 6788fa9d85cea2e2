"""The fighter editor of a duel game: every member reads the fighters, a player saves and
deletes their own (text block or JSON), the GM defines a class, a preview says what is wrong."""

from __future__ import annotations

import pytest

from engine import codec
from engine.services.types import GameInfo
from tests.engine.duel.six_turns import BJORN
from tests.webapp.conftest import GM_ID, OTHER_ID, PLAYER_ID, STRANGER_ID, TOKEN, auth
from tests.webapp.systems.duel.table import make_duel
from webapp.links import startapp_token


@pytest.fixture
async def dtoken(db) -> str:  # type: ignore[no-untyped-def]
    game: GameInfo = await make_duel()
    return startapp_token(game.id, bot_token=TOKEN)


async def call(client, method, path, user_id, status=200, body=None):  # type: ignore[no-untyped-def]
    response = await client.request(method, path, json=body, headers=auth(user_id))
    data = await response.json()
    assert response.status == status, data
    return data


async def test_members_read_and_own_their_fighters(client, dtoken) -> None:
    base = f"/api/games/{dtoken}/characters"
    listed = await call(client, "GET", base, OTHER_ID)
    assert [f["name"] for f in listed["characters"]] == ["Бьорн", "Такеда"]
    assert {c["code"] for c in listed["classes"]} >= {"raider", "kensei", "orochi"}
    bjorn = listed["characters"][0]
    assert "Атака 2, Блок 1, Уклонение 0, Урон d8, ХП 24, Броня 1" in bjorn["sheet"]
    # not Борис's fighter: refused, and nothing changed
    stronger = codec.to_data(BJORN) | {"stats": {**codec.to_data(BJORN)["stats"], "attack": 9}}
    refused = await call(client, "POST", base, OTHER_ID, 403, {"sheet": stronger})
    assert refused["error"]["code"] == "not_your_character"
    mine = await call(client, "POST", base, PLAYER_ID, body={"sheet": stronger})
    assert mine["character"]["data"]["stats"]["attack"] == 9
    wrong = await call(client, "POST", f"{base}/preview", PLAYER_ID, body={"sheet": "Икс\nХп 5"})
    assert wrong["valid"] is False and wrong["error"]["code"] == "sheet_missing"
    await call(client, "GET", base, STRANGER_ID, 403)
    await call(client, "DELETE", f"{base}/{bjorn['id']}", OTHER_ID, 403)
    await call(client, "DELETE", f"{base}/{bjorn['id']}", PLAYER_ID)


async def test_the_gm_defines_a_class(client, dtoken) -> None:
    base = f"/api/games/{dtoken}/characters"
    ronin = {"code": "ronin", "name": "Ронин", "moves": [{"code": "attack", "name": "Атака"}]}
    await call(client, "POST", base, PLAYER_ID, 403, {"class": ronin})
    saved = await call(client, "POST", base, GM_ID, body={"class": ronin})
    assert saved["class"]["name"] == "Ронин"
    preview = await call(client, "POST", f"{base}/preview", PLAYER_ID,
                         body={"sheet": "Кэн\nКласс: Ронин\nАтака 1, Урон d6, Хп 10"})  # fmt: skip
    assert preview["valid"] and "Класс: Ронин" in preview["sheet"]
