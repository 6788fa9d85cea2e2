"""Benchmark: CPU per update inside one process, with no network at all.

Run: ``uv run python bench/dispatch.py [--updates N] [--rounds R] [--only r|hr|fight]
[--profile F]``

bench/pipeline.py measures the whole path between processes; its figures move with the
machine's load and include the HTTP of both sides. This one feeds updates straight into
``Dispatcher.feed_update`` — Kosti's dispatcher (every middleware, the routers, the engine,
the SQLite commit on a throwaway file) and, in the same run, a bare dispatcher with one
handler answering every message with a fixed text — through a Bot API session that answers
in memory. It reports the process CPU time per update of each (``time.process_time``, which
counts the SQLite thread too) and their ratio: the cost of Kosti's own code on the path,
without the part both bots share (aiohttp's server and client). ``--profile`` writes
cProfile statistics of the last round of each bot (no start-up in them).

Scenarios, as in bench/pipeline.py: a player's ``/r 2к6+1`` and ``/hr d20`` and the GM's
``/next`` (a fight step) in a group with a savage game and a fight of three combatants (GM
and player have /start-ed the bot), one at a time.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import itertools
import json
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from aiogram import Bot, Dispatcher
from aiogram.client.session.base import BaseSession
from aiogram.methods import EditMessageText, GetChatMember, GetMe, SendMessage, TelegramMethod
from aiogram.methods.base import TelegramType
from aiogram.types import Message, Update, User

from bench.harness import BOT_TOKEN, GAME_WITH_FIGHT, Updates, group, private, user
from bot.session import BotSession, dumps

SCENARIOS = {"r": ("/r 2к6+1", False), "hr": ("/hr d20", False), "fight": ("/next", True)}


BOT = User(id=42, is_bot=True, first_name="Kosti", username="kosti_bench_bot")


class MemorySession(BaseSession):
    """Answers as the Bot API would, without a network: the call's parameters are prepared as
    for a request and the answer is read by aiogram's own `check_response` (the work both
    bots do on the way out and back; Kosti's as its session does, `KostiMemorySession`).
    sendMessage and editMessageText answer the message (its text and buttons), getMe and
    getChatMember the bot, the rest True."""

    def __init__(self) -> None:
        super().__init__()
        self.ids = itertools.count(1)
        self.calls = 0
        self.last: TelegramMethod[Any] | None = None

    async def make_request(
        self, bot: Bot, method: TelegramMethod[TelegramType], timeout: int | None = None
    ) -> TelegramType:
        self.calls += 1
        self.last = method
        params = self.prepare(bot, method)
        body = {"ok": True, "result": self._result(method, params)}
        response = self.check_response(bot, method, 200, json.dumps(body))
        return response.result  # type: ignore[return-value]

    def prepare(self, bot: Bot, method: TelegramMethod[Any]) -> dict[str, Any]:
        params: dict[str, Any] = {}
        for key, value in method.model_dump(warnings=False).items():
            prepared = self.prepare_value(value, bot=bot, files={}, _dumps_json=False)
            if prepared is not None:
                params[key] = prepared
        return params

    def _result(self, method: TelegramMethod[Any], params: dict[str, Any]) -> Any:
        if isinstance(method, SendMessage | EditMessageText):
            chat_id = int(params["chat_id"])
            message: dict[str, Any] = {
                "message_id": int(params.get("message_id") or next(self.ids)),
                "date": int(time.time()),
                "chat": {"id": chat_id, "type": "supergroup" if chat_id < 0 else "private"},
                "text": params["text"],
            }
            if "reply_markup" in params:
                message["reply_markup"] = params["reply_markup"]
            return message
        if isinstance(method, GetMe):
            return BOT.model_dump(exclude_none=True)
        if isinstance(method, GetChatMember):  # the bot is a plain member: may not delete
            return {"status": "member", "user": BOT.model_dump(exclude_none=True)}
        return True

    async def close(self) -> None:
        return None

    async def stream_content(self, *args: Any, **kwargs: Any) -> Any:  # pragma: no cover
        raise NotImplementedError


class KostiMemorySession(MemorySession, BotSession):
    """Kosti's session in memory: the body encoded as bot/session.py sends it, the answer
    read as it reads it (the echoed keyboard is the one sent)."""

    def prepare(self, bot: Bot, method: TelegramMethod[Any]) -> dict[str, Any]:
        params = self.json_params(bot, method)
        assert params is not None, "no file uploads in these scenarios"
        dumps(params)  # the body's encoding, as on the way out
        return params


class Feeder:
    """The harness's updates (bench/harness.py), as aiogram objects read for `bot` as the
    webhook reads them (bot/intake.py): one read without the bot is read again by
    `feed_update` through a JSON round trip (~0.3 ms an update, on either bot)."""

    def __init__(self) -> None:
        self.updates = Updates()

    def message(self, sender: dict[str, Any], chat: dict[str, Any], text: str, bot: Bot) -> Update:
        raw = self.updates.message(sender, chat, text)
        return Update.model_validate(raw, context={"bot": bot})


@dataclass(frozen=True)
class Cost:
    cpu: float  # process CPU seconds per update
    on_loop: float  # the share of it on the event loop's thread
    collecting: float  # the share of it in the garbage collector
    longest_collection: float  # seconds


class CollectorTime:
    """Time spent in the garbage collector while active (its start/stop callbacks)."""

    def __init__(self) -> None:
        self.total = self.longest = 0.0
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            spent = time.perf_counter() - self._started
            self.total += spent
            self.longest = max(self.longest, spent)


async def cost(dp: Dispatcher, bot: Bot, updates: list[Update], profile: Path | None) -> Cost:
    """Feed `updates` one at a time; with `profile`, under cProfile (written there)."""
    profiler = cProfile.Profile() if profile else None
    if profiler:
        profiler.enable()
    collector = CollectorTime()
    gc.callbacks.append(collector)
    started, loop = time.process_time(), time.thread_time()
    for update in updates:
        await dp.feed_update(bot, update)
    cpu, loop = time.process_time() - started, time.thread_time() - loop
    gc.callbacks.remove(collector)
    if profiler:
        profiler.disable()
        profiler.dump_stats(profile)
    share = collector.total / cpu if cpu else 0.0
    return Cost(cpu / len(updates), loop / cpu if cpu else 1.0, share, collector.longest)


async def main(count: int, profile: Path | None, rounds: int, only: list[str]) -> None:
    from bot.app import build_dispatcher, create_bot
    from bot.runner import prepare_database
    from bot.settings import Settings
    from engine.store.db import close_db

    folder = tempfile.TemporaryDirectory(prefix="kosti-dispatch-")
    settings = Settings(
        bot_token=BOT_TOKEN,
        database_url=f"sqlite://{folder.name}/kosti.sqlite3",
        default_locale="ru",
        flood_per_second=1_000_000,
        flood_group_per_minute=1_000_000_000,
    )
    await prepare_database(settings)
    session = KostiMemorySession()
    kosti_bot, kosti = create_bot(settings, session=session), build_dispatcher(settings)
    bare_bot, bare = Bot(BOT_TOKEN, session=MemorySession()), Dispatcher()

    @bare.message()
    async def answer(message: Message) -> None:
        await message.answer("ok")

    feed = Feeder()
    table, gm, player = group(-1003000000, "Стол"), user(1001, "Мастер"), user(2001, "Игрок")
    for who in (gm, player):
        await kosti.feed_update(kosti_bot, feed.message(who, private(who), "/start", kosti_bot))
    for by_gm, text in (*GAME_WITH_FIGHT, (True, "/next")):
        who = gm if by_gm else player
        await kosti.feed_update(kosti_bot, feed.message(who, table, text, kosti_bot))
    gc.collect()  # as bot/runner.py does once it is set up
    gc.freeze()
    try:
        print(
            f"{count} updates per scenario and bot, one at a time, in {rounds} alternating "
            f"rounds (medians); process CPU per update; load average "
            + "/".join(f"{x:.2f}" for x in os.getloadavg())
        )
        for key, (text, by_gm) in SCENARIOS.items():
            if only and key not in only:
                continue
            sender = gm if by_gm else player
            for dp, bot in ((kosti, kosti_bot), (bare, bare_bot)):
                warm = [feed.message(sender, table, text, bot) for _ in range(50)]
                await cost(dp, bot, warm, None)
            ours, theirs, calls, n = [], [], session.calls, count // rounds
            for round_ in range(rounds):
                last = round_ == rounds - 1
                batch = [feed.message(sender, table, text, kosti_bot) for _ in range(n)]
                where = Path(f"{profile}.{key}") if profile and last else None
                ours.append(await cost(kosti, kosti_bot, batch, where))
                batch = [feed.message(sender, table, text, bare_bot) for _ in range(n)]
                where = Path(f"{profile}.{key}.bare") if profile and last else None
                theirs.append(await cost(bare, bare_bot, batch, where))
            per_update = (session.calls - calls) / (n * rounds)
            kosti_cpu = statistics.median(c.cpu for c in ours)
            bare_cpu = statistics.median(c.cpu for c in theirs)
            on_loop = statistics.median(c.on_loop for c in ours)
            collecting = statistics.median(c.collecting for c in ours)
            longest = max(c.longest_collection for c in ours)
            print(f"  {text}: the bot's last call, e.g. {session.last!r:.120}")
            print(
                f"  {text:10} kosti {kosti_cpu * 1000:6.3f} ms ({per_update:.0f} Bot API "
                f"calls; {on_loop:.0%} on the event loop's thread, {collecting:.0%} collecting "
                f"garbage, longest collection {longest * 1000:.1f} ms)   "
                f"bare {bare_cpu * 1000:6.3f} ms   ratio {bare_cpu / kosti_cpu:4.2f}"
            )
    finally:
        await kosti.storage.close()
        await close_db()
        folder.cleanup()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=3000, help="per scenario and bot")
    parser.add_argument(
        "--profile", type=Path, help="cProfile of the last round to F.<scenario>[.bare]"
    )
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (medians)")
    parser.add_argument("--only", action="append", choices=SCENARIOS, default=[])
    args = parser.parse_args()
    asyncio.run(main(args.updates, args.profile, args.rounds, args.only))
