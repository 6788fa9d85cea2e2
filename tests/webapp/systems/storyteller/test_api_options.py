"""The game's options through the Mini App API: the GM reads them with the library and sets
them by the `options` command (the chat's /options); a new fight starts with them."""

from __future__ import annotations

import pytest

from engine.services import storyteller as st
from engine.services.storyteller.options import load_options, set_options
from engine.storyteller.healing import healing_hours
from engine.storyteller.options import (
    BASHING,
    DEFAULT_HEALING,
    IMPOSSIBLE,
    LETHAL,
    SEED_AIM_TARGETS,
    AimTarget,
)
from tests.webapp.conftest import GM_ID, PLAYER_ID, TOKEN, auth, make_game
from tests.webapp.systems.storyteller.test_api_fight import api, faces, send  # noqa: F401
from webapp.links import startapp_token


async def library(api, token, user_id):  # type: ignore[no-untyped-def]  # noqa: F811
    response = await api.get(f"/api/games/{token}/characters", headers=auth(user_id))
    assert response.status == 200, await response.text()
    return await response.json()


async def test_the_gm_reads_and_sets_the_games_options(api) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    game = await make_game("storyteller")
    token = startapp_token(game.id, bot_token=TOKEN)
    shown = (await library(api, token, GM_ID))["options"]
    assert shown["gm_review"] is True and shown["missing_ability"] == "harder"
    assert "Пистолет (4, летальные, сложность 6, Огнестрельное оружие)" in shown["weapons"]
    assert "options" not in await library(api, token, PLAYER_ID)  # the GM's form only
    error = await send(api, token, PLAYER_ID, 403, command="options", gm_review=False)
    assert error["code"] == "forbidden"
    # «Это усложняет действие или делает его невозможным»: the GM reads «impossible»
    await send(
        api,
        token,
        GM_ID,
        command="options",
        missing_ability=IMPOSSIBLE,
        hide_npcs=False,
        blind_difficulty=3,
        weapons=shown["weapons"] + "\nШпага (Сила+2, летальные, сложность 5, Фехтование)",
        armor="Кольчуга 3, штраф 2",
    )
    options = await load_options(game.id)
    assert options.missing_ability == IMPOSSIBLE and options.hide_npcs is False
    assert options.gm_review is True  # what the form left out stays as it was
    assert options.blind_difficulty == 3 and options.rear_dice == 2
    assert options.weapon("Шпага") is not None and options.weapon("Пистолет") is not None
    assert [a.name for a in options.armor] == ["Кольчуга"]
    again = (await library(api, token, GM_ID))["options"]
    assert again["armor"] == "Кольчуга 3, штраф 2" and not again["hide_npcs"]
    # a row that cannot be read is refused, naming it; nothing is changed
    bad = await send(api, token, GM_ID, 400, command="options", armor="Кольчуга")
    assert bad["code"] == "sheet_bad_armor" and "Кольчуга" in bad["message"]
    assert (await load_options(game.id)).armor == options.armor
    # the next fight starts with them
    fight = await send(api, token, GM_ID, command="start")
    assert fight is not None
    view = await st.current_fight(game.id)
    assert view is not None and view.state.options == options


async def test_the_gm_changes_the_healing_and_aim_tables_and_puts_them_back(api) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    game = await make_game("storyteller")
    token = startapp_token(game.id, bot_token=TOKEN)
    shown = (await library(api, token, GM_ID))["options"]
    assert shown["healing"]["lethal"]["injured"] == "1нед"  # the default, as the form edits it
    assert shown["healing"]["aggravated"]["crippled"] == "3мес"  # as lethal (seed 002)
    assert [lv["name"] for lv in shown["levels"]][:2] == ["Ушиблен", "Поранен"]
    assert shown["healing_default"] and shown["aim_default"]
    # the seed's «Маленькая (кисть руки, голова, оружие): +2 // +1»
    assert {"code": "small", "name": "Маленькая", "difficulty": 2, "damage": 1} in shown[
        "aim_targets"
    ]
    await send(
        api,
        token,
        GM_ID,
        command="options",
        healing={"lethal": {"injured": "10д"}, "bashing": {"bruised": "2ч"}},
        aim_targets=[{"code": "small", "difficulty": 3, "damage": 2}],
    )
    options = await load_options(game.id)
    assert healing_hours(LETHAL, "injured", options) == 240
    assert healing_hours(BASHING, "bruised", options) == 2
    assert healing_hours(LETHAL, "hurt", options) == 72  # a row not sent stays
    assert options.aim_target("small") == AimTarget("small", 3, 2, "Маленькая")
    again = (await library(api, token, GM_ID))["options"]
    assert again["healing"]["lethal"]["injured"] == "10д" and not again["healing_default"]
    # absurd values are refused in Russian, naming them; nothing is changed
    for body, code, words in (
        ({"healing": {"lethal": {"injured": "-3д"}}}, "heal_time_range", "от 1 часа до 5 лет"),
        ({"healing": {"lethal": {"injured": "скоро"}}}, "bad_duration", "скоро"),
        ({"healing": {"fire": {"injured": "3д"}}}, "unknown_damage_type", "fire"),
        ({"healing": {"lethal": {"dead": "3д"}}}, "unknown_level", "dead"),
        ({"aim_targets": [{"code": "small", "difficulty": 11, "damage": 1}]},
         "aim_difficulty_range", "от 1 до 10"),
        ({"aim_targets": [{"code": "tiny", "difficulty": 3, "damage": -1}]},
         "aim_damage_range", "от 0 до 10"),
        ({"aim_targets": [{"code": "huge", "difficulty": 3, "damage": 1}]},
         "unknown_target", "huge"),
    ):  # fmt: skip
        bad = await send(api, token, GM_ID, 400, command="options", **body)
        assert bad["code"] == code and words in bad["message"], bad
    assert await load_options(game.id) == options
    # a player cannot, and each table goes back to its default
    error = await send(api, token, PLAYER_ID, 403, command="options", reset="healing")
    assert error["code"] == "forbidden"
    await send(api, token, GM_ID, command="options", reset="healing")
    options = await load_options(game.id)
    assert options.healing == DEFAULT_HEALING and options.aim_target("small").difficulty == 3  # type: ignore[union-attr]
    await send(api, token, GM_ID, command="options", reset="aim_targets")
    assert (await load_options(game.id)).aim_targets == SEED_AIM_TARGETS
    assert (await library(api, token, GM_ID))["options"]["aim_default"]


async def test_open_boards_get_a_fresh_snapshot_when_the_options_change(api) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    game = await make_game("storyteller")
    token = startapp_token(game.id, bot_token=TOKEN)
    await send(api, token, GM_ID, command="start")
    sockets = {}
    for user in (GM_ID, PLAYER_ID):
        ws = await api.ws_connect(f"/api/games/{token}/ws", headers=auth(user))
        first = await ws.receive_json(timeout=5)
        assert first["type"] == "snapshot" and first["st_fight"]["options_changed"] is False
        sockets[user] = ws
    # from the form: every open page takes the new state; the fight keeps its own copy
    await send(api, token, GM_ID, command="options", gm_review=False)
    for ws in sockets.values():
        frame = await ws.receive_json(timeout=5)
        assert frame["type"] == "snapshot" and frame["st_fight"]["options_changed"] is True
    view = await st.current_fight(game.id)
    assert view is not None and view.state.options.gm_review
    # from the chat (the same service, the process's notifier): the same push
    await set_options(game.id, view.state.options, actor_id=GM_ID)
    for ws in sockets.values():
        frame = await ws.receive_json(timeout=5)
        assert frame["type"] == "snapshot" and frame["st_fight"]["options_changed"] is False
    # a refused change tells nobody
    await send(api, token, PLAYER_ID, 403, command="options", gm_review=False)
    for ws in sockets.values():
        with pytest.raises(TimeoutError):
            await ws.receive_json(timeout=0.3)
        await ws.close()
