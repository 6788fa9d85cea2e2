"""The aiohttp application: health check, JSON errors, and the webhook's secret header."""

from __future__ import annotations

import asyncio

from aiogram import Bot, Dispatcher
from pydantic import SecretStr

from bot.intake import Intake
from bot.settings import Settings
from engine.services.inbox import Inbox, waiting
from webapp.app import DEFAULT_WEBHOOK_PATH, create_app, webhook_path

TOKEN = "123456:TEST-token"


async def test_health_answers_json(aiohttp_client):
    client = await aiohttp_client(create_app(Settings(bot_token=None)))
    response = await client.get("/healthz")
    assert response.status == 200
    assert (await response.json()) == {"ok": True, "service": "kosti"}


async def test_unknown_route_is_a_json_error_with_a_stable_code(aiohttp_client):
    client = await aiohttp_client(create_app(Settings(bot_token=None)))
    response = await client.get("/no/such/page")
    assert response.status == 404
    body = await response.json()
    assert body["ok"] is False
    assert body["error"]["code"] == "not_found"


def test_webhook_path_comes_from_the_webhook_url():
    assert webhook_path(Settings(webhook_url="https://x.example/tg/hook")) == "/tg/hook"
    assert webhook_path(Settings(webhook_url="https://x.example")) == DEFAULT_WEBHOOK_PATH
    assert webhook_path(Settings()) == DEFAULT_WEBHOOK_PATH


async def test_webhook_refuses_a_wrong_or_missing_secret(aiohttp_client, db):  # type: ignore[no-untyped-def]
    settings = Settings(
        bot_token=SecretStr(TOKEN),
        webhook_url="https://x.example/tg/hook",
        webhook_secret=SecretStr("right-secret"),
    )
    seen: list[int] = []
    dispatcher = Dispatcher()

    @dispatcher.update.outer_middleware()
    async def remember(handler, update, data):  # type: ignore[no-untyped-def]
        seen.append(update.update_id)
        return None

    bot = Bot(TOKEN)
    intake = Intake(dispatcher, bot, Inbox("test-worker"), slots=4)
    try:
        client = await aiohttp_client(create_app(settings, intake=intake))
        update = {"update_id": 7, "message": None}
        for headers in ({}, {"X-Telegram-Bot-Api-Secret-Token": "wrong"}):
            response = await client.post("/tg/hook", json=update, headers=headers)
            assert response.status == 401
        assert seen == []
        assert await waiting() == 0  # nothing stored either
        response = await client.post(
            "/tg/hook", json=update, headers={"X-Telegram-Bot-Api-Secret-Token": "right-secret"}
        )
        assert response.status == 200
        for _ in range(100):  # the update is handled in its lane
            if seen:
                break
            await asyncio.sleep(0.02)
        assert seen == [7]
    finally:
        await bot.session.close()
