"""The game's readings of the duel seed through the Mini App API (webapp/systems/duel/rules.py):
everyone in the game reads them with their seed sentences, the GM alone changes one; the next
duel takes the game's readings, a running one keeps its own."""

from __future__ import annotations

import pytest

from engine.duel.options import DEFAULT_OPTIONS, SEED_SENTENCES
from engine.services import duel as duels
from engine.services import get_game
from engine.services.types import GameInfo
from tests.webapp.conftest import GM_ID, OTHER_ID, PLAYER_ID, STRANGER_ID, TOKEN, auth
from tests.webapp.conftest import make_game as make_plain_game
from tests.webapp.systems.duel.table import TOPIC, make_duel
from webapp.links import startapp_token


@pytest.fixture
async def duel_game(db) -> GameInfo:  # type: ignore[no-untyped-def]
    return await make_duel()


@pytest.fixture
def dtoken(duel_game: GameInfo) -> str:
    return startapp_token(duel_game.id, bot_token=TOKEN)


async def call(client, method, token, user_id, status=200, body=None):  # type: ignore[no-untyped-def]
    headers = auth(user_id) if user_id else {}
    path = f"/api/games/{token}/duel/rules"
    response = await client.request(method, path, json=body, headers=headers)
    data = await response.json()
    assert response.status == status, data
    return data


def values(data) -> dict:  # type: ignore[no-untyped-def,type-arg]
    return {r["name"]: r["value"] for r in data["readings"]}


async def test_everyone_reads_the_readings_with_their_seed_sentences(client, dtoken) -> None:
    for user in (GM_ID, PLAYER_ID, STRANGER_ID):  # the GM, a fighter, a spectator
        data = await call(client, "GET", dtoken, user)
        assert data["can_change"] is (user == GM_ID)
        tie = next(r for r in data["readings"] if r["name"] == "dodge_tie")
        assert tie == {
            "name": "dodge_tie",
            "value": "defense",
            "default": "defense",
            "choices": ["defense", "attack"],
            "seed": SEED_SENTENCES["dodge_tie"],
        }
        assert "В случае ничьей защита > атака." in tie["seed"]
        cap = next(r for r in data["readings"] if r["name"] == "sp_cap")
        assert cap["value"] is None and cap["choices"] == [None, 4, 6, 8]
        assert len(data["readings"]) == len(SEED_SENTENCES)
        [running] = data["running"]
        assert running["thread"] == TOPIC and running["names"] == ["Бьорн", "Такеда"]
        assert running["rules"]["dodge_tie"] == "defense"
    await call(client, "GET", dtoken, None, 401)  # no initData


async def test_the_gm_changes_a_reading_for_the_next_duels(client, dtoken, duel_game) -> None:
    data = await call(client, "POST", dtoken, GM_ID, body={"name": "dodge_tie", "value": "attack"})
    assert values(data)["dodge_tie"] == "attack"
    # the running duel keeps the reading it started with
    assert [r["rules"]["dodge_tie"] for r in data["running"]] == ["defense"]
    data = await call(client, "POST", dtoken, GM_ID, body={"name": "sp_cap", "value": 6})
    data = await call(client, "POST", dtoken, GM_ID, body={"name": "sp_cap", "value": None})
    assert values(data)["sp_cap"] is None and values(data)["dodge_tie"] == "attack"
    game = await get_game(duel_game.id)
    assert duels.game_rules(game).dodge_tie == "attack"
    # a duel started afterwards (another topic) takes the game's readings
    start = {"command": "start", "thread": TOPIC + 1, "a": "Бьорн", "b": "Такеда"}
    response = await client.post(f"/api/games/{dtoken}/duel", json=start, headers=auth(GM_ID))
    assert response.status == 200, await response.text()
    data = await call(client, "GET", dtoken, STRANGER_ID)
    kept = {r["thread"]: r["rules"]["dodge_tie"] for r in data["running"]}
    assert kept == {TOPIC: "defense", TOPIC + 1: "attack"}


async def test_a_player_or_a_spectator_cannot_change_a_reading(client, dtoken, duel_game) -> None:
    body = {"name": "dodge_tie", "value": "attack"}
    for user in (PLAYER_ID, OTHER_ID, STRANGER_ID):
        refused = await call(client, "POST", dtoken, user, 403, body)
        assert refused["ok"] is False and refused["error"]["code"] == "forbidden"
        assert refused["error"]["message"]
    game = await get_game(duel_game.id)
    assert duels.game_rules(game) == DEFAULT_OPTIONS


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "no_such_rule", "value": True}, "name"),
        ({"name": "dodge_tie", "value": "draw"}, "value"),
        ({"name": "series_bonus", "value": True}, "value"),  # a yes/no is not 1
        ({"name": "unblockable_parry", "value": 1}, "value"),
        ({"name": "series_bonus", "value": "1"}, "value"),
        ({"name": "dodge_tie"}, "value"),
        ({"name": "sp_cap", "value": 5}, "value"),
    ],
)
async def test_a_bad_body_is_refused_with_its_field(client, dtoken, duel_game, body, field):
    refused = await call(client, "POST", dtoken, GM_ID, 400, body)
    assert refused["error"]["code"] == "bad_request"
    assert refused["error"]["details"]["field"] == field
    assert duels.game_rules(await get_game(duel_game.id)) == DEFAULT_OPTIONS


async def test_a_game_of_another_system_has_no_duel_readings(client, db) -> None:
    game = await make_plain_game("savage", chat_id=-100999)
    token = startapp_token(game.id, bot_token=TOKEN)
    refused = await call(client, "GET", token, GM_ID, 409)
    assert refused["error"]["code"] == "wrong_system"
    refused = await call(
        client, "POST", token, GM_ID, 409, {"name": "dodge_tie", "value": "attack"}
    )
    assert refused["error"]["code"] == "wrong_system"
