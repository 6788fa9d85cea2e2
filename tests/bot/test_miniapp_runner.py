"""The whole process (bot.runner.run) with PUBLIC_URL: the menu button opens the Mini App, and
a roll made through the real web server's API is posted in the group by the wired hooks."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import aiohttp

from bot.runner import run
from tests.bot.test_runner import ALICE, GROUP, command_update, runner_settings, wait_for
from tests.support.fake_botapi import BOT_TOKEN, FakeBotAPI
from webapp.auth import sign_init_data


async def test_runner_sets_the_menu_button_and_posts_mini_app_rolls(
    api: FakeBotAPI, tmp_path: Path
) -> None:
    settings = runner_settings(api, tmp_path, public_url="https://kosti.example")
    api.pending_updates.append(command_update(1, "/newgame savage Пустота"))
    stop = asyncio.Event()
    process = asyncio.create_task(run(settings, stop=stop))
    try:
        await wait_for(lambda: len(api.sent(chat_id=GROUP["id"])) == 1)
        api.pending_updates.append(command_update(2, "/app"))  # polling runs updates at once
        await wait_for(lambda: len(api.sent(chat_id=GROUP["id"])) == 2)
        [menu] = [c for c in api.calls if c.method == "setChatMenuButton"]
        assert menu.params["menu_button"]["web_app"] == {"url": "https://kosti.example/app/"}

        app_reply = api.sent(chat_id=GROUP["id"])[1]
        [button] = app_reply.buttons()
        [token] = parse_qs(urlsplit(button["url"]).query)["startapp"]
        user = {"id": ALICE["id"], "first_name": ALICE["first_name"], "language_code": "ru"}
        headers = {"Authorization": "tma " + sign_init_data(BOT_TOKEN, user, int(time.time()))}
        mark = api.mark()
        url = f"http://127.0.0.1:{settings.port}/api/games/{token}/roll"
        async with aiohttp.ClientSession() as http:
            body = {"command": "pool", "args": "5 6", "hidden": False}
            async with http.post(url, json=body, headers=headers) as response:
                assert response.status == 200, await response.text()
        await wait_for(lambda: api.sent(mark, chat_id=GROUP["id"]))
        [posted] = api.sent(mark, chat_id=GROUP["id"])
        assert posted.text.startswith("🎲 <b>Алиса</b> (из Mini App): пул 5 кубиков, сложность 6")
    finally:
        stop.set()
        await asyncio.wait_for(process, 20)
