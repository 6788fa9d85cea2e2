"""Issue «Nothing lost, nobody starved»: kill -9 of a real `python -m bot` (one process, long
polling, SQLite) while the replies to twelve /r and the posts of twelve GM fight steps wait
in its queue behind a slow Bot API. The restart sends every one of them; only the call under
way at the kill may arrive twice. Two workers: tests/bot/test_workers.py."""

from __future__ import annotations

import asyncio
import os
import re
from collections import Counter
from pathlib import Path

from engine.services.types import GameInfo
from tests.bot.test_workers import ROOT, chat_update, start_worker, stop_worker, until
from tests.support.fake_botapi import BOT_TOKEN, ApiCall, FakeBotAPI
from tests.webapp.conftest import GM_ID, PLAYER_ID
from tests.webapp.systems.savage.fight import make_fight

ROLL = re.compile(r"бросок (\d+)")


def rolls(calls: list[ApiCall]) -> Counter[int]:
    found = (ROLL.search(c.text) for c in calls)
    return Counter(int(m.group(1)) for m in found if m is not None)


def benny_posts(calls: list[ApiCall]) -> list[str]:
    return [c.text for c in calls if "бенни" in c.text.lower() and ROLL.search(c.text) is None]


async def test_kill_9_with_queued_replies_and_fight_posts_then_restart(
    db: object, db_url_of_current: str, api: FakeBotAPI, tmp_path: Path
) -> None:
    fight: GameInfo = await make_fight()
    env = {
        **os.environ,
        "BOT_TOKEN": BOT_TOKEN,
        "BOT_API_URL": api.base_url,
        "DATABASE_URL": db_url_of_current,
        "HOST": "127.0.0.1",
        "FLOOD_GROUP_PER_MINUTE": "0",  # the slow Bot API makes the queue here
        "LOG_LEVEL": "INFO",
        "PYTHONPATH": str(ROOT),
    }
    for name in ("REDIS_URL", "WEBHOOK_URL"):
        env.pop(name, None)
    worker = await start_worker("first", env, tmp_path)
    try:
        await until(lambda: any(c.method == "getUpdates" for c in api.calls))
        api.slow_down("sendMessage", 1.0)
        api.slow_down("editMessageText", 1.0)
        mark = api.mark()
        updates = []
        for i in range(12):
            updates.append(chat_update(100 + 2 * i, f"/r d6 бросок {i}", PLAYER_ID, fight.chat_id))
            updates.append(chat_update(101 + 2 * i, "/benny Ичиго 1", GM_ID, fight.chat_id))
        api.pending_updates.extend(updates)
        await until(lambda: len(api.since(mark, "sendMessage")) >= 2)
        await asyncio.sleep(2.0)
        worker.process.kill()  # kill -9: no shutdown of any kind
        await worker.process.wait()
    finally:
        await stop_worker(worker)
    before_kill = len(api.sent(mark))
    assert before_kill < 12, "the queue was not cut short: the test proves nothing"

    api.slow_down("sendMessage", 0.0)
    api.slow_down("editMessageText", 0.0)
    worker = await start_worker("second", env, tmp_path)
    try:
        await until(lambda: len(rolls(api.sent(mark, chat_id=fight.chat_id))) == 12, 30)
        await until(lambda: len(benny_posts(api.sent(mark, chat_id=fight.chat_id))) >= 12, 30)
        await asyncio.sleep(1.0)  # anything sent a second time would have arrived by now
    finally:
        await stop_worker(worker)
    delivered = api.sent(mark, chat_id=fight.chat_id)
    replies = rolls(delivered)
    assert sorted(replies) == list(range(12))
    posts = benny_posts(delivered)
    # once each: at most the one call under way at the kill arrives twice
    assert sum(replies.values()) + len(posts) - 24 <= 1, (replies, posts)
    assert "did not send" in worker.log_text() or "did not finish" in worker.log_text()
