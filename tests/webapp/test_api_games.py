"""The JSON API with valid initData: the user's games, roles, rolls, hidden rolls, reveal."""

from __future__ import annotations

import asyncio

from engine.services import end_game, set_language
from tests.webapp.conftest import GM_ID, OTHER_ID, PLAYER_ID, STRANGER_ID, TOKEN, auth
from webapp.links import startapp_token


async def roll(client, gtoken, user_id, hidden=False, command="pool", args="5 6 — атака"):  # type: ignore[no-untyped-def]
    return await client.post(
        f"/api/games/{gtoken}/roll",
        json={"command": command, "args": args, "hidden": hidden},
        headers=auth(user_id),
    )


async def test_me_lists_the_users_games_with_tokens(client, game, gtoken):
    data = await (await client.get("/api/me", headers=auth(PLAYER_ID))).json()
    assert data["ok"] and data["user"]["id"] == PLAYER_ID
    assert data["locale"] == "ru"
    assert [(g["token"], g["role"], g["name"]) for g in data["games"]] == [
        (gtoken, "player", "Тени Чикаго")
    ]
    stranger = await (await client.get("/api/me", headers=auth(STRANGER_ID))).json()
    assert stranger["games"] == []


async def test_the_viewer_role_comes_from_the_game(client, game, gtoken):
    for uid, role in ((GM_ID, "gm"), (PLAYER_ID, "player"), (STRANGER_ID, "spectator")):
        data = await (await client.get(f"/api/games/{gtoken}", headers=auth(uid))).json()
        assert data["game"]["role"] == role
        assert data["game"]["gm"] == {"id": GM_ID, "name": "Мастер"}
        assert [p["id"] for p in data["game"]["players"]] == [PLAYER_ID, OTHER_ID]


async def test_the_start_param_may_name_a_screen(client, game):
    token = startapp_token(game.id, "roll", bot_token=TOKEN)
    data = await (await client.get(f"/api/games/{token}", headers=auth(PLAYER_ID))).json()
    assert data["game"]["screen"] == "roll"
    assert data["game"]["token"] == startapp_token(game.id, bot_token=TOKEN)


async def test_guessed_or_forged_game_tokens_are_not_found(client, game, gtoken):
    other = startapp_token(game.id, bot_token="999:another-bot")
    for token in (
        f"g{game.id}",
        str(game.id),
        other,
        gtoken[:-1] + "a",
        "g999-" + gtoken.split("-")[1],
    ):
        response = await client.get(f"/api/games/{token}", headers=auth(GM_ID))
        assert response.status == 404, token
        assert (await response.json())["error"]["code"] == "not_found"


async def test_a_player_rolls_and_the_chat_hook_gets_it(client, game, gtoken, hooks):
    response = await roll(client, gtoken, PLAYER_ID)
    assert response.status == 200
    data = (await response.json())["roll"]
    assert data["command"] == "pool" and data["args"] == "5 6 — атака"
    assert data["result"]["kind"] == "pool" and data["result"]["comment"] == "атака"
    assert data["user"] == {"id": PLAYER_ID, "name": "Аня"}
    for _ in range(50):
        if hooks.rolls:
            break
        await asyncio.sleep(0.01)
    assert [(r.id, r.command, r.chat_id, r.game_id) for r in hooks.rolls] == [
        (data["id"], "p", game.chat_id, game.id)
    ]


async def test_every_command_rolls(client, game, gtoken):
    for command, args in [
        ("roll", "2к6+1 удар"),
        ("trait", "d8+1 цн 4"),
        ("damage", "2d6+1 vs 6"),
        ("pool", "7 сл 6 спец"),
        ("duel", "+2 трюк"),
        ("r", "d20"),
    ]:
        response = await roll(client, gtoken, GM_ID, command=command, args=args)
        assert response.status == 200, (command, await response.text())


async def test_bad_notation_is_a_bad_dice_error_in_russian(client, game, gtoken):
    response = await roll(client, gtoken, PLAYER_ID, command="roll", args="2d6+")
    assert response.status == 400
    error = (await response.json())["error"]
    assert error["code"] == "bad_dice"
    assert error["details"]["dice_code"]
    assert any("а" <= ch <= "я" for ch in error["message"].lower())


async def test_malformed_roll_requests(client, game, gtoken):
    for body in (
        {"command": "nope", "args": "d6"},
        {"command": "roll", "args": 5},
        [1, 2],
        {"command": "roll", "args": "d6", "hidden": "yes"},
    ):
        response = await client.post(f"/api/games/{gtoken}/roll", json=body, headers=auth(GM_ID))
        assert response.status == 400, body
        assert (await response.json())["error"]["code"] == "bad_request"
    response = await client.post(
        f"/api/games/{gtoken}/roll", data=b"{not json", headers=auth(GM_ID)
    )
    assert (await response.json())["error"]["code"] == "bad_request"
    response = await roll(client, gtoken, GM_ID, command="roll", args="d6 " + "x" * 600)
    assert response.status == 413


async def test_a_spectator_cannot_roll(client, game, gtoken, hooks):
    response = await roll(client, gtoken, STRANGER_ID)
    assert response.status == 403
    assert (await response.json())["error"] == {
        "code": "forbidden",
        "message": "В этой игре вам это действие недоступно.",
    }
    assert hooks.rolls == []


async def test_hidden_rolls_are_sealed_for_everyone_but_the_roller_and_the_gm(client, game, gtoken):
    hidden = (
        await (await roll(client, gtoken, PLAYER_ID, hidden=True, args="6 6 — тайна")).json()
    )["roll"]
    assert hidden["sealed"] is False and hidden["receipt"]
    await roll(client, gtoken, OTHER_ID)
    for uid, sees in ((PLAYER_ID, True), (GM_ID, True), (OTHER_ID, False), (STRANGER_ID, False)):
        response = await client.get(f"/api/games/{gtoken}/rolls", headers=auth(uid))
        text = await response.text()
        rolls = (await response.json())["rolls"]
        view = next(r for r in rolls if r["id"] == hidden["id"])
        assert view["sealed"] is (not sees), uid
        assert view["receipt"] == hidden["receipt"]
        if not sees:
            assert "result" not in view and "args" not in view
            assert "тайна" not in text
        assert "salt" not in view


async def test_only_the_gm_reveals(client, game, gtoken, hooks):
    hidden = (await (await roll(client, gtoken, PLAYER_ID, hidden=True)).json())["roll"]
    path = f"/api/games/{gtoken}/rolls/{hidden['id']}/reveal"
    for uid in (PLAYER_ID, OTHER_ID, STRANGER_ID):
        response = await client.post(path, headers=auth(uid))
        assert response.status == 403, uid
        assert (await response.json())["error"]["code"] == "forbidden"
    response = await client.post(path, headers=auth(GM_ID))
    assert response.status == 200
    revealed = (await response.json())["roll"]
    assert revealed["revealed_at"] and revealed["salt"]
    again = await client.post(path, headers=auth(GM_ID))
    assert again.status == 409 and (await again.json())["error"]["code"] == "conflict"
    rolls = (await (await client.get(f"/api/games/{gtoken}/rolls", headers=auth(OTHER_ID))).json())[
        "rolls"
    ]
    assert rolls[-1]["sealed"] is False and rolls[-1]["result"]["kind"] == "pool"
    for _ in range(50):
        if hooks.reveals:
            break
        await asyncio.sleep(0.01)
    assert [r.id for r in hooks.reveals] == [hidden["id"]]


async def test_a_roll_of_another_game_cannot_be_revealed_through_this_one(client, game, gtoken):
    from tests.webapp.conftest import make_game

    other = await make_game(chat_id=-100999)
    other_token = startapp_token(other.id, bot_token=TOKEN)
    hidden = (await (await roll(client, other_token, PLAYER_ID, hidden=True)).json())["roll"]
    response = await client.post(
        f"/api/games/{gtoken}/rolls/{hidden['id']}/reveal", headers=auth(GM_ID)
    )
    assert response.status == 404


async def test_an_ended_game_is_read_only(client, game, gtoken):
    await end_game(game.id, actor_id=GM_ID)
    response = await roll(client, gtoken, PLAYER_ID)
    assert response.status == 409
    assert (await response.json())["error"]["code"] == "game_ended"
    summary = await (await client.get(f"/api/games/{gtoken}", headers=auth(PLAYER_ID))).json()
    assert summary["game"]["active"] is False


async def test_english_strings_for_english_users(client, game):
    data = await (await client.get("/api/i18n/en", headers=auth(PLAYER_ID))).json()
    assert data["locale"] == "en"
    assert data["errors"]["forbidden"] == "You are not allowed to do that in this game."
    ru = await (await client.get("/api/i18n/ru", headers=auth(PLAYER_ID))).json()
    assert ru["messages"]["Roll the dice"] == "Сделать бросок"
    assert ru["messages"]["Number of dice"] == "Количество кубиков"
    me = await (await client.get("/api/me", headers=auth(PLAYER_ID, lang="en-GB"))).json()
    assert me["locale"] == "en"


async def test_the_language_chosen_in_the_bot_wins(client, game):
    await set_language(PLAYER_ID, "en")
    me = await (await client.get("/api/me", headers=auth(PLAYER_ID, lang="ru"))).json()
    assert me["locale"] == "en"


async def test_the_snapshot_over_http_is_the_sockets_first_frame_byte_for_byte(
    client, game, gtoken
):
    await roll(client, gtoken, PLAYER_ID)
    await roll(client, gtoken, PLAYER_ID, hidden=True, args="6 6 — тайна")
    texts = {}
    for uid in (GM_ID, OTHER_ID):
        response = await client.get(f"/api/games/{gtoken}/snapshot", headers=auth(uid))
        assert response.status == 200 and response.headers["Cache-Control"] == "no-store"
        text = await response.text()
        ws = await client.ws_connect(f"/api/games/{gtoken}/ws", headers=auth(uid))
        assert (await ws.receive_str(timeout=5)) == text  # the page skips the socket's copy
        await ws.close()
        texts[uid] = text
    assert "тайна" in texts[GM_ID] and "тайна" not in texts[OTHER_ID]  # each viewer's own
