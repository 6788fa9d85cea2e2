"""A Storyteller table played through a bot whose chat calls are journaled, as the
runner's bot (issue 24: a step and what it tells the chat, one transaction)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.app import create_bot, flood_control
from bot.settings import Settings
from engine.services.outgoing import Journal
from tests.support.telegram import TelegramDriver


@pytest.fixture
async def journaled(tg: TelegramDriver, settings: Settings) -> AsyncIterator[TelegramDriver]:
    """The same dispatcher and fake Bot API as `tg`, through a bot whose chat calls are
    journaled: a call made within a step is queued only once the step committed."""
    flood = flood_control(settings, journal=Journal("test-worker"), pace=False)
    bot = create_bot(settings, flood=flood)
    await bot.me()  # known from the start, as the runner's bot
    try:
        driver = TelegramDriver(tg.dp, bot, tg.api)
        driver.__dict__.update({k: v for k, v in vars(tg).items() if k.endswith("_ids")})
        yield driver  # its updates numbered on from the other driver's
    finally:
        await bot.session.close()
        await flood.close()
