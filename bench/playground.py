"""Benchmark of the playground's page: load time in headless Chromium on localhost.

Run: ``uv run python bench/playground.py [runs]`` (needs Debian's chromium: /usr/bin/chromium).

The playground runs as ``python -m bot --demo`` runs it (the real runner, the in-memory Bot
API, a fresh SQLite file) with the demo table laid out, so the group holds its ~30 messages
and the fight board. Each run opens ``/`` in a fresh browser context (cold cache) and reads
the ``kosti-play:ready`` performance mark (set once the state has arrived over the page's
request and the chat is in the DOM), from navigation start; target < 300 ms. The same-run
baseline: the first contentful paint of a static hello page from a server in the same
process, in a fresh context too.
"""

from __future__ import annotations

import asyncio
import os
import socket
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from aiohttp import web

from bot.playground.demo import lay_out
from bot.playground.play import Playground
from bot.playground.start import playground_settings
from bot.playground.web import setup_playground
from bot.runner import run
from bot.settings import Settings
from tests.webapp.browser import CHROMIUM_ARGS, chromium_path

TARGET_MS = 300
READY = """() => new Promise((resolve) => {
  new PerformanceObserver((list, observer) => {
    for (const e of list.getEntries()) {
      if (e.name === "kosti-play:ready") { observer.disconnect(); resolve(e.startTime); }
    }
  }).observe({ type: "mark", buffered: true });
})"""
PAINT = """() => new Promise((resolve) => {
  new PerformanceObserver((list, observer) => {
    for (const e of list.getEntries()) {
      if (e.name === "first-contentful-paint") { observer.disconnect(); resolve(e.startTime); }
    }
  }).observe({ type: "paint", buffered: true });
})"""
HELLO = (
    b'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>hello</title></head>'
    b"<body><h1>Hello</h1></body></html>"
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def hello(request: web.Request) -> web.Response:
    return web.Response(body=HELLO, content_type="text/html", charset="utf-8")


async def measure(runs: int) -> tuple[list[float], list[float], int]:
    from playwright.async_api import async_playwright

    path = chromium_path()
    if path is None:
        raise SystemExit("chromium not found: apt-get install -y chromium")
    play = Playground()
    play.routes = lambda app: setup_playground(app, play)
    port = free_port()
    stop = asyncio.Event()
    with tempfile.TemporaryDirectory() as tmp:
        base = Settings(host="127.0.0.1", port=port, _env_file=None)  # type: ignore[call-arg]
        task = asyncio.create_task(
            run(playground_settings(base, play.token, Path(tmp)), stop=stop, playground=play)
        )
        baseline_app = web.Application()
        baseline_app.router.add_get("/", hello)
        baseline_runner = web.AppRunner(baseline_app)
        await baseline_runner.setup()
        baseline_port = free_port()
        await web.TCPSite(baseline_runner, "127.0.0.1", baseline_port).start()
        try:
            while play.bot is None:
                if task.done():
                    task.result()
                await asyncio.sleep(0.05)
            group, _topic = await lay_out(play)
            times: list[float] = []
            baseline: list[float] = []
            async with async_playwright() as pw:
                browser = await pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
                for i in range(runs + 1):  # the first run warms up the browser process
                    context = await browser.new_context(viewport={"width": 1280, "height": 800})
                    page = await context.new_page()
                    await page.goto(f"http://127.0.0.1:{baseline_port}/", wait_until="commit")
                    fcp = await page.evaluate(PAINT)
                    await context.close()
                    context = await browser.new_context(viewport={"width": 1280, "height": 800})
                    page = await context.new_page()
                    await page.goto(play.url, wait_until="commit")
                    ready = await page.evaluate(READY)
                    shown = await page.locator("li.msg").count()
                    assert shown == len(group.messages), shown  # the group, every message
                    if i:
                        times.append(float(ready))
                        baseline.append(float(fcp))
                    await context.close()
                await browser.close()
            return times, baseline, len(group.messages)
        finally:
            await baseline_runner.cleanup()
            stop.set()
            await asyncio.wait_for(task, 30)


def spread(values: list[float]) -> str:
    return (
        f"median {statistics.median(values):.0f} ms, min {min(values):.0f}, max {max(values):.0f}"
    )


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs")
    times, baseline, messages = asyncio.run(measure(runs))
    verdict = "ok" if statistics.median(times) < TARGET_MS else "OVER"
    print(f"{runs} cold runs, from navigation start, the group with {messages} messages:")
    print(f"  playground page ready (state in, chat in the DOM): {spread(times)} "
          f"(target < {TARGET_MS} ms: {verdict})")  # fmt: skip
    print(f"  baseline: static hello page, first contentful paint: {spread(baseline)}")


if __name__ == "__main__":
    main()
