"""A reveal with the public check page: a roll line and a «Проверить» button whose address
the Kosti web server answers with the revealed text that hashes to the receipt; the game's
time zone (/timezone) is the one the notice tells."""

from __future__ import annotations

import hashlib
import re
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from aiogram import Bot, Dispatcher
from aiohttp.test_utils import TestClient

from bot.settings import Settings
from engine.dice import ScriptedRng
from tests.bot.conftest import ALICE, BORIS, GROUP
from tests.support.fake_botapi import BOT_TOKEN, FakeBotAPI
from tests.support.telegram import TelegramDriver, private
from webapp.app import create_app

PUBLIC = "https://kosti.example"
CODE = re.compile(r"Код квитанции: <code>([0-9a-f-]{14})</code>")


@pytest.fixture
def settings(api: FakeBotAPI) -> Settings:
    return Settings(
        bot_token=BOT_TOKEN,
        bot_api_url=api.base_url,
        default_locale="ru",
        public_url=PUBLIC,
        flood_group_per_minute=0,
        _env_file=None,  # type: ignore[call-arg]
    )


@pytest.fixture
async def web(settings: Settings, aiohttp_client: Any) -> AsyncIterator[TestClient]:
    yield await aiohttp_client(create_app(settings))


async def test_the_reveal_has_a_check_button_and_the_page_checks_out(
    tg: TelegramDriver, dp: Dispatcher, bot: Bot, web: TestClient
) -> None:
    await tg.send(ALICE, GROUP, "/newgame дикий Тени")
    await tg.send(BORIS, GROUP, "/join")
    await tg.send(ALICE, private(ALICE), "/start")
    dp["rng"] = ScriptedRng([6, 3])
    notice = (await tg.send(BORIS, GROUP, "/hr 2d6 засада")).sent(GROUP.id)[0]
    receipt_code = CODE.search(notice.text).group(1)
    roll_id = re.search(r"№(\d+)", notice.text).group(1)

    shown = await tg.send(ALICE, GROUP, f"/reveal {roll_id}")
    [revealed] = shown.sent(GROUP.id)
    assert "2d6 [6, 3] = <b>9</b>" in revealed.text
    assert [c for c in shown.calls if c.method == "sendDocument"] == []
    [button] = revealed.buttons()
    assert button["text"] == "✅ Проверить"
    url = urlsplit(button["url"])
    assert f"{url.scheme}://{url.netloc}" == PUBLIC and url.query == "lang=ru"
    assert len(revealed.text) < 300  # a roll line, never the hashed JSON

    page = await web.get(url.path)
    assert page.status == 200 and "verify.js" in await page.text()
    body = await (await web.get(url.path + ".json?" + url.query)).json()
    payload = body["roll"]["payload"]
    assert hashlib.sha256(payload.encode()).hexdigest()[:12] == receipt_code.replace("-", "")
    assert body["roll"]["code"] == receipt_code


async def test_the_gm_sets_the_time_zone_of_the_notices(tg: TelegramDriver, dp: Dispatcher) -> None:
    await tg.send(ALICE, GROUP, "/newgame дикий Тени")
    await tg.send(BORIS, GROUP, "/join")
    assert "Europe/Moscow" in (await tg.send(BORIS, GROUP, "/timezone")).only_text()
    refused = await tg.send(BORIS, GROUP, "/timezone Asia/Omsk")
    assert refused.only_text() == "Это может только ведущий игры."
    wrong = await tg.send(ALICE, GROUP, "/timezone Марс/Олимп")
    assert "Неизвестный часовой пояс Марс/Олимп" in wrong.only_text()
    done = await tg.send(ALICE, GROUP, "/timezone asia/omsk")
    assert "Часовой пояс игры: <code>Asia/Omsk</code>" in done.only_text()
    notice = (await tg.send(BORIS, GROUP, "/hr d20")).sent(GROUP.id)[0]
    assert re.search(r"\d\d:\d\d \+06\.", notice.text) and "MSK" not in notice.text
