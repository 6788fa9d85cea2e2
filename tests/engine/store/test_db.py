"""init_db / close_db as the app uses them, and the `db` fixture's isolation."""

from __future__ import annotations

import asyncio
import contextvars

from tortoise.context import TortoiseContext

from engine import services
from engine.store.db import close_db, init_db
from engine.store.models import User


async def test_init_db_serves_tasks_without_the_context(db_url: str) -> None:
    ctx = await init_db(db_url)
    try:
        await services.touch_user(1, "A")
        # A task started from an empty context (as aiohttp handlers may be) still finds the
        # database through the process-wide fallback.
        loop = asyncio.get_running_loop()
        task = loop.create_task(services.get_user(1), context=contextvars.Context())
        assert (await task) == services.UserInfo(1, "A", None, None, False)
    finally:
        await close_db(ctx)


async def test_each_test_starts_empty_1(db: TortoiseContext) -> None:
    assert await User.all().count() == 0
    await User.create(id=1, first_name="x")


async def test_each_test_starts_empty_2(db: TortoiseContext) -> None:
    assert await User.all().count() == 0
    await User.create(id=1, first_name="x")


async def test_a_failed_transaction_leaves_nothing(db: TortoiseContext) -> None:
    from tortoise.transactions import in_transaction

    try:
        async with in_transaction():
            await User.create(id=2, first_name="y")
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    assert not await User.exists(id=2)
