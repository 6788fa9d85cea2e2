"""The whole process as `python -m bot` runs it: database migration, polling or webhook, the web
server and shutdown — against the local fake Bot API, over real HTTP."""

from __future__ import annotations

import asyncio
import socket
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from pydantic import SecretStr

from bot.runner import run
from bot.settings import Settings
from tests.support.fake_botapi import BOT_TOKEN, FakeBotAPI

ROOT = Path(__file__).resolve().parents[2]
GROUP = {"id": -1009000000001, "type": "supergroup", "title": "Стол"}
ALICE = {"id": 301, "is_bot": False, "first_name": "Алиса"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def command_update(update_id: int, text: str, user: dict[str, Any] = ALICE) -> dict[str, Any]:
    return {
        "update_id": update_id,
        "message": {
            "message_id": update_id,
            "date": int(time.time()),
            "chat": GROUP,
            "from": user,
            "text": text,
            "entities": [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}],
        },
    }


def runner_settings(api: FakeBotAPI, tmp_path: Path, **extra: Any) -> Settings:
    return Settings(
        bot_token=SecretStr(BOT_TOKEN),
        bot_api_url=api.base_url,
        database_url=f"sqlite://{tmp_path}/db/kosti.sqlite3",
        host="127.0.0.1",
        port=free_port(),
        flood_group_per_minute=0,  # as in tests/bot/conftest.py
        _env_file=None,  # type: ignore[call-arg]
        **extra,
    )


async def wait_for(predicate, timeout: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


async def test_polling_answers_and_state_survives_a_restart(api: FakeBotAPI, tmp_path: Path):
    settings = runner_settings(api, tmp_path)
    api.pending_updates.append(command_update(1, "/newgame savage Пустота"))

    stop = asyncio.Event()
    process = asyncio.create_task(run(settings, stop=stop))
    await wait_for(lambda: api.sent(chat_id=GROUP["id"]))
    async with aiohttp.ClientSession() as http:
        url = f"http://127.0.0.1:{settings.port}/healthz"
        async with http.get(url) as response:
            assert response.status == 200
    stop.set()
    await asyncio.wait_for(process, 20)
    methods = [call.method for call in api.calls]
    assert "deleteWebhook" in methods and "setMyCommands" in methods
    assert (tmp_path / "db" / "kosti.sqlite3").exists()  # the folder was created, schema migrated

    # A second process on the same database still knows the game.
    mark = api.mark()
    api.pending_updates.append(command_update(2, "/game"))
    stop = asyncio.Event()
    process = asyncio.create_task(run(settings, stop=stop))
    await wait_for(lambda: api.since(mark, "sendMessage"))
    stop.set()
    await asyncio.wait_for(process, 20)
    [reply] = api.since(mark, "sendMessage")
    assert "Пустота" in reply.text


async def test_webhook_mode_registers_and_checks_the_secret(api: FakeBotAPI, tmp_path: Path):
    settings = runner_settings(api, tmp_path, webhook_url="https://kosti.example/tg/hook")
    secret = settings.webhook_secret_value()
    stop = asyncio.Event()
    process = asyncio.create_task(run(settings, stop=stop))
    try:
        await wait_for(lambda: any(c.method == "setWebhook" for c in api.calls))
        [registered] = [c for c in api.calls if c.method == "setWebhook"]
        assert registered.params["url"] == "https://kosti.example/tg/hook"
        assert registered.params["secret_token"] == secret
        hook = f"http://127.0.0.1:{settings.port}/tg/hook"
        async with aiohttp.ClientSession() as http:
            forged = {"X-Telegram-Bot-Api-Secret-Token": "guess"}
            async with http.post(hook, json=command_update(5, "/r 2d6"), headers=forged) as r:
                assert r.status == 401
            good = {"X-Telegram-Bot-Api-Secret-Token": secret}
            async with http.post(hook, json=command_update(6, "/r 2d6"), headers=good) as r:
                assert r.status == 200
        await wait_for(lambda: api.sent(chat_id=GROUP["id"]))
        assert len(api.sent(chat_id=GROUP["id"])) == 1  # only the signed update was handled
        assert "getUpdates" not in [c.method for c in api.calls]
    finally:
        stop.set()
        await asyncio.wait_for(process, 20)


GM_USER = {"id": 401, "is_bot": False, "first_name": "Мастер"}
PLAYER = {"id": 402, "is_bot": False, "first_name": "Вера"}


def private_update(update_id: int, text: str, user: dict[str, Any]) -> dict[str, Any]:
    update = command_update(update_id, text, user)
    update["message"]["chat"] = {"id": user["id"], "type": "private", "first_name": "x"}
    return update


async def _feed(mode: str, api: FakeBotAPI, settings: Settings, updates: list[dict[str, Any]]):  # type: ignore[no-untyped-def]
    if mode == "polling":
        api.pending_updates.extend(updates)
        return
    hook = f"http://127.0.0.1:{settings.port}/tg/hook"
    headers = {"X-Telegram-Bot-Api-Secret-Token": settings.webhook_secret_value()}
    async with aiohttp.ClientSession() as http:
        for update in updates:
            async with http.post(hook, json=update, headers=headers) as response:
                assert response.status == 200


@pytest.mark.parametrize("mode", ["webhook", "polling"])
async def test_sigterm_waits_for_hidden_rolls_in_flight(
    api: FakeBotAPI, tmp_path: Path, mode: str
) -> None:
    """A deploy's SIGTERM while five /hr wait on a Bot API that answers after 2 s: every
    private copy and every receipt is still sent before the process exits."""
    extra = {"webhook_url": "https://kosti.example/tg/hook"} if mode == "webhook" else {}
    settings = runner_settings(api, tmp_path, **extra)
    stop = asyncio.Event()
    process = asyncio.create_task(run(settings, stop=stop))
    try:
        await wait_for(lambda: any(c.method in ("setWebhook", "getUpdates") for c in api.calls))
        set_up = [
            private_update(10, "/start", GM_USER),
            private_update(11, "/start", PLAYER),
            command_update(12, "/newgame дикий Тайна", GM_USER),
            command_update(13, "/join", PLAYER),
        ]
        for update in set_up:  # one by one: the game before the join
            before = api.mark()
            await _feed(mode, api, settings, [update])
            await wait_for(lambda before=before: api.since(before, "sendMessage"))
        api.slow_down("sendMessage", 2.0)
        mark = api.mark()
        rolls = [command_update(20 + i, f"/hr d20 тайна {i}", PLAYER) for i in range(5)]
        await _feed(mode, api, settings, rolls)
        await wait_for(lambda: len(api.since(mark, "sendMessage")) >= 5)  # all five under way
    finally:
        stop.set()  # what SIGTERM does (bot/runner.py `_stop_on_signals`)
        await asyncio.wait_for(process, 40)
    to_gm = api.sent(mark, chat_id=GM_USER["id"])
    to_player = api.sent(mark, chat_id=PLAYER["id"])
    in_group = [c for c in api.sent(mark, chat_id=GROUP["id"]) if "№" in c.text]
    assert len(to_gm) == 5 and len(to_player) == 5, (len(to_gm), len(to_player))
    assert len(in_group) == 5  # the receipts


async def test_polling_handles_at_most_the_bound_at_once(api: FakeBotAPI, tmp_path: Path):
    """Issue 14, backpressure: long polling reads no further while the bound is reached.
    The handlers are held by a slow Bot API in private chats (whose replies to `/help` are
    waited for: a refusal is the handler's to read; a group's, and a step's told with it in
    one transaction, are not)."""
    settings = runner_settings(api, tmp_path, max_updates_in_flight=2)
    api.slow_down("sendMessage", 0.5)
    players = [PLAYER | {"id": PLAYER["id"] + i} for i in range(6)]  # chats' queues apart
    for i, player in enumerate(players):
        api.pending_updates.append(private_update(60 + i, "/help", player))
    stop = asyncio.Event()
    process = asyncio.create_task(run(settings, stop=stop))
    try:
        await wait_for(lambda: len(api.sent()) == 6)
    finally:
        stop.set()
        await asyncio.wait_for(process, 20)
    assert api.most_at_once["sendMessage"] == 2


async def test_a_second_poller_is_told_what_it_means(
    api: FakeBotAPI, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 14: long polling stays single-consumer and says so if started twice (Telegram
    answers 409 to the second reader)."""
    api.another_poller = True
    stop = asyncio.Event()
    process = asyncio.create_task(run(runner_settings(api, tmp_path), stop=stop))
    try:
        await wait_for(lambda: sum(c.method == "getUpdates" for c in api.calls) >= 2)
    finally:
        stop.set()
        await asyncio.wait_for(process, 20)
    told = [r for r in caplog.records if "only one may" in r.getMessage()]
    assert len(told) == 1 and "webhook" in told[0].getMessage()


async def test_sigterm_sends_what_waits_behind_the_group_limit(api: FakeBotAPI, tmp_path: Path):
    """Five answers to one group with room for two a minute: a restart sends the other three
    before the process exits instead of dropping them."""
    settings = runner_settings(api, tmp_path).model_copy(update={"flood_group_per_minute": 2})
    stop = asyncio.Event()
    process = asyncio.create_task(run(settings, stop=stop))
    try:
        await wait_for(lambda: any(c.method == "getUpdates" for c in api.calls))
        api.pending_updates.extend(command_update(80 + i, f"/r d6 ответ {i}") for i in range(5))
        await wait_for(lambda: len(api.sent(chat_id=GROUP["id"])) == 2)
        await asyncio.sleep(0.5)
        assert len(api.sent(chat_id=GROUP["id"])) == 2  # the others wait for the window
    finally:
        started = time.monotonic()
        stop.set()
        await asyncio.wait_for(process, 20)
    assert len(api.sent(chat_id=GROUP["id"])) == 5
    assert time.monotonic() - started < 10
