"""Benchmark: several workers on PostgreSQL and Redis — throughput, latency, flood limits.

Run: ``uv run python bench/workers.py [--quick] [--postgres URL]``
(PostgreSQL: ``--postgres``, else KOSTI_TEST_POSTGRES_URL, else a throwaway cluster of the
Debian packages as ./scripts/test starts; Redis: a throwaway ``redis-server``.)

1. **Throughput**: ``/r 2к6+1`` from 8 concurrent senders (closed loop, each sends its next
   update once the answer arrived) through one worker, then through two (the senders spread
   their POSTs over both, as the reverse proxy does). Updates/s and p50/p99 latency (POST → the
   fake Bot API received the answer). Telegram's limits are out of reach here (as in
   bench/pipeline.py): this measures the work.
2. **Fan-out**: a chat ``/r`` posted to worker A, until a Mini App board (a WebSocket) on
   worker B shows it: p50/p99 over 50 rolls against the 100 ms target.
3. **A burst under Telegram's limits**: 50 ``/r`` in each of 10 groups posted at once to the
   two workers with the default limits (30 messages a second, 20 a minute per group). It ends
   when every answer arrived; counted at the fake: answers missing, the most in one group
   within any 60 s and the most in any second, and answers of a group out of its updates'
   order (the workers keep the order of what each one sends; two workers' answers to one
   group interleave as they get the group's window). It takes about 2.5 minutes: 50 messages
   at 20 a minute.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp
import asyncpg  # type: ignore[import-untyped]

from bench.harness import (
    BOT_TOKEN,
    HOST,
    WEBHOOK_SECRET,
    FakeTelegram,
    Updates,
    group,
    until,
    user,
)
from bench.pipeline import Server, kosti_server, percentile
from tests.support.postgres_server import PostgresServer
from tests.support.redis_server import RedisServer
from webapp.auth import sign_init_data
from webapp.links import startapp_token

TAG = re.compile(r"№(\d+)")
SENDERS = 8


async def reset(url: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        for row in await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
        ):
            await conn.execute(f'DROP TABLE IF EXISTS "{row["tablename"]}" CASCADE')
    finally:
        await conn.close()


def worker(folder: Path, fake: FakeTelegram, env: dict[str, str], name: str) -> Server:
    server = kosti_server(folder, fake.base_url)
    server.name, server.log = name, folder / f"{name}.log"
    server.env.update(env)
    return server


async def closed_loop(
    http: aiohttp.ClientSession, fake: FakeTelegram, hooks: list[str], seconds: float
) -> str:
    updates = Updates(100_000 * len(hooks))  # ids unseen by the workers' shared memory
    headers = {"X-Telegram-Bot-Api-Secret-Token": WEBHOOK_SECRET}
    latencies: list[float] = []
    answered: dict[int, asyncio.Event] = {}
    mark = fake.api.mark()
    seen = [mark]

    async def watch() -> None:
        while True:
            for call in fake.api.calls[seen[0] :]:
                found = TAG.search(call.text) if call.method == "sendMessage" else None
                if found and (event := answered.get(int(found.group(1)))):
                    event.set()
            seen[0] = len(fake.api.calls)
            await asyncio.sleep(0.001)

    counter = iter(range(10**9))
    stop_at = time.perf_counter() + seconds

    async def sender(i: int) -> None:
        chat, who = group(-1004000000 - i, f"Стол {i}"), user(4000 + i, f"Игрок {i}")
        while time.perf_counter() < stop_at:
            n = next(counter)
            answered[n] = asyncio.Event()
            started = time.perf_counter()
            hook = hooks[n % len(hooks)]
            update = updates.message(who, chat, f"/r 2к6+1 №{n}")
            async with http.post(hook, json=update, headers=headers) as response:
                assert response.status == 200, response.status
            await asyncio.wait_for(answered[n].wait(), 10)
            latencies.append(1000 * (time.perf_counter() - started))

    watcher = asyncio.create_task(watch())
    started = time.perf_counter()
    await asyncio.gather(*(sender(i) for i in range(SENDERS)))
    elapsed = time.perf_counter() - started
    watcher.cancel()
    return (
        f"{len(latencies) / elapsed:7.1f} updates/s   latency p50 {percentile(latencies, 50):6.1f}"
        f" ms  p99 {percentile(latencies, 99):6.1f} ms   ({len(latencies)} updates)"
    )


async def fan_out(
    http: aiohttp.ClientSession, fake: FakeTelegram, a: Server, b: Server, url: str
) -> str:
    updates = Updates(700_000)
    headers = {"X-Telegram-Bot-Api-Secret-Token": WEBHOOK_SECRET}
    chat, gm = group(-1006000000, "Фан-аут"), user(6000, "Ведущая")
    mark = fake.api.mark()
    new_game = updates.message(gm, chat, "/newgame дикий Фан-аут")
    async with http.post(a.webhook_url, json=new_game, headers=headers):
        pass
    await until(lambda: fake.api.since(mark, "sendMessage"), 10, "the new game")
    conn = await asyncpg.connect(url)
    try:
        game_id = await conn.fetchval("SELECT id FROM games WHERE chat_id = $1", chat["id"])
    finally:
        await conn.close()
    token = startapp_token(game_id, bot_token=BOT_TOKEN)
    ws = await http.ws_connect(f"http://{HOST}:{b.port}/api/games/{token}/ws")
    await ws.send_json({"type": "auth", "initData": sign_init_data(BOT_TOKEN, gm)})
    assert (await ws.receive_json(timeout=10))["type"] == "snapshot"
    latencies = []
    for i in range(50):
        started = time.perf_counter()
        update = updates.message(gm, chat, f"/r d6 №{i}")
        async with http.post(a.webhook_url, json=update, headers=headers):
            pass
        while (await ws.receive_json(timeout=10))["type"] != "roll":
            pass
        latencies.append(1000 * (time.perf_counter() - started))
    await ws.close()
    p99 = percentile(latencies, 99)
    return (
        f"p50 {percentile(latencies, 50):.1f} ms  p99 {p99:.1f} ms  (target < 100 ms: "
        f"{'OK' if p99 < 100 else 'OVER'})"
    )


async def burst(http: aiohttp.ClientSession, fake: FakeTelegram, hooks: list[str]) -> str:
    updates = Updates(500_000)
    headers = {"X-Telegram-Bot-Api-Secret-Token": WEBHOOK_SECRET}
    groups = [group(-1005000000 - g, f"Группа {g}") for g in range(10)]
    players = [user(5000 + g, f"Игрок {g}") for g in range(10)]
    mark = fake.api.mark()
    refused = [0]

    async def deliver(hook: str, update: dict[str, Any]) -> None:
        while True:  # a 503 (the worker's bound on updates in flight): Telegram resends
            async with http.post(hook, json=update, headers=headers) as response:
                if response.status == 200:
                    return
            refused[0] += 1
            await asyncio.sleep(1.0)

    posts = []
    for i in range(50):
        for g, chat in enumerate(groups):
            update = updates.message(players[g], chat, f"/r d6 №{g * 1000 + i}")
            posts.append(deliver(hooks[(i + g) % len(hooks)], update))
    started = time.perf_counter()
    await asyncio.gather(*posts)

    def answers() -> list[Any]:
        return [c for c in fake.api.since(mark, "sendMessage") if c.result is not None]

    await until(lambda: len(answers()) >= 500, 400, "the burst's answers")
    elapsed = time.perf_counter() - started
    calls = answers()
    per_group: dict[int, list[Any]] = {}
    for call in calls:
        per_group.setdefault(call.chat_id, []).append(call)
    most_minute = max(
        sum(1 for c in chat_calls if t.received <= c.received < t.received + 60)
        for chat_calls in per_group.values()
        for t in chat_calls
    )
    times = sorted(c.received for c in calls)
    most_second = max(sum(1 for t in times if s <= t < s + 1) for s in times)
    disorder = 0
    for chat_calls in per_group.values():
        numbers = [int(TAG.search(c.text).group(1)) for c in chat_calls]  # type: ignore[union-attr]
        disorder += sum(1 for x, y in itertools.pairwise(numbers) if y < x)
    return (
        f"{len(calls)}/500 answers in {elapsed:.0f} s; most in one group within 60 s: "
        f"{most_minute} (limit 20); most in any second: {most_second} (limit 30); "
        f"answers after a later update's, per group: {disorder}; POSTs answered 503 and "
        f"sent again: {refused[0]}"
    )


async def main(postgres_url: str | None, quick: bool) -> None:
    folder = Path(tempfile.mkdtemp(prefix="kosti-workers-"))
    pg_server = None
    if postgres_url is None:
        pg_server = PostgresServer()
        pg_server.start()
        postgres_url = pg_server.url
    redis = RedisServer(folder)
    redis.start()
    fake = FakeTelegram()
    await fake.start()
    seconds = 3.0 if quick else 10.0
    started: list[Server] = []
    try:
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
            for count in (1, 2):
                await reset(postgres_url)
                env = {"DATABASE_URL": postgres_url, "REDIS_URL": redis.url}
                servers = [worker(folder, fake, env, f"w{count}{i}") for i in range(count)]
                started += servers
                for server in servers:  # one after the other: the first migrates
                    await server.start(http)
                hooks = [s.webhook_url for s in servers]
                print(f"{count} worker(s): {await closed_loop(http, fake, hooks, seconds)}")
                if count == 2:
                    fanned = await fan_out(http, fake, servers[0], servers[1], postgres_url)
                    print(f"fan-out, chat on worker A -> board on worker B: {fanned}")
                if count == 2 and not quick:
                    for server in servers:
                        await server.stop()
                    env |= {"FLOOD_PER_SECOND": "30", "FLOOD_GROUP_PER_MINUTE": "20"}
                    servers = [worker(folder, fake, env, f"f{i}") for i in range(2)]
                    started += servers
                    for server in servers:
                        await server.start(http)
                    print(f"burst, 2 workers: {await burst(http, fake, hooks_of(servers))}")
                for server in servers:
                    await server.stop()
    except BaseException:
        for log in sorted(folder.glob("*.log")):
            print(f"--- {log.name}\n{log.read_text()[-2000:]}")
        print("--- last calls", [(c.method, c.text[:80]) for c in fake.api.calls[-5:]])
        raise
    finally:
        for server in started:  # whatever an error left running
            await server.stop()
        await fake.close()
        redis.stop()
        if pg_server is not None:
            pg_server.remove()
        shutil.rmtree(folder, ignore_errors=True)


def hooks_of(servers: list[Server]) -> list[str]:
    return [s.webhook_url for s in servers]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 s loops, no burst")
    parser.add_argument("--postgres", help="a PostgreSQL URL (its schema is dropped!)")
    args = parser.parse_args()
    url = args.postgres or os.environ.get("KOSTI_TEST_POSTGRES_URL")
    asyncio.run(main(url, args.quick))
