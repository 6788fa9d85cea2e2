"""The initiative board and chase API: projections per viewer, GM-only commands, players'
own characters, stale writes, engine refusals as JSON."""

from __future__ import annotations

import json

import pytest

from engine.services.types import GameInfo
from tests.webapp.conftest import GM_ID, PLAYER_ID, STRANGER_ID, TOKEN, auth
from tests.webapp.systems.savage.fight import make_fight
from webapp.links import startapp_token


@pytest.fixture
async def fight(db) -> GameInfo:  # type: ignore[no-untyped-def]
    return await make_fight(chase_too=True)


@pytest.fixture
def ftoken(fight: GameInfo) -> str:
    return startapp_token(fight.id, bot_token=TOKEN)


async def get(client, ftoken, what, user_id):  # type: ignore[no-untyped-def]
    response = await client.get(f"/api/games/{ftoken}/{what}", headers=auth(user_id))
    assert response.status == 200, await response.text()
    return (await response.json())[what]


async def post(client, ftoken, what, user_id, status=200, **body):  # type: ignore[no-untyped-def]
    response = await client.post(f"/api/games/{ftoken}/{what}", json=body, headers=auth(user_id))
    data = await response.json()
    assert response.status == status, data
    return data if status != 200 else data[what]


async def test_the_gm_deals_a_round_and_everyone_sees_the_order(client, fight, ftoken):
    board = await get(client, ftoken, "encounter", GM_ID)
    assert board["round"] == 0 and len(board["combatants"]) == 4
    dealt = await post(client, ftoken, "encounter", GM_ID, command="next", seq=board["seq"])
    assert dealt["round"] == 1 and dealt["current"] and dealt["seq"] > board["seq"]
    cards = [c["card"] for c in dealt["combatants"]]
    assert all(cards) and all({"code", "rank", "suit", "joker"} <= set(c) for c in cards)
    acting = [c for c in dealt["combatants"] if c["acting"]]
    assert len(acting) == 1 and acting[0]["id"] == dealt["current"]
    group = next(c for c in dealt["combatants"] if c["group"])
    assert [m["name"] for m in group["members"]] == ["Пустой 1", "Пустой 2", "Пустой 3"]
    seen = await get(client, ftoken, "encounter", STRANGER_ID)
    assert [c["id"] for c in seen["combatants"]] == [c["id"] for c in dealt["combatants"]]
    assert seen["current"] == dealt["current"]


async def test_players_get_no_gm_only_data(client, fight, ftoken):
    gm = await get(client, ftoken, "encounter", GM_ID)
    anya = await get(client, ftoken, "encounter", PLAYER_ID)
    guest = await get(client, ftoken, "encounter", STRANGER_ID)
    members = {m["name"]: m for c in gm["combatants"] for m in c["members"]}
    assert members["Гриммджо"]["sheet"]["skills"]["fighting"] == "d12"
    mine = {m["name"]: m for c in anya["combatants"] for m in c["members"]}
    assert mine["Ичиго"]["mine"] and mine["Ичиго"]["sheet"]["parry"] == 7
    for name in ("Гриммджо", "Рукия", "Пустой 1"):
        assert "sheet" not in mine[name] and not mine[name]["mine"]
    assert mine["Ичиго"]["bennies"] == 3 and mine["Гриммджо"]["bennies"] == 1  # public
    raw = json.dumps(guest, ensure_ascii=False)
    assert "sheet" not in raw and "d12" not in raw
    assert "draw" in guest["deck"] and isinstance(guest["deck"]["draw"], int)
    chase_gm = await get(client, ftoken, "chase", GM_ID)
    chase_anya = await get(client, ftoken, "chase", PLAYER_ID)
    by_id = {p["id"]: p for p in chase_anya["participants"]}
    assert by_id["ichigo"]["mine"] and by_id["ichigo"]["stats"]["die"] == 8
    assert "stats" not in by_id["grimmdzho"] and "stats" not in by_id["rukiya"]
    assert all("stats" in p for p in chase_gm["participants"])
    assert by_id["grimmdzho"]["name"] == "Гриммджо"
    # the library: a player sees only their own entries
    response = await client.get(f"/api/games/{ftoken}/characters", headers=auth(PLAYER_ID))
    names = [c["name"] for c in (await response.json())["characters"]]
    assert names == ["Ичиго"]
    response = await client.get(f"/api/games/{ftoken}/characters", headers=auth(GM_ID))
    assert len((await response.json())["characters"]) == 4
    response = await client.get(f"/api/games/{ftoken}/characters", headers=auth(STRANGER_ID))
    assert response.status == 403


@pytest.mark.parametrize(
    ("what", "body"),
    [
        ("encounter", {"command": "deal"}),
        ("encounter", {"command": "undo"}),
        ("encounter", {"command": "add", "name": "Гриммджо"}),
        ("encounter", {"command": "damage", "target": "ichigo", "amount": 12}),
        ("encounter", {"command": "end"}),
        ("chase", {"command": "place", "participant": "grimmdzho", "position": 5}),
        ("chase", {"command": "end"}),
    ],
)
async def test_a_player_calling_a_gm_command_gets_403(client, fight, ftoken, what, body):
    data = await post(client, ftoken, what, PLAYER_ID, status=403, **body)
    assert data["error"]["code"] == "forbidden"


async def test_a_spectator_cannot_write(client, fight, ftoken):
    data = await post(client, ftoken, "encounter", STRANGER_ID, status=403, command="next")
    assert data["error"]["code"] == "forbidden"


async def test_a_player_acts_only_for_their_own_character(client, fight, ftoken):
    board = await post(client, ftoken, "encounter", GM_ID, command="next")
    data = await post(
        client, ftoken, "encounter", PLAYER_ID, status=403, command="hold", actor="rukiya"
    )
    assert data["error"]["code"] == "not_your_character"
    assert data["error"]["message"].startswith("Это не ваш персонаж")
    data = await post(
        client, ftoken, "chase", PLAYER_ID, status=403, command="move",
        participant="grimmdzho", direction="forward",
    )  # fmt: skip
    assert data["error"]["code"] == "not_your_character"
    after = await get(client, ftoken, "encounter", GM_ID)
    assert after["seq"] == board["seq"]


async def test_a_stale_seq_is_refused_and_nothing_is_applied(client, fight, ftoken):
    board = await get(client, ftoken, "encounter", GM_ID)
    first = await post(client, ftoken, "encounter", GM_ID, command="next", seq=board["seq"])
    data = await post(
        client, ftoken, "encounter", GM_ID, status=409, command="next", seq=board["seq"]
    )
    assert data["error"]["code"] == "conflict" and data["error"]["details"]["seq"] == first["seq"]
    assert (await get(client, ftoken, "encounter", GM_ID))["seq"] == first["seq"]
    data = await post(
        client,
        ftoken,
        "encounter",
        GM_ID,
        status=409,
        command="next",
        seq=first["seq"],
        stream="encounter:99",
    )
    assert data["error"]["code"] == "conflict"


async def test_engine_refusals_are_json_with_a_stable_code(client, fight, ftoken):
    data = await post(
        client, ftoken, "encounter", GM_ID, status=409, command="soak", actor="ichigo"
    )
    assert data["error"]["code"] == "no_damage_pending"
    assert (
        data["error"]["message"] == "У этого персонажа нет урона, ждущего решения."
    )  # as in the chat
    assert data["error"]["details"]["description"]["code"] == "rule.no_damage_pending"
    data = await post(client, ftoken, "encounter", GM_ID, status=400, command="warp")
    assert data["error"]["code"] == "bad_request"
    data = await post(client, ftoken, "encounter", GM_ID, status=409, command="start")
    assert data["error"]["code"] == "encounter_active"
    data = await post(
        client, ftoken, "chase", PLAYER_ID, status=409, command="flee", participant="ichigo"
    )
    assert data["error"]["code"] == "no_turn"
    # the page names the participant (it knows the names); the message has its id
    assert data["error"]["details"]["description"] == {
        "code": "chase.no_turn", "params": {"participant": "ichigo"}
    }  # fmt: skip
    assert data["error"]["message"] == "ichigo сейчас не ходит: дождитесь хода по карте действия."


async def test_gm_controls_damage_conditions_undo_and_the_chase(client, fight, ftoken):
    await post(client, ftoken, "encounter", GM_ID, command="next")
    hit = await post(
        client, ftoken, "encounter", GM_ID, command="damage", target="grimmdzho", amount=14
    )
    grimm = next(c for c in hit["combatants"] if c["id"] == "grimmdzho")["members"][0]
    assert grimm["shaken"] or grimm["wounds"] or hit["pending"]
    if hit["pending"]:
        hit = await post(client, ftoken, "encounter", GM_ID, command="take", actor="grimmdzho")
    cond = await post(
        client, ftoken, "encounter", GM_ID, command="condition", target="ichigo", kind="distracted"
    )
    ichigo = next(c for c in cond["combatants"] if c["id"] == "ichigo")["members"][0]
    assert [k["kind"] for k in ichigo["conditions"]] == ["distracted"]
    undone = await post(client, ftoken, "encounter", GM_ID, command="undo", seq=cond["seq"])
    ichigo = next(c for c in undone["combatants"] if c["id"] == "ichigo")["members"][0]
    assert ichigo["conditions"] == []
    row = await get(client, ftoken, "chase", GM_ID)
    assert len(row["row"]) == 9 and all("complication" in card for card in row["row"])
    moved = await post(
        client,
        ftoken,
        "chase",
        GM_ID,
        command="place",
        participant="grimmdzho",
        position=6,
        seq=row["seq"],
    )
    assert next(p for p in moved["participants"] if p["id"] == "grimmdzho")["position"] == 6
    assert {(d["a"], d["b"]) for d in moved["distances"]} == {
        ("ichigo", "grimmdzho"),
        ("rukiya", "grimmdzho"),
    }
    ended = await post(client, ftoken, "chase", GM_ID, command="end")
    assert ended is None
