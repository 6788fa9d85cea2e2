"""Updates shared by several workers through a real redis-server (bot/middlewares/dedup.py
`SharedUpdates`): two dispatchers stand for two workers on one database and one Redis."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from aiogram import Bot

from bot.app import build_dispatcher
from bot.intake import retrying
from bot.routers import dice as dice_router
from bot.settings import Settings
from engine.dice import ScriptedRng
from tests.bot.conftest import ALICE, GROUP
from tests.support.fake_botapi import FakeBotAPI
from tests.support.telegram import TelegramDriver


@pytest.fixture
async def workers(
    db: object, settings: Settings, redis_url: str, bot: Bot, api: FakeBotAPI
) -> AsyncIterator[list[TelegramDriver]]:
    shared = settings.model_copy(update={"redis_url": redis_url})
    drivers = [
        TelegramDriver(build_dispatcher(shared, rng=ScriptedRng([3] * 20)), bot, api)
        for _ in range(2)
    ]
    yield drivers
    for driver in drivers:
        await driver.dp["shared_updates"].redis.aclose()


async def test_a_copy_on_the_other_worker_is_dropped_even_when_it_stores_nothing(
    workers: list[TelegramDriver], api: FakeBotAPI
) -> None:
    """/help stores nothing, so only Redis can tell the second worker it was handled."""
    a, b = workers
    update = a.message_update(ALICE, GROUP, "/help")
    first = await a.feed(update)
    assert len(first.sent()) == 1
    assert (await b.feed(update)).calls == []


async def test_the_same_update_at_both_workers_at_once_is_handled_once(
    workers: list[TelegramDriver], api: FakeBotAPI
) -> None:
    a, b = workers
    updates = [a.message_update(ALICE, GROUP, f"/r d6 копия {i}") for i in range(10)]
    mark = api.mark()
    await asyncio.gather(*(w.feed(u) for u in updates for w in (a, b)))
    texts = [c.text for c in api.sent(mark, chat_id=GROUP.id)]
    assert sorted(t.split("копия ")[1][0] for t in texts) == list("0123456789")


async def test_a_failed_update_gives_its_id_back(
    workers: list[TelegramDriver], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Killed in the middle (SystemExit passes every handler's guard): the other worker
    handles the redelivery."""
    a, b = workers
    update = a.message_update(ALICE, GROUP, "/r 2d6")

    async def dies(*args: object, **kwargs: object) -> None:
        raise SystemExit("killed in the middle")

    monkeypatch.setattr(dice_router, "log_roll", dies)
    with pytest.raises(SystemExit):
        await a.feed(update)
    monkeypatch.undo()
    assert len((await b.feed(update)).sent()) == 1


async def test_without_redis_each_worker_goes_on_and_the_database_decides(
    workers: list[TelegramDriver],
    redis_server,
    caplog,  # type: ignore[no-untyped-def]
) -> None:
    a, b = workers
    redis_server.stop()
    try:
        update = a.message_update(ALICE, GROUP, "/r 2d6")
        assert len((await a.feed(update)).sent()) == 1
        assert (await b.feed(update)).sent() == []  # the stored claim refuses the copy
    finally:
        redis_server.start()
    assert any("Redis does not answer" in r.getMessage() for r in caplog.records)


async def test_an_update_a_killed_worker_held_is_handled_by_the_one_taking_over(
    workers: list[TelegramDriver],
) -> None:
    """Worker A took the update in Redis and was killed before its step: its mark says "in
    hand" for two minutes. B takes the update over from the inbox (bot/intake.py) and handles
    it at once; the database's claim still keeps a step from applying twice."""
    a, b = workers
    update = a.message_update(ALICE, GROUP, "/r d6 за упавшего")
    shared = a.dp["shared_updates"]
    assert await shared.take(update["update_id"])  # A holds it, then dies
    assert (await b.feed(update)).calls == []  # as a copy that reached B: skipped
    with retrying(taken=True):  # as B's intake resumes what A left
        reply = await b.feed(update)
    assert len(reply.sent()) == 1 and "за упавшего" in reply.sent()[0].text
    with retrying(taken=True):  # taken over twice: the stored claim refuses it
        assert (await b.feed(update)).calls == []
