"""A receipt check people can read (issue 26 item 3): the published turn gives each receipt
one short line with a link to its verification page; the page answers the exact hashed text
— without the comment to the GM — that hashes to the receipt the topic saw."""

from __future__ import annotations

import hashlib
import re
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from aiohttp.test_utils import TestClient

from bot.settings import Settings
from bot.systems.duel.callbacks import DuelReviewCallback
from tests.bot.conftest import ALICE, BORIS, VERA
from tests.engine.duel.six_turns import BJORN, TAKEDA, TURNS
from tests.support.fake_botapi import BOT_TOKEN, FakeBotAPI
from tests.support.telegram import TelegramDriver, private
from webapp.app import create_app

from .test_duel import CODE, arena, topic_texts

PUBLIC = "https://kosti.example"
LINK = re.compile(r'🔓 (\S+): квитанция (\S+) ✓ сходится — <a href="([^"]+)">проверить</a>')


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


async def test_each_receipt_is_a_line_with_a_link_to_its_check(
    tg: TelegramDriver, web: TestClient
) -> None:
    table = await arena(tg)
    await table.say(VERA, "/duel Бьорн против Такеда")
    form = table.forms[ALICE.id].result
    comment = "целюсь в левый бок"
    table._track((await tg.send(ALICE, private(ALICE), comment, reply_to=form)).calls)
    a, fa, b, fb = TURNS[0]
    mark = tg.api.mark()
    await table.submit(ALICE, BJORN, a, fa)
    await table.submit(BORIS, TAKEDA, b, fb)
    review = table.review
    assert review is not None
    await table.press(VERA, review, table.button(review, DuelReviewCallback, op="publish"))
    thread = topic_texts(tg.api.since(mark))
    sealed = [c for t in thread if "🔒" in t for c in CODE.findall(t)]
    (post,) = [t for t in thread if "⚔️ Ход 1" in t]
    lines = LINK.findall(post)
    names = [("<b>Бьорн</b>", sealed[0]), ("<b>Такеда</b>", sealed[1])]
    assert [(who, code) for who, code, _ in lines] == names
    assert comment not in post and "{" not in post and len(post) < 1500
    for _, code, href in lines:
        url = urlsplit(href.replace("&amp;", "&"))
        assert f"{url.scheme}://{url.netloc}" == PUBLIC and url.query == "lang=ru"
        page = await web.get(url.path)
        assert page.status == 200 and "verify.js" in await page.text()
        body = await (await web.get(url.path + ".json?" + url.query)).json()
        payload = body["roll"]["payload"]
        assert hashlib.sha256(payload.encode()).hexdigest() == body["roll"]["receipt"]
        assert body["roll"]["code"] == code and comment not in payload
        assert "printf %s" in body["roll"]["command"]
    # a made-up address is not found
    other = "b" if url.path.endswith("a") else "a"  # the mac's last character changed
    assert (await web.get(url.path[:-1] + other + ".json")).status == 404
