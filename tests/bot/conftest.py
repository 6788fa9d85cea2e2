"""End-to-end bot fixtures: a fake Bot API on 127.0.0.1, the real Bot pointed at it, the real
dispatcher over a fresh database, and a driver that feeds updates through `dp.feed_update`."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from aiogram import Bot, Dispatcher
from aiogram.utils.i18n import I18n

from bot.app import build_dispatcher, create_bot, flood_control
from bot.i18n import setup_i18n
from bot.middlewares.flood import FloodControl
from bot.settings import Settings
from engine.services.outgoing import Journal
from engine.store.models import OutgoingCall
from tests.support.fake_botapi import BOT_TOKEN, FakeBotAPI, start_fake_botapi
from tests.support.telegram import TelegramDriver, TgUser, group

ALICE = TgUser(101, "Алиса", "alice")
BORIS = TgUser(102, "Борис <b>", "boris")  # a name with HTML in it: must arrive escaped
VERA = TgUser(103, "Вера")
GROUP = group(-1001000000001, "Игровой стол")


@pytest.fixture(scope="session")
def i18n() -> I18n:
    return setup_i18n("ru")


@pytest.fixture
async def api() -> AsyncIterator[FakeBotAPI]:
    fake = FakeBotAPI()
    server = await start_fake_botapi(fake)
    try:
        yield fake
    finally:
        await server.close()


@pytest.fixture
def settings(api: FakeBotAPI) -> Settings:
    return Settings(
        bot_token=BOT_TOKEN,
        bot_api_url=api.base_url,
        default_locale="ru",
        # The scripted sessions post far more than Telegram's 20 a minute to one group in a
        # few seconds; the per-group pacing has its own tests (tests/bot/middlewares).
        flood_group_per_minute=0,
        _env_file=None,  # type: ignore[call-arg]
    )


@pytest.fixture
async def bot(settings: Settings) -> AsyncIterator[Bot]:
    instance = create_bot(settings)
    try:
        yield instance
    finally:
        await instance.session.close()


@pytest.fixture
def dp(db: object, settings: Settings, i18n: I18n) -> Dispatcher:
    return build_dispatcher(settings, rng=random.Random(20261129), i18n=i18n)


@pytest.fixture
def tg(dp: Dispatcher, bot: Bot, api: FakeBotAPI) -> TelegramDriver:
    return TelegramDriver(dp, bot, api)


@dataclass
class Journaled:
    """The dispatcher driven through a bot that journals its chat calls, as the runner's
    does (bot/runner.py): a step told within `step_and_its_chat` commits with its calls'
    journal rows and they are queued after the commit, so a feed's calls come after it."""

    tg: TelegramDriver
    flood: FloodControl
    journal: Journal
    api: FakeBotAPI

    async def settled(self, timeout: float = 5.0) -> None:
        """Every queued call answered, every refusal's handler done, the journal emptied."""
        async with asyncio.timeout(timeout):
            while True:
                await self.flood.drained(timeout)
                await self.journal.flush()
                busy = self.flood.chats or self.flood._handlers
                if not busy and not await OutgoingCall.all().count():
                    return
                await asyncio.sleep(0.02)


@pytest.fixture
async def journaled(
    settings: Settings, dp: Dispatcher, api: FakeBotAPI
) -> AsyncIterator[Journaled]:
    journal = Journal("test-worker")
    flood = flood_control(settings, journal=journal, pace=False)
    instance = create_bot(settings, flood=flood)
    try:
        yield Journaled(TelegramDriver(dp, instance, api), flood, journal, api)
    finally:
        await instance.session.close()
