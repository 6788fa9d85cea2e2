"""Who may set what through the Mini App API (engine/savage/authority.py; docs/rules/savage.md
«Who may set what»): the same refusals as the chat, in Russian, before anything is rolled."""

from __future__ import annotations

from typing import Any

import pytest

from engine.services.savage import set_players_set_scene
from engine.services.types import GameInfo
from tests.webapp.conftest import GM_ID, PLAYER_ID, TOKEN
from tests.webapp.systems.savage.fight import make_fight
from tests.webapp.systems.savage.test_api_actions import board, last_items, send, turn_of
from webapp.links import startapp_token

NO_FREE = (
    "Свободный модификатор к броску добавляет только ведущий. Игрок заявляет обстановку: "
    "дальность, укрытие, прицельную атаку, численное превосходство, безрассудную атаку, "
    "прицеливание, несколько действий."
)
ATTACK = {"command": "attack", "actor": "ichigo", "target": "grimmdzho"}


@pytest.fixture
async def fight(db) -> GameInfo:  # type: ignore[no-untyped-def]
    return await make_fight()


@pytest.fixture
def ftoken(fight: GameInfo) -> str:
    return startapp_token(fight.id, bot_token=TOKEN)


def mods_of(enc: dict[str, Any]) -> dict[str, int]:
    (roll,) = [i["params"]["roll"] for i in last_items(enc) if i["kind"] == "rolled"]
    return dict(roll["mods"])


@pytest.mark.parametrize(
    ("body", "code", "message"),
    [
        ({"modifiers": [["modifier", 20]] * 6}, "gm_sets_modifier", NO_FREE),
        ({"modifiers": [["засада", 1]]}, "gm_sets_modifier", NO_FREE),
        (
            {"command": "trait", "trait": "notice", "tn": 2, "target": None},
            "gm_sets_tn",
            "Другую сложность назначает только ведущий: игрок бросает против 4.",
        ),
        (
            {"command": "test", "skill": "taunt", "attribute": "agility"},
            "gm_sets_attribute",
            "Другой атрибут для сопротивления Испытанию выбирает только ведущий.",
        ),
        (
            {"light": "dark"},
            "gm_sets_scene",
            "В этой игре освещение и атаку врасплох задаёт ведущий.",
        ),
    ],
)
async def test_a_players_forged_parts_are_refused(client, ftoken, body, code, message):
    enc = await turn_of(client, ftoken, "ichigo")
    full = {key: value for key, value in {**ATTACK, **body}.items() if value is not None}
    error = await send(client, ftoken, PLAYER_ID, 403, **full)
    assert (error["code"], error["message"]) == (code, message)
    assert (await board(client, ftoken))["seq"] == enc["seq"]  # nothing rolled


async def test_the_gms_bounded_modifier_works(client, ftoken):
    await turn_of(client, ftoken, "ichigo")
    body = {**ATTACK, "modifiers": [["modifier", 6], ["засада", 6]]}
    error = await send(client, ftoken, GM_ID, 400, **body)
    assert (error["code"], error["message"]) == (
        "modifier_out_of_range",
        "Свободные модификаторы одного броска в сумме не больше ±10.",
    )
    enc = await send(
        client, ftoken, GM_ID, command="trait", actor="ichigo", trait="notice", tn=6,
        modifiers=[["modifier", 10]],
    )  # fmt: skip
    assert mods_of(enc)["modifier"] == 10


@pytest.mark.parametrize(
    ("body", "label", "value"),
    [
        ({"wild_attack": True}, "wild_attack", 2),
        ({"called_shot": "limb"}, "called_shot", -2),
        ({"gang_up": 3}, "gang_up", 3),
        ({"skill": "athletics", "range": "medium"}, "range", -2),
        ({"skill": "athletics", "cover": "heavy"}, "cover", -6),
    ],
)
async def test_each_declared_situation_still_works_for_the_player(
    client, ftoken, body, label, value
):
    await turn_of(client, ftoken, "ichigo")
    enc = await send(client, ftoken, PLAYER_ID, **ATTACK, **body)
    assert mods_of(enc)[label] == value


async def test_the_gm_may_let_players_set_the_light_and_the_drop(client, fight, ftoken):
    await set_players_set_scene(fight.id, True, actor_id=GM_ID)
    await turn_of(client, ftoken, "ichigo")
    enc = await send(client, ftoken, PLAYER_ID, **ATTACK, light="dim", the_drop=True)
    assert (mods_of(enc)["illumination"], mods_of(enc)["the_drop"]) == (-2, 4)


async def test_the_board_tells_each_viewer_what_they_may_set(client, fight, ftoken):
    gm = await board(client, ftoken, GM_ID)
    player = await board(client, ftoken, PLAYER_ID)
    assert {"modifier", "tn", "illumination", "the_drop"} <= set(gm["may_set"])
    assert {"wild_attack", "cover", "range", "called_shot"} <= set(player["may_set"])
    assert not {"modifier", "tn", "attribute", "illumination", "the_drop"} & set(player["may_set"])
    await set_players_set_scene(fight.id, True, actor_id=GM_ID)
    player = await board(client, ftoken, PLAYER_ID)
    assert {"illumination", "the_drop"} <= set(player["may_set"])
    assert "modifier" not in player["may_set"]
