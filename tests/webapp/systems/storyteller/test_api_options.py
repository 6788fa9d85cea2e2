"""The game's options through the Mini App API: the GM reads them with the library and sets
them by the `options` command (the chat's /options); a new fight starts with them."""

from __future__ import annotations

from engine.services import storyteller as st
from engine.services.storyteller.options import load_options
from engine.storyteller.options import IMPOSSIBLE
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
