"""Issue «Nothing lost, nobody starved», the whole process (bot/runner.py) against the fake Bot
API over real HTTP: one busy group never stalls another chat, with long polling and with the
webhook; a webhook body that is no update is a 400; the lanes' bound is a 503 that Telegram's
resend gets past; a burst of 429s delays a reply and never drops it."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.intake import QUEUED_PER_SLOT
from bot.runner import run
from bot.settings import Settings
from engine.store.models import OutgoingCall, RollLog
from tests.bot.test_runner import (
    GROUP,
    PLAYER,
    command_update,
    private_update,
    runner_settings,
    wait_for,
)
from tests.support.fake_botapi import FakeBotAPI

OTHER_GROUP = GROUP | {"id": GROUP["id"] - 7, "title": "Другой стол"}
HOOK_URL = "https://kosti.example/tg/hook"


def in_chat(update: dict[str, Any], chat: dict[str, Any]) -> dict[str, Any]:
    update["message"]["chat"] = chat
    return update


def hook_of(settings: Settings) -> tuple[str, dict[str, str]]:
    url = f"http://127.0.0.1:{settings.port}/tg/hook"
    return url, {"X-Telegram-Bot-Api-Secret-Token": settings.webhook_secret_value()}


async def feed(mode: str, api: FakeBotAPI, settings: Settings, updates: list[dict[str, Any]]):  # type: ignore[no-untyped-def]
    if mode == "polling":
        api.pending_updates.extend(updates)
        return
    url, headers = hook_of(settings)
    async with aiohttp.ClientSession() as http:
        for update in updates:
            async with http.post(url, json=update, headers=headers) as response:
                assert response.status == 200


async def started(api: FakeBotAPI) -> None:
    await wait_for(lambda: any(c.method in ("setWebhook", "getUpdates") for c in api.calls))


@pytest.mark.parametrize("mode", ["polling", "webhook"])
async def test_a_hundred_commands_in_one_group_do_not_stall_another_chat(
    api: FakeBotAPI, tmp_path: Path, mode: str
) -> None:
    """Any member can send a hundred /r to one group: its answers wait for the group's 20 a
    minute, and yet another group's /r and a private /help are answered within a second."""
    extra = {"webhook_url": HOOK_URL} if mode == "webhook" else {}
    # Telegram's real minute for groups
    settings = runner_settings(api, tmp_path, **extra).model_copy(
        update={"flood_group_per_minute": 20}
    )
    stop = asyncio.Event()
    process = asyncio.create_task(run(settings, stop=stop))
    try:
        await started(api)
        noise = [command_update(1000 + i, f"/r d6 шум {i}") for i in range(100)]
        await feed(mode, api, settings, noise)
        await wait_for(lambda: len(api.sent(chat_id=GROUP["id"])) >= 3)
        await asyncio.sleep(1.0)  # the rest wait for the group's window
        assert len(api.sent(chat_id=GROUP["id"])) < 10
        # ... and yet every roll is stored: a handler journals its reply and goes on, the
        # group's queue does the waiting (Telegram's minute would otherwise hold each one)
        async with asyncio.timeout(10):
            while await RollLog.all().count() < 100:
                await asyncio.sleep(0.05)
        assert await OutgoingCall.all().count() >= 90  # the replies, durable, still queued
        mark, began = api.mark(), time.monotonic()
        await feed(
            mode,
            api,
            settings,
            [
                in_chat(command_update(2000, "/r d6 другой стол"), OTHER_GROUP),
                private_update(2001, "/help", PLAYER),
            ],
        )
        await wait_for(
            lambda: (
                api.sent(mark, chat_id=OTHER_GROUP["id"]) and api.sent(mark, chat_id=PLAYER["id"])
            )
        )
        answered_in = time.monotonic() - began
    finally:
        stop.set()
        await asyncio.wait_for(process, 60)
    assert answered_in < 1.0, answered_in
    # nothing dropped: the shutdown sent what waited for the group's window
    rolls = [int(re.findall(r"шум (\d+)", c.text)[0]) for c in api.sent(chat_id=GROUP["id"])]
    assert sorted(rolls) == list(range(100))


async def test_a_webhook_body_that_is_no_update_is_a_400_without_a_traceback(
    api: FakeBotAPI, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = runner_settings(api, tmp_path, webhook_url=HOOK_URL)
    stop = asyncio.Event()
    process = asyncio.create_task(run(settings, stop=stop))
    url, headers = hook_of(settings)
    try:
        await started(api)
        async with aiohttp.ClientSession() as http:
            for body in (b"{", b"", b"\xff\xfe", b"[]", b'{"update_id": "x"}'):
                async with http.post(url, data=body, headers=headers) as response:
                    assert response.status == 400, body
                    assert (await response.json())["error"] == "malformed_update"
            forged = {"X-Telegram-Bot-Api-Secret-Token": "guess"}
            async with http.post(url, data=b"{", headers=forged) as response:
                assert response.status == 401  # the secret first
    finally:
        stop.set()
        await asyncio.wait_for(process, 20)
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"


async def test_the_webhook_answers_503_beyond_the_lanes_bound_and_the_resend_is_handled(
    api: FakeBotAPI, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Backpressure: one slot, its update held by a slow Bot API (a private chat's reply to
    `/help` is waited for: its refusal is the handler's to read), the lanes full: the next
    POST gets 503 without being stored (logged once), and Telegram's resend is handled."""
    settings = runner_settings(api, tmp_path, webhook_url=HOOK_URL, max_updates_in_flight=1)
    bound = QUEUED_PER_SLOT
    stop = asyncio.Event()
    process = asyncio.create_task(run(settings, stop=stop))
    url, headers = hook_of(settings)
    try:
        await started(api)
        api.slow_down("sendMessage", 4.0)
        users = [PLAYER | {"id": PLAYER["id"] + i} for i in range(bound + 3)]
        updates = [private_update(40 + i, "/help", user) for i, user in enumerate(users)]

        def answered() -> list[int]:
            return [c.params["chat_id"] for c in api.sent() if c.result is not None]

        statuses = []
        async with aiohttp.ClientSession() as http:
            for update in updates:
                async with http.post(url, json=update, headers=headers) as response:
                    statuses.append(response.status)
            # one under way, `bound` waiting: the last two are Telegram's to send again
            assert statuses == [200] * (bound + 1) + [503, 503]
            api.slow_down("sendMessage", 0.0)
            await wait_for(lambda: len(answered()) == bound + 1, 30)
            for update in updates[-2:]:  # Telegram's resend
                async with http.post(url, json=update, headers=headers) as response:
                    assert response.status == 200
            await wait_for(lambda: len(answered()) == bound + 3)
    finally:
        stop.set()
        await asyncio.wait_for(process, 30)
    assert sorted(answered()) == [user["id"] for user in users]  # each once
    busy = [r for r in caplog.records if r.name == "kosti.webhook"]
    assert len(busy) == 1 and "1 update(s) refused" in busy[0].getMessage()


async def test_a_burst_of_429s_delays_a_reply_and_never_drops_it(
    api: FakeBotAPI, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Five 429s in a row (retry_after 1) through the whole process: the roll's reply arrives,
    nobody is told that something went wrong, and the log has one warning and no traceback
    (ten in a row and one of 120 s: tests/bot/middlewares/test_flood.py)."""
    settings = runner_settings(api, tmp_path)
    stop = asyncio.Event()
    process = asyncio.create_task(run(settings, stop=stop))
    try:
        await started(api)
        api.fail_with_retry_after("sendMessage", retry_after=1, times=5)
        api.pending_updates.append(command_update(70, "/r 2d6 терпение"))
        await wait_for(lambda: any(c.result for c in api.sent(chat_id=GROUP["id"])), 30)
    finally:
        stop.set()
        await asyncio.wait_for(process, 20)
    delivered = [c.text for c in api.sent(chat_id=GROUP["id"]) if c.result is not None]
    assert len(delivered) == 1 and "терпение" in delivered[0]
    assert not any("пошло не так" in c.text for c in api.sent())
    flood = [r for r in caplog.records if r.name == "bot.middlewares.flood"]
    assert len(flood) == 1 and flood[0].levelname == "WARNING"
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
