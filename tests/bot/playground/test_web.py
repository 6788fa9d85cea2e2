"""The page's API and live feed, over HTTP on the served playground; the Mini App's launch
is signed with the playground's token and passes the production initData check."""

from __future__ import annotations

import asyncio
import json
from urllib.parse import parse_qs, unquote

import aiohttp

from bot.playground.world import GROUP_ID
from tests.bot.playground.conftest import ANYA, GM, Served
from webapp.auth import validate_init_data


async def test_a_message_sent_from_the_page_comes_back_live(served: Served):
    async with (
        aiohttp.ClientSession() as http,
        http.ws_connect(served.url + "playground/ws") as ws,
    ):
        sent = await http.post(
            served.url + "playground/api/send",
            json={"user": GM, "chat": GROUP_ID, "text": "/help"},
        )
        assert (await sent.json())["ok"] is True
        seen = []
        while len(seen) < 2:
            event = json.loads((await asyncio.wait_for(ws.receive(), 5)).data)
            if event["type"] == "message":
                seen.append(event["message"])
    asked, answer = seen
    assert asked["from"] == GM and asked["html"] == "/help"
    assert answer["bot"] and answer["reply"]["id"] == asked["id"] and "<b>" in answer["html"]


async def test_the_state_lists_the_cast_in_russian(served: Served):
    async with (
        aiohttp.ClientSession() as http,
        http.get(served.url + "playground/api/state") as response,
    ):
        state = await response.json()
    assert [u["name"] for u in state["users"]] == ["Мастер", "Аня", "Борис", "Вера"]
    kinds = [(c["type"], c["forum"]) for c in state["chats"]]
    assert kinds[:2] == [("supergroup", False), ("supergroup", True)]
    assert state["texts"]["start"] == "Запустить"
    assert response.headers["Content-Security-Policy"].startswith("default-src 'self'")


async def test_a_refused_message_is_told_not_a_crash(served: Served):
    async with aiohttp.ClientSession() as http:
        wrong = await http.post(
            served.url + "playground/api/send", json={"user": ANYA, "chat": GM, "text": "x"}
        )
        assert wrong.status == 400 and "not this user's chat" in (await wrong.json())["description"]
        added = await http.post(served.url + "playground/api/users", json={"name": "Глеб"})
        new_id = (await added.json())["id"]
    assert served.play.world.users[new_id].first_name == "Глеб"
    assert new_id in served.group.members and served.chat(new_id).type == "private"


async def test_the_mini_app_opens_with_init_data_signed_by_the_playground_token(served: Served):
    link = "https://t.me/kosti_playground_bot/app?startapp=g1-abc-initiative"
    async with (
        aiohttp.ClientSession() as http,
        http.get(
            served.url + "playground/api/miniapp",
            params={"user": str(ANYA), "chat": str(GROUP_ID), "link": link, "scheme": "dark"},
        ) as response,
    ):
        url = (await response.json())["url"]
    assert url.startswith("/app/#")
    fragment = {k: v[0] for k, v in parse_qs(url.partition("#")[2]).items()}
    data = validate_init_data(fragment["tgWebAppData"], served.play.token, max_age=60)
    assert data.user.id == ANYA and data.start_param == "g1-abc-initiative"
    assert data.chat_type == "supergroup"
    assert json.loads(unquote(fragment["tgWebAppThemeParams"]))["bg_color"] == "#212121"
    assert "PLAYGROUND-" in served.play.token and served.play.token.startswith("7000000777:")


async def test_a_web_app_button_opens_its_own_url_without_a_start_param(served: Served):
    link = "https://kosti-playground.invalid/app/?tgWebAppStartParam=g1-abc-roll"
    async with (
        aiohttp.ClientSession() as http,
        http.get(
            served.url + "playground/api/miniapp",
            params={"user": str(GM), "chat": str(GM), "link": link, "scheme": "light"},
        ) as response,
    ):
        url = (await response.json())["url"]
    page, _, hash_part = url.partition("#")
    assert page == "/app/?tgWebAppStartParam=g1-abc-roll"
    fragment = {k: v[0] for k, v in parse_qs(hash_part).items()}
    data = validate_init_data(fragment["tgWebAppData"], served.play.token, max_age=60)
    assert data.user.id == GM and data.start_param is None and data.chat_type is None
    assert "tgWebAppStartParam" not in fragment


async def test_another_site_can_neither_post_nor_listen(served: Served):
    async with aiohttp.ClientSession() as http:
        form = await http.post(
            served.url + "playground/api/send",
            data=json.dumps({"user": GM, "chat": GROUP_ID, "text": "/help"}),
            headers={"Content-Type": "text/plain"},  # what a cross-site form may send
        )
        assert form.status == 415
        try:
            await http.ws_connect(
                served.url + "playground/ws", headers={"Origin": "https://evil.example"}
            )
        except aiohttp.WSServerHandshakeError as error:
            assert error.status == 403
        else:  # pragma: no cover
            raise AssertionError("a foreign page opened the live feed")
    assert served.play.fed == 0
