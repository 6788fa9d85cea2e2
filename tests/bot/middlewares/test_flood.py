"""Outgoing flood control (bot/middlewares/flood.py) with a real Bot and the fake Bot API over
HTTP. Telegram's windows (a second, a minute) are scaled down so the tests run in seconds:
the limiter's arithmetic does not depend on the window's length."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.session.middlewares.base import BaseRequestMiddleware
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import TelegramAPIError
from redis.asyncio import Redis

from bot.middlewares.flood import FloodControl, if_refused, step_and_its_chat
from bot.middlewares.flood_limits import RedisLimits
from bot.middlewares.retry import RetryAfterMiddleware
from engine.services import (
    board_message,
    create_game,
    log_roll,
    outgoing,
    set_board_message,
    touch_user,
)
from engine.services.outgoing import Journal
from engine.services.savage import start_encounter
from engine.services.types import RollRecord
from engine.store.models import OutgoingCall, RollLog
from tests.support.fake_botapi import BOT_TOKEN, FakeBotAPI

GROUP, OTHER_GROUP, PRIVATE = -100500, -100600, 4242
WINDOW = 0.6  # stands for Telegram's minute
# A call is stamped when the flood control lets it go (`Stamps`, just inside it), not when the
# fake receives it: the way there takes a varying time on a loaded machine.
SLACK = 0.05


class Stamps(BaseRequestMiddleware):
    """When each call passed the flood control, by chat."""

    def __init__(self) -> None:
        self.times: list[tuple[int | str | None, float]] = []

    async def __call__(self, make_request, bot, method):  # type: ignore[no-untyped-def]
        self.times.append((getattr(method, "chat_id", None), time.monotonic()))
        return await make_request(bot, method)

    def of(self, chat_id: int | None = None) -> list[float]:
        return [t for chat, t in self.times if chat_id is None or chat == chat_id]


class LimitedBot(Bot):
    def __init__(
        self, api: FakeBotAPI, *, per_second: int = 1000, group: int = 3, limits: Any = None
    ) -> None:
        self.flood = FloodControl(per_second, group, group_window=WINDOW, limits=limits)
        self.stamps = Stamps()
        session = AiohttpSession(api=TelegramAPIServer.from_base(api.base_url))
        session.middleware(self.flood)
        session.middleware(self.stamps)
        session.middleware(RetryAfterMiddleware())
        super().__init__(BOT_TOKEN, session=session)

    async def close_all(self) -> None:
        await self.session.close()
        await self.flood.close()


def limited_bot(api: FakeBotAPI, *, per_second: int = 1000, group: int = 3) -> LimitedBot:
    return LimitedBot(api, per_second=per_second, group=group)


class LateFirst(BaseRequestMiddleware):
    """The first call reaches the Bot API `delay` seconds after the flood control let it go
    (a busy event loop, a slow network); the others at once."""

    def __init__(self, delay: float) -> None:
        self.delay, self.calls = delay, 0

    async def __call__(self, make_request, bot, method):  # type: ignore[no-untyped-def]
        self.calls += 1
        if self.calls == 1:
            await asyncio.sleep(self.delay)
        return await make_request(bot, method)


@pytest.fixture
async def bot(api: FakeBotAPI) -> AsyncIterator[LimitedBot]:
    instance = limited_bot(api)
    try:
        yield instance
    finally:
        await instance.session.close()


def arrivals(api: FakeBotAPI, chat_id: int, method: str = "sendMessage") -> list[float]:
    return [c.received for c in api.calls if c.method == method and c.chat_id == chat_id]


def most_in_any(times: list[float], window: float) -> int:
    """The largest number of `times` inside one window of that length (minus the slack)."""
    return max(sum(1 for t in times if start <= t < start + window - SLACK) for start in times)


async def test_a_group_gets_at_most_its_limit_per_window_in_the_order_sent(
    bot: LimitedBot, api: FakeBotAPI
) -> None:
    """Telegram: at most 20 messages a minute in one group (here 3 in 0.6 s); nothing dropped,
    sent in the order the bot queued them."""
    await asyncio.gather(*(bot.send_message(GROUP, f"сообщение {i}") for i in range(7)))
    sent = [c for c in api.calls if c.method == "sendMessage"]
    assert [c.text for c in sent] == [f"сообщение {i}" for i in range(7)]
    times = bot.stamps.of(GROUP)
    assert most_in_any(times, WINDOW) == 3
    assert times[-1] - times[0] >= 2 * WINDOW - SLACK  # 7 messages need three windows


async def test_a_call_that_arrives_late_still_counts_where_it_arrives(api: FakeBotAPI) -> None:
    """Telegram counts a message when it arrives. The first of six reaches the Bot API 0.4 of
    a window late, bunched with the next window's: counted only from its start, four would
    arrive within one window (Telegram allows three here); counted until its answer, no
    more than three do."""
    flood = FloodControl(1000, 3, group_window=WINDOW)
    session = AiohttpSession(api=TelegramAPIServer.from_base(api.base_url))
    session.middleware(flood)
    session.middleware(LateFirst(0.7 * WINDOW))
    late = Bot(BOT_TOKEN, session=session)
    try:
        first = asyncio.create_task(late.send_message(GROUP, "поздно"))
        await asyncio.sleep(0.01)
        await asyncio.gather(*(late.send_message(GROUP, f"сообщение {i}") for i in range(5)))
        await first
    finally:
        await session.close()
    assert len(arrivals(api, GROUP)) == 6
    assert most_in_any(arrivals(api, GROUP), WINDOW) <= 3


async def test_another_group_does_not_wait_for_a_busy_one(bot: Bot, api: FakeBotAPI) -> None:
    busy = asyncio.gather(*(bot.send_message(GROUP, f"занято {i}") for i in range(6)))
    await asyncio.sleep(0.05)
    await asyncio.wait_for(bot.send_message(OTHER_GROUP, "сразу"), WINDOW / 3)
    await busy


async def test_edits_of_one_board_waiting_in_line_are_sent_once_with_the_latest_text(
    bot: Bot, api: FakeBotAPI
) -> None:
    """While the group's window is full, five edits of the same board message queue up
    behind a new message: only the last text goes out, and every caller gets it."""
    for i in range(3):
        await bot.send_message(GROUP, f"до {i}")
    pending = asyncio.create_task(bot.send_message(GROUP, "ждёт окна"))
    await asyncio.sleep(0.01)
    edits = [
        bot.edit_message_text(f"доска, вариант {i}", chat_id=GROUP, message_id=77) for i in range(5)
    ]
    answers = await asyncio.gather(*edits)
    await pending
    sent = [c for c in api.calls if c.method == "editMessageText"]
    assert [c.text for c in sent] == ["доска, вариант 4"]
    assert {a.text for a in answers} == {"доска, вариант 4"}  # type: ignore[union-attr]
    order = [c.text for c in api.calls if c.chat_id == GROUP and c.method != "getMe"]
    assert order[-2:] == ["ждёт окна", "доска, вариант 4"]


async def test_the_bot_wide_limit_spans_chats(api: FakeBotAPI) -> None:
    """Telegram: about 30 messages a second in all (here 4): twelve private chats."""
    bot = limited_bot(api, per_second=4)
    try:
        await asyncio.gather(*(bot.send_message(1000 + i, "привет") for i in range(12)))
    finally:
        await bot.session.close()
    times = sorted(bot.stamps.of())
    assert len(times) == 12
    assert most_in_any(times, 1.0) == 4


async def test_the_bot_wide_window_is_granted_first_come_first_served(api: FakeBotAPI) -> None:
    """Chats waiting for the bot's window get it in the order their calls came (issue 29:
    a freed place went to whichever chat's worker woke first, so a late call overtook
    earlier ones): four private chats, a window of 2, each chat's message queued 10 ms
    after the last."""
    bot = limited_bot(api, per_second=2)
    texts = [f"{round_}-{chat}" for round_ in range(3) for chat in range(4)]
    try:
        sends = []
        for text in texts:
            chat = text.split("-")[1]
            sends.append(asyncio.ensure_future(bot.send_message(5000 + int(chat), text)))
            await asyncio.sleep(0.01)
        await asyncio.gather(*sends)
    finally:
        await bot.session.close()
    sent = [c.text for c in api.calls if c.method == "sendMessage"]
    assert sent == texts


async def test_a_call_that_waited_for_its_group_keeps_its_place_in_the_bot_wide_line(
    api: FakeBotAPI,
) -> None:
    """A group's call that waited for its own windows is granted the bot's window in the
    order it came, not behind the calls that came while it waited (issue 29: it went to
    the back of the bot's line): the group's window of 3 is full, its fourth message waits
    for it (0.6 s); two private messages come later (0.1 s, 0.2 s) and wait for the bot's
    window of 3 a second, full too; when both windows free the group's message goes first."""
    bot = limited_bot(api, per_second=3, group=3)
    try:
        sends = [asyncio.ensure_future(bot.send_message(GROUP, f"группа {i}")) for i in range(4)]
        for i in range(2):
            await asyncio.sleep(0.1)
            sends.append(asyncio.ensure_future(bot.send_message(5000 + i, f"личное {i}")))
        await asyncio.gather(*sends)
    finally:
        await bot.session.close()
    sent = [c.text for c in api.calls if c.method == "sendMessage"]
    assert sent == [*(f"группа {i}" for i in range(4)), "личное 0", "личное 1"]


async def test_a_429_is_waited_out_and_the_chat_keeps_its_order(bot: Bot, api: FakeBotAPI) -> None:
    api.fail_with_retry_after("sendMessage", retry_after=1, times=1)
    await asyncio.gather(bot.send_message(GROUP, "первое"), bot.send_message(GROUP, "второе"))
    delivered = [c.text for c in api.calls if c.method == "sendMessage" and c.result is not None]
    assert delivered == ["первое", "второе"]
    first_try, *_ = [c.received for c in api.calls if c.method == "sendMessage"]
    assert arrivals(api, GROUP)[-1] - first_try >= 1.0 - SLACK


async def test_a_cancelled_caller_does_not_take_its_message_back(bot: Bot, api: FakeBotAPI) -> None:
    for i in range(3):
        await bot.send_message(GROUP, f"до {i}")
    caller = asyncio.create_task(bot.send_message(GROUP, "после отмены"))
    await asyncio.sleep(0.05)
    caller.cancel()
    await asyncio.sleep(WINDOW + 0.2)
    assert [c.text for c in api.calls if c.method == "sendMessage"][-1] == "после отмены"


async def test_answers_to_buttons_are_not_queued_behind_messages(bot: Bot, api: FakeBotAPI) -> None:
    for i in range(3):
        await bot.send_message(GROUP, f"до {i}")
    waiting = asyncio.create_task(bot.send_message(GROUP, "ждёт окна"))
    await asyncio.sleep(0.01)
    await asyncio.wait_for(bot.answer_callback_query("cb-1", text="Готово"), WINDOW / 3)
    assert not waiting.done()
    await waiting


class WorkerBot(LimitedBot):
    """A worker's bot: its flood control keeps the windows in Redis."""

    def __init__(self, api: FakeBotAPI, redis_url: str, name: str, per_second: int = 1000):
        limits = RedisLimits(Redis.from_url(redis_url), name)
        super().__init__(api, per_second=per_second, limits=limits)


async def close(*bots: LimitedBot) -> None:
    for bot in bots:
        await bot.close_all()


async def test_two_workers_keep_a_groups_limit_together_through_redis(
    api: FakeBotAPI, redis_url: str
) -> None:
    a, b = WorkerBot(api, redis_url, "a"), WorkerBot(api, redis_url, "b")
    try:
        await asyncio.gather(
            *(
                bot.send_message(GROUP, f"{name} {i}")
                for i in range(4)
                for name, bot in (("a", a), ("b", b))
            )
        )
    finally:
        await close(a, b)
    times = sorted(a.stamps.of(GROUP) + b.stamps.of(GROUP))
    assert len(times) == 8
    assert most_in_any(times, WINDOW) == 3  # alone, each worker would allow 3: 6 together
    for name in ("a", "b"):  # each worker's own messages in their order
        mine = [c.text for c in api.calls if c.method == "sendMessage" and c.text.startswith(name)]
        assert mine == [f"{name} {i}" for i in range(4)]


async def test_two_workers_keep_the_bot_wide_limit_together(api: FakeBotAPI, redis_url: str):
    a = WorkerBot(api, redis_url, "a", per_second=4)
    b = WorkerBot(api, redis_url, "b", per_second=4)
    try:
        await asyncio.gather(
            *(bot.send_message(1000 + i, "привет") for i in range(5) for bot in (a, b))
        )
    finally:
        await close(a, b)
    times = sorted(a.stamps.of() + b.stamps.of())
    assert len(times) == 10 and most_in_any(times, 1.0) == 4


async def test_without_redis_each_worker_keeps_the_limits_alone(
    api: FakeBotAPI,
    redis_server,
    caplog: pytest.LogCaptureFixture,  # type: ignore[no-untyped-def]
) -> None:
    a = WorkerBot(api, redis_server.url, "a")
    redis_server.stop()
    try:
        await asyncio.gather(*(a.send_message(GROUP, f"сообщение {i}") for i in range(4)))
    finally:
        redis_server.start()
        await close(a)
    assert most_in_any(a.stamps.of(GROUP), WINDOW) == 3
    assert any("flood limits are this worker's" in r.getMessage() for r in caplog.records)


async def test_at_shutdown_what_waits_for_a_window_goes_out_at_once(
    bot: Bot, api: FakeBotAPI
) -> None:
    """A message kept for the group's next window would be lost with the process."""
    flood = FloodControl(1000, 3, group_window=60.0)
    session = AiohttpSession(api=TelegramAPIServer.from_base(api.base_url))
    session.middleware(flood)
    paced = Bot(BOT_TOKEN, session=session)
    try:
        for i in range(3):
            await paced.send_message(GROUP, f"до {i}")
        waiting = asyncio.gather(*(paced.send_message(GROUP, f"ждёт {i}") for i in range(2)))
        await asyncio.sleep(0.2)
        assert not waiting.done()  # the minute's window is full
        flood.flush()
        await asyncio.wait_for(waiting, 2)
    finally:
        await paced.session.close()
    texts = [c.text for c in api.calls if c.method == "sendMessage"]
    assert texts[-2:] == ["ждёт 0", "ждёт 1"]


# -- issue «Nothing lost, nobody starved»: 429s delay and never drop; the journal ------------


class Pauses:
    """Stands in for asyncio.sleep inside the queue: records each pause, waits none."""

    def __init__(self) -> None:
        self.asked: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)
        await asyncio.sleep(0)


def bot_with(api: FakeBotAPI, flood: FloodControl) -> Bot:
    session = AiohttpSession(api=TelegramAPIServer.from_base(api.base_url))
    session.middleware(flood)
    # as bot/app.py: the chat calls are retried in their queue, not here
    session.middleware(RetryAfterMiddleware(queued_elsewhere=lambda m: True))
    return Bot(BOT_TOKEN, session=session)


async def test_ten_429s_in_a_row_delay_a_message_and_log_one_warning(
    api: FakeBotAPI, caplog: pytest.LogCaptureFixture
) -> None:
    pauses = Pauses()
    flood = FloodControl(1000, 0, sleep=pauses)
    bot = bot_with(api, flood)
    api.fail_with_retry_after("sendMessage", retry_after=1, times=10)
    try:
        sent = await asyncio.wait_for(bot.send_message(GROUP, "дойдёт"), 10)
    finally:
        await bot.session.close()
    assert sent.text == "дойдёт"
    assert pauses.asked == [1.0] * 10
    delivered = [c for c in api.calls if c.method == "sendMessage" and c.result is not None]
    assert [c.text for c in delivered] == ["дойдёт"]
    warnings = [r for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 1 and "stays in its queue" in warnings[0].getMessage()
    assert not [r for r in caplog.records if r.exc_info]  # no traceback


async def test_a_429_of_two_minutes_is_waited_out_and_the_chat_keeps_its_order(
    api: FakeBotAPI,
) -> None:
    pauses = Pauses()
    flood = FloodControl(1000, 0, sleep=pauses)
    bot = bot_with(api, flood)
    api.fail_with_retry_after("sendMessage", retry_after=120, times=1)
    try:
        await asyncio.wait_for(
            asyncio.gather(*(bot.send_message(GROUP, f"по порядку {i}") for i in range(3))), 10
        )
    finally:
        await bot.session.close()
    assert pauses.asked == [120.0]
    delivered = [c.text for c in api.calls if c.method == "sendMessage" and c.result is not None]
    assert delivered == [f"по порядку {i}" for i in range(3)]


async def test_a_groups_messages_leave_about_one_a_second(api: FakeBotAPI) -> None:
    """Telegram asks for about one message a second in a chat (short bursts allowed): with
    Telegram's real minute, a burst of six leaves as three at once, then one a second."""
    flood = FloodControl(1000, 20)
    session = AiohttpSession(api=TelegramAPIServer.from_base(api.base_url))
    session.middleware(flood)
    bot = Bot(BOT_TOKEN, session=session)
    try:
        await asyncio.gather(*(bot.send_message(GROUP, f"темп {i}") for i in range(6)))
    finally:
        await session.close()
    times = arrivals(api, GROUP)
    assert len(times) == 6
    assert times[2] - times[0] < 0.5  # the burst
    assert most_in_any(times, 3.0) <= 3  # then no more than three in any three seconds
    assert times[5] - times[0] >= 2.9


async def sent_texts(api: FakeBotAPI, count: int, timeout: float = 5.0) -> list[str | None]:
    """The texts the fake Bot API took, once there are `count` of them."""
    async with asyncio.timeout(timeout):
        while len(taken := [c for c in api.calls if c.result is not None]) < count:
            await asyncio.sleep(0.02)
    return [c.text for c in taken]


async def forgotten(journal: Journal) -> None:
    """Every journaled call answered is forgotten (the queue settles a call a moment after
    the fake Bot API took it)."""
    async with asyncio.timeout(5):
        while True:
            await journal.flush()
            if not await OutgoingCall.all().count():
                return
            await asyncio.sleep(0.02)


async def test_a_journaled_call_is_written_before_it_is_sent_and_forgotten_after(
    api: FakeBotAPI, db: object
) -> None:
    """A group's post: its caller goes on at once, holding the row's id (negated) for the
    message's; the row is the journal's until Telegram took the post, then the real id is
    written beside it."""
    journal = Journal("test-worker")
    flood = FloodControl(1000, 0, journal=journal)
    bot = bot_with(api, flood)
    api.slow_down("sendMessage", 0.5)
    try:
        started = time.monotonic()
        answer = await bot.send_message(GROUP, "записано")
        assert time.monotonic() - started < 0.3  # not the 0.5 s Telegram takes
        [row] = await OutgoingCall.all()  # under way: already in the database
        assert row.method == "SendMessage" and row.claimed_by == "test-worker"
        assert row.payload["text"] == "записано"
        assert answer.message_id == -row.id  # provisional
        await sent_texts(api, 1)
        await forgotten(journal)  # Telegram took it: forgotten
        [real] = [c.result["message_id"] for c in api.calls if c.result is not None]
        assert await outgoing.real_id(row.id) == real
    finally:
        await bot.session.close()


async def test_a_call_naming_a_provisional_id_is_sent_with_the_real_one(
    api: FakeBotAPI, db: object
) -> None:
    """A handler posts and edits what it posted before Telegram answered: the edit names
    the provisional id and reaches Telegram with the real one; a board stored with the
    provisional id is given the real one."""
    journal = Journal("test-worker")
    flood = FloodControl(1000, 0, journal=journal)
    bot = bot_with(api, flood)
    api.slow_down("sendMessage", 0.3)
    await touch_user(1, "Мастер")
    game = await create_game(
        chat_id=GROUP, topic_id=None, system="savage", name="Доска", creator_id=1
    )
    await start_encounter(game.id, actor_id=1)
    try:
        posted = await bot.send_message(GROUP, "доска, первая версия")
        assert posted.message_id < 0
        await set_board_message(game.id, "encounter", posted.message_id)
        assert await bot.edit_message_text(
            "доска, вторая", chat_id=GROUP, message_id=posted.message_id
        )
        await sent_texts(api, 2)
        await journal.flush()
    finally:
        await bot.session.close()
    sent, edit = [c for c in api.calls if c.result is not None]
    assert edit.method == "editMessageText"
    assert edit.params["message_id"] == sent.result["message_id"] > 0
    assert await board_message(game.id, "encounter") == sent.result["message_id"]


async def test_a_refusal_after_the_caller_went_on_is_its_handlers(
    api: FakeBotAPI, db: object
) -> None:
    """A board edited after its message was deleted: the caller went on, the queue learns
    of the refusal and the caller's handler posts the board anew; an edit naming a post
    Telegram refused is not made."""
    journal = Journal("test-worker")
    flood = FloodControl(1000, 0, journal=journal)
    bot = bot_with(api, flood)
    api.refuse("editMessageText", 400, "Bad Request: message to edit not found")
    refusals: list[str] = []

    async def repost(error: TelegramAPIError) -> None:
        refusals.append(error.message)
        await bot.send_message(GROUP, "доска заново")

    try:
        async with if_refused(repost):
            assert await bot.edit_message_text("доска", chat_id=GROUP, message_id=7)
        await sent_texts(api, 1)  # the board posted anew
        api.refuse("sendMessage", 403, "Forbidden: bot was kicked from the group chat")
        refused = await bot.send_message(GROUP, "не дойдёт")  # refused: its edit is not made
        assert await bot.edit_message_text("правка", chat_id=GROUP, message_id=refused.message_id)
        await asyncio.sleep(0.2)
        await forgotten(journal)
    finally:
        await bot.session.close()
    assert refusals == ["Bad Request: message to edit not found"]
    assert [c.text for c in api.calls if c.result is not None] == ["доска заново"]
    assert "правка" not in [c.text for c in api.calls]


async def test_a_caller_waits_for_a_journaled_call_only_so_long(
    api: FakeBotAPI, db: object
) -> None:
    """A private chat's call, whose refusal its caller reads, is waited for — but past
    `answer_wait` the caller goes on with a stand-in, and the call is still sent, then
    forgotten."""
    journal = Journal("test-worker")
    flood = FloodControl(1000, 0, journal=journal, answer_wait=0.2)
    bot = bot_with(api, flood)
    api.slow_down("sendMessage", 1.0)
    try:
        started = time.monotonic()
        answer = await bot.send_message(PRIVATE, "не ждём")
        assert time.monotonic() - started < 0.6
        assert answer.message_id == 0  # the stand-in
        assert await OutgoingCall.all().count() == 1
        await asyncio.sleep(1.2)
        assert [c.text for c in api.calls if c.result is not None] == ["не ждём"]
        await journal.flush()
        assert await OutgoingCall.all().count() == 0
    finally:
        await bot.session.close()


async def roll_stored(user_id: int) -> RollRecord:
    return await log_roll(
        user_id=user_id,
        chat_id=GROUP,
        topic_id=None,
        game_id=None,
        command="roll",
        args="d20",
        result={"total": 7},
    )


async def test_a_step_and_what_it_tells_the_chat_commit_together(
    api: FakeBotAPI, db: object
) -> None:
    """Within `step_and_its_chat` the reply's journal row is written in the step's own
    transaction and the reply queued only once that committed: no crash can fall between
    a stored roll and its reply (issue 24, item 1)."""
    journal = Journal("test-worker")
    flood = FloodControl(1000, 0, journal=journal)
    bot = bot_with(api, flood)
    await touch_user(1, "Игрок")
    try:
        async with step_and_its_chat(bot):
            record = await roll_stored(1)
            answer = await bot.send_message(GROUP, f"бросок {record.id}")
            assert answer.message_id < 0  # provisional, at once
            assert not flood.chats  # queued only after the commit
            await asyncio.sleep(0.1)
            assert not [c for c in api.calls if c.method == "sendMessage"]
        [row] = await OutgoingCall.all()
        assert answer.message_id == -row.id
        assert await sent_texts(api, 1) == [f"бросок {record.id}"]
        await forgotten(journal)
        assert await RollLog.filter(id=record.id).count() == 1
    finally:
        await bot.session.close()


async def test_a_failure_after_the_reply_leaves_neither_the_step_nor_the_reply(
    api: FakeBotAPI, db: object
) -> None:
    journal = Journal("test-worker")
    bot = bot_with(api, FloodControl(1000, 0, journal=journal))
    await touch_user(1, "Игрок")
    try:
        with pytest.raises(RuntimeError):
            async with step_and_its_chat(bot):
                await roll_stored(1)
                await bot.send_message(GROUP, "не уйдёт")
                raise RuntimeError("the handler broke after its reply")
        await asyncio.sleep(0.2)
        assert await RollLog.all().count() == 0
        assert await OutgoingCall.all().count() == 0
        assert not [c for c in api.calls if c.method == "sendMessage"]
    finally:
        await bot.session.close()


async def test_a_refusal_of_a_call_made_with_the_step_is_its_handlers_after_the_commit(
    api: FakeBotAPI, db: object
) -> None:
    """The board's edit was refused after the commit: its handler posts the board anew and
    stores it — in a context of its own, not the step's finished transaction."""
    journal = Journal("test-worker")
    bot = bot_with(api, FloodControl(1000, 0, journal=journal))
    api.refuse("editMessageText", 400, "Bad Request: message to edit not found")
    await touch_user(1, "Мастер")
    game = await create_game(
        chat_id=GROUP, topic_id=None, system="savage", name="Доска", creator_id=1
    )
    await start_encounter(game.id, actor_id=1)

    async def post_anew(error: TelegramAPIError) -> None:
        posted = await bot.send_message(GROUP, "доска заново")
        await set_board_message(game.id, "encounter", posted.message_id)

    try:
        async with step_and_its_chat(bot):
            await roll_stored(1)
            async with if_refused(post_anew):
                assert await bot.edit_message_text("доска", chat_id=GROUP, message_id=7)
        assert await sent_texts(api, 1) == ["доска заново"]
        await journal.flush()
        [post] = [c for c in api.calls if c.result is not None]
        assert await board_message(game.id, "encounter") == post.result["message_id"]
    finally:
        await bot.session.close()
