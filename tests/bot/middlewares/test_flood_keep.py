"""The outgoing queue at the end of a shutdown (bot/middlewares/flood_queue.py `keep`) and what
the next start does with what it kept (bot/middlewares/flood_kept.py `send_kept`,
engine/services/outgoing.py): a real Bot, the fake Bot API over HTTP, a real database."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.middlewares.flood_kept import send_kept
from engine.services import outbox, outgoing
from engine.services.notify import Notification, Notifier, using
from engine.store.models import OutgoingCall
from tests.bot.middlewares.test_flood import GROUP, OTHER_GROUP, LimitedBot
from tests.support.fake_botapi import FakeBotAPI

USER = 501


@pytest.fixture
async def bot(api: FakeBotAPI) -> AsyncIterator[LimitedBot]:
    bot = LimitedBot(api, group=0)
    try:
        yield bot
    finally:
        await bot.close_all()


async def under_way(api: FakeBotAPI, count: int) -> None:
    while len(api.since(0, "sendMessage")) < count:
        await asyncio.sleep(0.01)


async def test_keep_takes_what_is_under_way_and_queued_in_order(
    bot: LimitedBot, api: FakeBotAPI
) -> None:
    api.slow_down("sendMessage", 1.0)
    to_group = [asyncio.create_task(bot.send_message(GROUP, f"группа {i}")) for i in range(3)]
    to_other = asyncio.create_task(bot.send_message(OTHER_GROUP, "другая"))
    await under_way(api, 2)  # the first of each chat; the group's other two wait behind
    bot.flood.keep()
    answers = await asyncio.gather(*to_group, to_other)
    assert [a.message_id for a in answers] == [0, 0, 0, 0]  # stand-ins, at once
    assert answers[0].chat.id == GROUP
    # What the handlers post from now on is kept too, behind what was queued.
    assert (await bot.send_message(GROUP, "после")).message_id == 0
    assert await bot.edit_message_text("правка", chat_id=GROUP, message_id=7) is True
    await asyncio.sleep(0.2)
    assert len(api.since(0, "sendMessage")) == 2  # nothing more was sent
    kept = bot.flood.take_kept()
    in_group = [(k.method, k.payload["text"]) for k in kept if k.chat == str(GROUP)]
    assert in_group == [
        ("SendMessage", "группа 0"),  # under way: it may arrive twice
        ("SendMessage", "группа 1"),
        ("SendMessage", "группа 2"),
        ("SendMessage", "после"),
        ("EditMessageText", "правка"),
    ]
    assert [k.payload["text"] for k in kept if k.chat == str(OTHER_GROUP)] == ["другая"]
    assert bot.flood.take_kept() == []


async def test_a_call_of_an_outbox_delivery_is_sent_not_kept(
    bot: LimitedBot, api: FakeBotAPI
) -> None:
    """Its row stays undelivered until the chat has it, and a restart delivers the row again:
    kept as well, it would be posted twice."""
    api.slow_down("sendMessage", 0.5)
    posts: list[asyncio.Task[object]] = []

    def on_change(note: Notification) -> None:  # as bot/miniapp_hooks.py does
        task = asyncio.create_task(bot.send_message(GROUP, "доска"))
        outbox.hold(task)
        posts.append(task)

    notifier = Notifier()
    notifier.subscribe(on_change)
    with using(notifier):
        await outbox.deliver(1, None, [outbox.Note("roll")])
    plain = asyncio.create_task(bot.send_message(GROUP, "ответ"))
    await under_way(api, 1)
    bot.flood.keep()
    [post] = posts
    board = await post
    assert board.message_id != 0  # sent for real
    assert (await plain).message_id == 0
    assert [k.payload["text"] for k in bot.flood.take_kept()] == ["ответ"]


async def test_kept_calls_are_stored_and_sent_in_order_per_chat(
    db: object, bot: LimitedBot, api: FakeBotAPI
) -> None:
    api.slow_down("sendMessage", 1.0)
    sending = []
    for i in range(3):
        sending.append(asyncio.create_task(bot.send_message(GROUP, f"группа {i}")))
        sending.append(asyncio.create_task(bot.send_message(USER, f"личное {i}")))
    sending.append(asyncio.create_task(bot.send_message(OTHER_GROUP, "запрещено")))
    await under_way(api, 3)
    bot.flood.keep()
    await asyncio.gather(*sending)
    assert await outgoing.store(bot.flood.take_kept()) == 7

    api.slow_down("sendMessage", 0.0)
    api.forbid(OTHER_GROUP)  # refused for good: dropped, the others still go
    mark = api.mark()
    calls = await outgoing.claim()
    restarted = LimitedBot(api, group=0)  # the next start's
    try:
        assert await send_kept(restarted, calls, outgoing.done) == 6
    finally:
        await restarted.close_all()
    assert [c.text for c in api.sent(mark, chat_id=GROUP)] == [f"группа {i}" for i in range(3)]
    assert [c.text for c in api.sent(mark, chat_id=USER)] == [f"личное {i}" for i in range(3)]
    assert await OutgoingCall.all().count() == 0
