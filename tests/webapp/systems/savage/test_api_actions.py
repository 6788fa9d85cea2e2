"""Actions on a turn from the initiative board (attack, trait, support, test, defend, aim,
escape, reroll, the GM's status): the same engine commands as the chat, the engine's and
services' refusals with their codes, strict fields, and the board's public log."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import describe
from engine.services.savage import set_players_set_scene
from engine.services.types import GameInfo
from tests.webapp.conftest import GM_ID, OTHER_ID, PLAYER_ID, STRANGER_ID, TOKEN, auth
from tests.webapp.systems.savage.fight import make_fight
from webapp.links import startapp_token


@pytest.fixture
async def fight(db) -> GameInfo:  # type: ignore[no-untyped-def]
    return await make_fight()


@pytest.fixture
def ftoken(fight: GameInfo) -> str:
    return startapp_token(fight.id, bot_token=TOKEN)


async def board(client, ftoken, user_id=GM_ID) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    response = await client.get(f"/api/games/{ftoken}/encounter", headers=auth(user_id))
    assert response.status == 200, await response.text()
    return (await response.json())["encounter"]


async def send(client, ftoken, user_id, status=200, **body):  # type: ignore[no-untyped-def]
    response = await client.post(f"/api/games/{ftoken}/encounter", json=body, headers=auth(user_id))
    data = await response.json()
    assert response.status == status, data
    return data["encounter"] if status == 200 else data["error"]


async def turn_of(client, ftoken, combatant: str) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    """The GM deals and passes turns until ``combatant`` acts."""
    enc = await send(client, ftoken, GM_ID, command="next")
    for _ in range(8):
        if enc["current"] == combatant:
            return enc
        enc = await send(client, ftoken, GM_ID, command="next")
    raise AssertionError(f"{combatant} never acted: {enc['current']}")


def member(enc: dict[str, Any], cid: str) -> dict[str, Any]:
    return next(m for c in enc["combatants"] for m in c["members"] if m["id"] == cid)


def last_items(enc: dict[str, Any]) -> list[dict[str, Any]]:
    return enc["log"][-1]["items"]


def named(enc: dict[str, Any], some_id: str) -> str:
    """The name the newest step of the log gives an id."""
    return enc["log"][-1]["names"][some_id]


async def test_a_player_attacks_on_their_turn_and_every_viewer_sees_the_log(client, ftoken):
    before = await turn_of(client, ftoken, "ichigo")
    after = await send(
        client, ftoken, PLAYER_ID, command="attack", actor="ichigo", target="grimmdzho",
        skill="fighting", damage="str+d6", wild_attack=True, seq=before["seq"],
    )  # fmt: skip
    assert after["seq"] > before["seq"]
    item, *rest = last_items(after)
    assert (item["kind"], item["code"]) == ("rolled", "encounter.rolled_at")
    params = item["params"]
    assert (params["name"], params["target"], params["trait"]) == (
        "ichigo",
        "grimmdzho",
        "fighting",
    )
    assert (named(after, "ichigo"), named(after, "grimmdzho")) == ("Ичиго", "Гриммджо")
    roll = params["roll"]
    assert roll["tn"] == 8  # Grimmjow's Parry (seed 000: Fighting against Parry)
    assert ["wild_attack", 2] in roll["mods"]  # declared by the player (engine/savage/authority.py)
    assert roll["outcome"] in ("critical_failure", "failure", "success", "raise")
    hit = roll["outcome"] in ("success", "raise")
    damage = [i["params"] for i in rest if i["kind"] == "damage_rolled"]
    assert len(damage) == (1 if hit else 0)
    if hit:
        assert damage[0]["name"] == "grimmdzho" and damage[0]["damage"]["toughness"] == 9
        assert damage[0]["damage"]["outcome"] in ("none", "shaken", "wounds")
    # the same log for everyone, nothing GM-only in it
    for viewer in (GM_ID, OTHER_ID, STRANGER_ID):
        assert (await board(client, ftoken, viewer))["log"] == after["log"]
    guest = json.dumps((await board(client, ftoken, STRANGER_ID))["log"], ensure_ascii=False)
    assert "sheet" not in guest and "d10" not in guest and "d12" not in guest
    # an undo takes the step out of the log
    steps = 1
    if after["pending"]:
        await send(client, ftoken, GM_ID, command="take", actor="grimmdzho")
        steps = 2
    for _ in range(steps):
        undone = await send(client, ftoken, GM_ID, command="undo")
    assert undone["log"] == before["log"]


async def test_the_log_is_codes_and_params_the_page_fills(client, ftoken):
    before = await turn_of(client, ftoken, "ichigo")
    enc = await send(
        client, ftoken, PLAYER_ID, command="attack", actor="ichigo", target="grimmdzho",
        skill="fighting", damage="str+d6", seq=before["seq"],
    )  # fmt: skip
    strings = await (await client.get("/api/i18n/ru", headers=auth(PLAYER_ID))).json()
    templates, kinds = strings["descriptions"]["templates"], strings["descriptions"]["kinds"]
    for step in enc["log"]:
        for item in step["items"]:
            forms = templates[item["code"]]  # every code has its Russian sentence
            family = item["code"].split(".")[0]
            for form in forms if isinstance(forms, list) else [forms]:
                for key in describe.placeholders(form):
                    value = item["params"][key]
                    if kinds[family].get(key) in ("name", "strong_name"):
                        assert step["names"][value], (item, key)  # the page can name it


async def test_a_player_acts_only_with_their_own_character(client, ftoken):
    await turn_of(client, ftoken, "rukiya")
    for actor in ("rukiya", "grimmdzho"):
        error = await send(
            client, ftoken, PLAYER_ID, 403, command="attack", actor=actor, target="ichigo"
        )
        assert error["code"] == "not_your_character"
    error = await send(client, ftoken, PLAYER_ID, 403, command="reroll", actor="rukiya")
    assert error["code"] == "not_your_character"
    # a free attack (a foe leaving melee, seed 000 lines 103-104) is triggered by the GM
    error = await send(
        client, ftoken, PLAYER_ID, 403, command="attack", actor="ichigo", target="grimmdzho",
        free=True,
    )  # fmt: skip
    assert error["code"] == "gm_only"


async def test_out_of_turn_the_engine_refuses_with_its_code(client, ftoken):
    enc = await turn_of(client, ftoken, "grimmdzho")
    error = await send(
        client, ftoken, PLAYER_ID, 409, command="attack", actor="ichigo", target="grimmdzho"
    )
    assert error["code"] == "not_your_turn"
    assert error["message"] == "Сейчас не ход этого персонажа."
    error = await send(client, ftoken, PLAYER_ID, 409, command="defend", actor="ichigo")
    assert error["code"] == "not_your_turn"
    assert (await board(client, ftoken))["seq"] == enc["seq"]


TAUNT = {"command": "test", "skill": "taunt"}
NOTICE = {"command": "trait", "trait": "notice"}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"actor": None}, "actor"),
        ({"command": "attack", "actor": "i" * 65, "target": "grimmdzho"}, "actor"),
        ({"command": "attack", "actor": "ichigo", "target": 5}, "target"),
        ({"skill": "magic"}, "skill"),
        ({"skill": "Fighting"}, "skill"),
        ({"range": "far"}, "range"),
        ({"cover": "total"}, "cover"),
        ({"light": "night"}, "light"),
        ({"called_shot": "eye"}, "called_shot"),
        ({"gang_up": 5}, "gang_up"),
        ({"ap": -1}, "ap"),
        ({"ap": "2"}, "ap"),
        ({"ap": 2.0}, "ap"),
        ({"gang_up": True}, "gang_up"),
        ({"the_drop": "yes"}, "the_drop"),
        ({"damage": "2d6; drop table"}, "damage"),
        ({"damage": "2d6 стойкость 4"}, "damage"),
        ({"damage": "1d1"}, "damage"),
        ({"damage": ""}, "damage"),
        ({"damage": "d6+" * 20}, "damage"),
        ({"modifiers": [["modifier", 100]]}, "modifiers"),
        ({"modifiers": [["", 1]]}, "modifiers"),
        ({"modifiers": [["<b>", 1]]}, "modifiers"),
        ({"modifiers": [["x", 1]] * 7}, "modifiers"),
        ({"modifiers": {"modifier": 1}}, "modifiers"),
        ({"modifiers": [["modifier", True]]}, "modifiers"),
        ({**NOTICE, "tn": "4"}, "tn"),
        ({**NOTICE, "tn": 0}, "tn"),
        ({**NOTICE, "trait": "x" * 41}, "trait"),
        ({**NOTICE, "trait": "no/tice"}, "trait"),
        ({**NOTICE, "free": 1}, "free"),
        ({"command": "support", "ally": "rukiya"}, "skill"),
        ({"command": "support", "skill": "taunt"}, "ally"),
        ({**TAUNT, "effect": "sleepy"}, "effect"),
        ({**TAUNT, "attribute": "luck"}, "attribute"),
        ({"command": "aim", "mode": "double"}, "mode"),
        ({"command": "escape", "trait": "agility"}, "trait"),
        ({"command": "reroll", "actor": None}, "actor"),
        ({"command": "declare", "count": 4}, "count"),
    ],
)
async def test_bad_fields_are_refused_with_the_field_name(client, ftoken, body, field):
    enc = await turn_of(client, ftoken, "ichigo")
    full = {"command": "attack", "actor": "ichigo", "target": "grimmdzho", **body}
    full = {key: value for key, value in full.items() if value is not None}
    error = await send(client, ftoken, PLAYER_ID, 400, **full)
    assert error["code"] == "bad_request" and error["details"] == {"field": field}
    assert (await board(client, ftoken))["seq"] == enc["seq"]  # nothing applied


@pytest.mark.parametrize("dice", ["2x6", "1d1", "str+d6", "2d6 стойкость 4", 5])
async def test_the_gms_damage_dice_are_checked_before_the_engine_rolls(client, ftoken, dice):
    await send(client, ftoken, GM_ID, command="next")
    body = {"command": "damage", "target": "ichigo", "dice": dice}
    error = await send(client, ftoken, GM_ID, 400, **body)
    assert error["code"] == "bad_request" and error["details"] == {"field": "dice"}
    enc = await send(client, ftoken, GM_ID, command="damage", target="ichigo", dice="2d6+1")
    assert any(i["kind"] == "damage_rolled" for i in last_items(enc))


@pytest.mark.parametrize(
    "changes",
    [{}, {"mana": 1}, {"wounds": 4}, {"wounds": True}, {"fatigue": -1}, {"shaken": 1}, [1]],
)
async def test_bad_status_changes_are_refused(client, ftoken, changes):
    error = await send(
        client, ftoken, GM_ID, 400, command="status", target="ichigo", changes=changes
    )
    assert error["code"] == "bad_request" and error["details"] == {"field": "changes"}


async def test_a_spectator_cannot_act(client, ftoken):
    await turn_of(client, ftoken, "ichigo")
    for command in ("attack", "trait", "reroll", "status"):
        error = await send(
            client, ftoken, STRANGER_ID, 403, command=command, actor="ichigo", target="grimmdzho"
        )
        assert error["code"] == "forbidden"


async def test_status_is_the_gms_correction(client, ftoken):
    error = await send(
        client, ftoken, PLAYER_ID, 403, command="status", target="ichigo", changes={"wounds": 0}
    )
    assert error["code"] == "forbidden"
    enc = await send(
        client, ftoken, GM_ID, command="status", target="ichigo",
        changes={"wounds": 2, "fatigue": 1, "shaken": True, "dead": False},
    )  # fmt: skip
    ichigo = member(enc, "ichigo")
    assert (ichigo["wounds"], ichigo["fatigue"], ichigo["shaken"]) == (2, 1, True)
    (item,) = last_items(enc)
    assert item["code"] == "encounter.status_set" and named(enc, item["params"]["name"]) == "Ичиго"
    assert item["params"]["changes"] == {"wounds": 2, "fatigue": 1, "shaken": 1, "dead": 0}


async def test_a_benny_rerolls_the_players_last_trait_roll(client, ftoken):
    await turn_of(client, ftoken, "ichigo")
    enc = await send(client, ftoken, PLAYER_ID, command="trait", actor="ichigo", trait="Внимание")
    (item,) = last_items(enc)
    assert item["code"] == "encounter.rolled"  # a trait roll for nothing else: no purpose said
    assert (item["params"]["purpose"], item["params"]["trait"]) == ("trait", "notice")
    roll = item["params"]["roll"]
    assert roll["outcome"] != "critical_failure"  # the seeded dice allow a re-roll
    ichigo = member(enc, "ichigo")
    assert ichigo["reroll"] is True and ichigo["bennies"] == 3
    assert member(enc, "rukiya")["reroll"] is False
    enc = await send(client, ftoken, PLAYER_ID, command="reroll", actor="ichigo")
    ichigo = member(enc, "ichigo")
    assert ichigo["bennies"] == 2
    rerolled = [i for i in last_items(enc) if i["kind"] == "rerolled"]
    assert len(rerolled) == 1 and rerolled[0]["params"]["previous"] == roll["total"]
    kept = rerolled[0]["params"]["kept"]
    assert rerolled[0]["code"] == f"encounter.rerolled_{kept}" and kept in ("new", "old")
    # the turn ends: nothing left to re-roll
    enc = await send(client, ftoken, PLAYER_ID, command="next")
    error = await send(client, ftoken, GM_ID, 409, command="reroll", actor="ichigo")
    assert error["code"] == "nothing_to_reroll"


async def test_support_test_and_the_whole_turn_actions(client, ftoken):
    await turn_of(client, ftoken, "ichigo")
    enc = await send(client, ftoken, PLAYER_ID, command="declare", actor="ichigo", count=3)
    assert last_items(enc) == [
        {"kind": "actions_declared", "code": "encounter.actions_declared",
         "params": {"name": "ichigo", "count": 3}}
    ]  # fmt: skip
    enc = await send(
        client, ftoken, PLAYER_ID, command="support", actor="ichigo", ally="rukiya",
        skill="athletics", for_trait="shooting",
    )  # fmt: skip
    params = last_items(enc)[0]["params"]
    assert (params["purpose"], named(enc, params["target"])) == ("support", "Рукия")
    assert ["multi_action", -4] in params["roll"]["mods"]
    enc = await send(
        client, ftoken, PLAYER_ID, command="test", actor="ichigo", target="grimmdzho",
        skill="taunt", effect="vulnerable",
    )  # fmt: skip
    assert last_items(enc)[0]["params"]["purpose"] == "test"
    error = await send(client, ftoken, PLAYER_ID, 409, command="escape", actor="ichigo")
    assert error["code"] == "not_entangled"
    error = await send(client, ftoken, PLAYER_ID, 409, command="defend", actor="ichigo")
    assert error["code"] == "defend_no_other_actions"
    # the GM acts for an NPC: Defend takes the whole turn
    await send(client, ftoken, PLAYER_ID, command="next")
    enc = await turn_of_next(client, ftoken, "grimmdzho")
    enc = await send(client, ftoken, GM_ID, command="defend", actor="grimmdzho")
    assert {
        "kind": "condition_added", "code": "encounter.condition_added",
        "params": {"name": "grimmdzho", "condition": "defend"},
    } in last_items(enc)  # fmt: skip
    error = await send(client, ftoken, GM_ID, 409, command="aim", actor="grimmdzho")
    assert error["code"] == "defend_no_other_actions"


async def turn_of_next(client, ftoken, combatant: str) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    """Pass turns (without dealing first) until ``combatant`` acts."""
    enc = await board(client, ftoken)
    for _ in range(8):
        if enc["current"] == combatant:
            return enc
        enc = await send(client, ftoken, GM_ID, command="next")
    raise AssertionError(f"{combatant} never acted")


async def test_aim_and_a_ranged_attack_by_the_gm(client, fight, ftoken):
    # the light is the player's to declare once the GM lets them (engine/savage/authority.py)
    await set_players_set_scene(fight.id, True, actor_id=GM_ID)
    await turn_of(client, ftoken, "rukiya")
    enc = await send(client, ftoken, GM_ID, command="aim", actor="rukiya", mode="ignore")
    items = last_items(enc)
    assert any(i["params"].get("condition") == "aim" for i in items)
    # next round, Rukia shoots with the Aim ignoring the range penalty
    await send(client, ftoken, GM_ID, command="deal")
    enc = await turn_of_next(client, ftoken, "rukiya")
    enc = await send(
        client, ftoken, OTHER_ID, command="attack", actor="rukiya", target="grimmdzho",
        skill="shooting", damage="2d6", ap=2, range="long", cover="light", light="dim",
    )  # fmt: skip
    roll = last_items(enc)[0]["params"]["roll"]
    assert roll["tn"] == 4 and ["aim_ignore", 4] in roll["mods"]
    assert ["range", -4] in roll["mods"] and ["cover", -2] in roll["mods"]
    assert ["illumination", -2] in roll["mods"]
