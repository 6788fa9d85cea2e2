"""What a host watches (issue «Speed where players feel it»): `/metrics` of the whole process
(bot/runner.py against the fake Bot API over real HTTP) is closed without its token and its
counters move with the updates, the Bot API's answers (a 429 too) and the Mini App's
requests; JSON log lines carry the update being handled and no secret. Two workers:
tests/bot/test_workers.py."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families
from pydantic import SecretStr

from bot.logs import JsonFormatter
from bot.runner import run
from tests.bot.test_runner import ALICE, command_update, runner_settings, wait_for
from tests.support.fake_botapi import BOT_TOKEN, FakeBotAPI
from webapp.auth import sign_init_data

TOKEN = "scrape-me-please"
HOOK = "https://kosti.example/tg/hook"


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a scrape: (name, its labels) → value."""
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(scrape: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str):  # type: ignore[no-untyped-def]
    return scrape.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.fixture
def json_log() -> Iterator[io.StringIO]:
    """The root logger's lines as `LOG_FORMAT=json` writes them."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter())
    root, watch = logging.getLogger(), logging.getLogger("bot.middlewares.watch")
    levels = root.level, watch.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    watch.setLevel(logging.DEBUG)  # its line for each update handled
    try:
        yield out
    finally:
        root.removeHandler(handler)
        root.setLevel(levels[0])
        watch.setLevel(levels[1])


async def test_metrics_move_with_updates_calls_and_sockets_and_logs_carry_the_update(
    api: FakeBotAPI, tmp_path: Path, json_log: io.StringIO
) -> None:
    settings = runner_settings(api, tmp_path, webhook_url=HOOK, metrics_token=SecretStr(TOKEN))
    base = f"http://127.0.0.1:{settings.port}"
    hook = {"X-Telegram-Bot-Api-Secret-Token": settings.webhook_secret_value()}
    init_data = sign_init_data(BOT_TOKEN, ALICE, int(time.time()))
    stop = asyncio.Event()
    process = asyncio.create_task(run(settings, stop=stop))
    async with aiohttp.ClientSession() as http:

        async def scrape() -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
            headers = {"Authorization": f"Bearer {TOKEN}"}
            async with http.get(base + "/metrics", headers=headers) as response:
                assert response.status == 200
                assert response.content_type == "text/plain"
                return samples(await response.text())

        try:
            await wait_for(lambda: any(c.method == "setWebhook" for c in api.calls))
            for headers in ({}, {"Authorization": "Bearer wrong"}):
                async with http.get(base + "/metrics", headers=headers) as response:
                    assert response.status == 401
            before = await scrape()
            api.fail_with_retry_after("sendMessage", retry_after=1, times=1)
            for update in (
                command_update(801, "/r 2d6 проверка"),
                command_update(802, "/r 1000000d6"),  # absurd: refused in Russian
            ):
                async with http.post(base + "/tg/hook", json=update, headers=hook) as response:
                    assert response.status == 200
            await wait_for(lambda: len([c for c in api.sent() if c.result]) >= 2, 15)
            async with http.get(
                base + "/api/me", headers={"Authorization": f"tma {init_data}"}
            ) as response:
                assert response.status == 200
            after = await scrape()
        finally:
            stop.set()
            await asyncio.wait_for(process, 20)

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved("kosti_updates_total", kind="message", outcome="ok") == 1
    assert moved("kosti_updates_total", kind="message", outcome="refused") == 1
    assert moved("kosti_update_seconds_count", kind="message") == 2
    assert moved("kosti_bot_calls_total", method="SendMessage", result="retry_after") == 1
    assert moved("kosti_bot_calls_total", method="SendMessage", result="ok") >= 2
    assert value(after, "kosti_worker_info", worker=after_worker(after)) == 1
    assert ("kosti_queued", (("queue", "lanes"),)) in after
    assert ("kosti_websockets", ()) in after

    lines = [json.loads(line) for line in json_log.getvalue().splitlines()]
    assert lines, "nothing was logged"
    handled = [line for line in lines if line.get("update_id") in (801, 802)]
    assert handled and all(line["kind"] == "message" for line in handled)
    # The fake Bot API runs in this process: its own access lines (requests to /bot<token>/…,
    # which Telegram's servers log, not ours) are left out.
    ours = [line for line in lines if "/bot" + BOT_TOKEN not in line["message"]]
    text = json.dumps(ours, ensure_ascii=False)
    assert BOT_TOKEN not in text and BOT_TOKEN.split(":")[1] not in text
    assert init_data not in text and "hash" not in text and "auth_date" not in text
    assert "GET /api/me" in text  # the Mini App's request is there, its credentials are not


def test_a_token_inside_a_logged_message_is_masked() -> None:
    token = "1234567890:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw-Z"
    record = logging.LogRecord("aiohttp.client", logging.ERROR, __file__, 1, "GET %s", None, None)
    record.args = (f"https://example.invalid/bot{token}/getMe",)
    line = json.loads(JsonFormatter().format(record))
    assert token not in line["message"] and "/bot<token>/getMe" in line["message"]
    assert "update_id" not in line  # no update is being handled here


def after_worker(scrape: dict[tuple[str, tuple[tuple[str, str], ...]], float]) -> str:
    [worker] = [dict(labels)["worker"] for name, labels in scrape if name == "kosti_worker_info"]
    return worker
