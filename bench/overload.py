"""Benchmark: an overload of the webhook — do the bounds on updates hold latency?

Run: ``uv run python bench/overload.py [--rate 200] [--seconds 10]``

Two runs of the real process (``python -m bot``, webhook mode, a fresh SQLite file), one
after the other, each fed ``/r 2к6+1`` at ``--rate`` updates/s from 8 groups for ``--seconds``:
one with the default bound (``MAX_UPDATES_IN_FLIGHT``), one with the bound out of reach (the
behaviour before the bound existed). A POST answered 503 is sent again one second later, as
Telegram redelivers (its own wait is longer). Reported per run: updates handled, POSTs refused,
the latency from an update's first POST until the fake Bot API received its answer (p50, p99,
max; redeliveries included), and the server's peak memory (VmHWM from /proc). The rate is
meant to exceed what one process handles (see bench/pipeline.py for that figure): the bound
turns the overload into waits at Telegram instead of tasks, memory and seconds of latency in
the process. Since the inbox (bot/intake.py) the bound is in two parts: at most
``MAX_UPDATES_IN_FLIGHT`` handled at once, and 100 per slot stored and waiting in the chats'
lanes; the 503s come past the second.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp

from bench.harness import WEBHOOK_SECRET, FakeTelegram, Updates, group, until, user
from bench.pipeline import Server, kosti_server, percentile
from bot.settings import Settings

GROUPS = 8
REDELIVERY_S = 1.0
TAG = re.compile(r"№(\d+)")


def peak_memory_mb(server: Server) -> float | None:
    try:
        status = Path(f"/proc/{server.proc.pid}/status").read_text()  # type: ignore[union-attr]
    except (OSError, AttributeError):
        return None
    found = re.search(r"VmHWM:\s+(\d+) kB", status)
    return int(found.group(1)) / 1024 if found else None


async def overload(server: Server, fake: FakeTelegram, rate: float, seconds: float) -> str:
    updates = Updates(1)
    chats = [group(-1003000000 - i, f"Стол {i}") for i in range(GROUPS)]
    players = [user(3000 + i, f"Игрок {i}") for i in range(GROUPS)]
    headers = {"X-Telegram-Bot-Api-Secret-Token": WEBHOOK_SECRET}
    first_post: dict[int, float] = {}
    refused = [0]
    mark = fake.api.mark()

    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        await server.start(http)
        await until(lambda: any(c.method == "setWebhook" for c in fake.api.calls), 30, "kosti")
        mark = fake.api.mark()

        async def deliver(number: int) -> None:
            i = number % GROUPS
            update = updates.message(players[i], chats[i], f"/r 2к6+1 №{number}")
            first_post[number] = time.perf_counter()
            while True:
                async with http.post(server.webhook_url, json=update, headers=headers) as r:
                    if r.status == 200:
                        return
                refused[0] += 1
                await asyncio.sleep(REDELIVERY_S)

        total = round(rate * seconds)
        start = time.perf_counter() + 0.05
        tasks = []
        for n in range(total):
            delay = start + n / rate - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.create_task(deliver(n)))
        await asyncio.gather(*tasks)
        with contextlib.suppress(RuntimeError, TimeoutError, AssertionError):  # report what came
            await until(lambda: len(fake.api.since(mark, "sendMessage")) >= total, 120, "answers")
        memory = peak_memory_mb(server)
        await server.stop()

    latencies = []
    for call in fake.api.since(mark, "sendMessage"):
        if found := TAG.search(call.text):
            latencies.append(1000 * (call.received - first_post[int(found.group(1))]))
    if not latencies:
        return "no answers"
    return (
        f"{len(latencies)}/{total} handled, {refused[0]} POSTs refused; latency p50 "
        f"{percentile(latencies, 50):7.1f} ms  p99 {percentile(latencies, 99):7.1f} ms  max "
        f"{max(latencies):7.1f} ms; peak memory "
        + (f"{memory:.0f} MB" if memory is not None else "n/a")
    )


async def main(rate: float, seconds: float) -> None:
    bound = Settings.model_fields["max_updates_in_flight"].default
    print(f"/r 2к6+1 at {rate:g} updates/s for {seconds:g} s from {GROUPS} groups")
    for label, limit in ((f"bound {bound} (default)", bound), ("no bound", 1_000_000)):
        with tempfile.TemporaryDirectory(prefix="kosti-overload-") as folder:
            fake = FakeTelegram()
            await fake.start()
            try:
                server = kosti_server(Path(folder), fake.base_url)
                server.env["MAX_UPDATES_IN_FLIGHT"] = str(limit)
                print(f"  {label:<20} {await overload(server, fake, rate, seconds)}")
            finally:
                await fake.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=200.0)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    asyncio.run(main(args.rate, args.seconds))
