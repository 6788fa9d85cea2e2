"""Benchmark of the Mini App: payload size and first render in headless Chromium.

Run: ``uv run python bench/webapp.py [runs]`` (needs Debian's chromium: /usr/bin/chromium).

- payload: every JS and CSS file the page loads (vendored ones included), gzipped as the
  server sends them; target <= 60 KB;
- first render: a local server on 127.0.0.1 with a fresh SQLite database holding a game and
  20 rolls; each run opens the game screen in a fresh browser context (cold cache) and reads
  the ``kosti-first-render`` performance mark (set when the snapshot has been rendered),
  measured from navigation start; target <= 300 ms.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from aiohttp import web
from pydantic import SecretStr

from bot.settings import Settings
from engine.services import create_game, join_game, log_roll, touch_user
from engine.store.db import close_db, init_db, migrate
from tests.webapp.browser import CHROMIUM_ARGS, chromium_path
from webapp.app import create_app
from webapp.auth import sign_init_data
from webapp.config import WebAppConfig
from webapp.dev import LIGHT_THEME, launch_fragment
from webapp.links import startapp_token
from webapp.static_files import load_assets

TOKEN = "123456:BENCH-token"
PAYLOAD_TARGET_KB = 60
RENDER_TARGET_MS = 300


def payload() -> tuple[int, int, list[tuple[str, int, int]]]:
    rows = []
    for name, asset in load_assets().items():
        if name.endswith((".js", ".css")):
            rows.append((name, len(asset.body), len(asset.gzipped or asset.body)))
    return sum(r[1] for r in rows), sum(r[2] for r in rows), sorted(rows)


async def seed() -> int:
    for uid, name in ((1, "Мастер"), (2, "Аня")):
        await touch_user(uid, name)
    game = await create_game(
        chat_id=-1001, topic_id=None, system="storyteller", name="Бенчмарк", creator_id=1
    )
    await join_game(game.id, 2)
    from engine.dice import pool

    rng = random.Random(1)
    for i in range(20):
        args = f"{5 + i % 5} 6 — бросок {i}"
        await log_roll(
            user_id=2, chat_id=-1001, topic_id=None, game_id=game.id, command="p",
            args=args, result=pool(args, rng).to_dict(),
        )  # fmt: skip
    return game.id


async def first_render(runs: int) -> list[float]:
    from playwright.async_api import async_playwright

    path = chromium_path()
    if path is None:
        raise SystemExit("chromium not found: apt-get install -y chromium")
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite://{tmp}/bench.sqlite3"
        await migrate(url)
        ctx = await init_db(url)
        runner = None
        try:
            game_id = await seed()
            app = create_app(Settings(bot_token=SecretStr(TOKEN)), webapp_config=WebAppConfig())
            runner = web.AppRunner(app)
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
            start = startapp_token(game_id, bot_token=TOKEN)
            times = []
            async with async_playwright() as pw:
                browser = await pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
                for i in range(runs + 1):  # the first run warms up the browser process
                    context = await browser.new_context(viewport={"width": 390, "height": 844})
                    page = await context.new_page()
                    init = sign_init_data(
                        TOKEN, {"id": 2, "first_name": "Аня"}, int(time.time()), start_param=start
                    )
                    fragment = launch_fragment(init, theme=LIGHT_THEME, start_param=start)
                    await page.goto(f"http://127.0.0.1:{port}/app/#{fragment}")
                    await page.wait_for_selector("body[data-ready='1']", timeout=10000)
                    mark = await page.evaluate(
                        "performance.getEntriesByName('kosti-first-render')[0].startTime"
                    )
                    rolls = await page.locator("li.roll").count()
                    assert rolls == 20, rolls
                    if i:
                        times.append(float(mark))
                    await context.close()
                await browser.close()
            return times
        finally:
            if runner is not None:
                await runner.cleanup()
            await close_db(ctx)


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    raw, gz, rows = payload()
    print("payload (JS + CSS):")
    for name, size, gzipped in rows:
        print(f"  {name:40} {size / 1024:7.1f} KB  gzip {gzipped / 1024:6.1f} KB")
    verdict = "ok" if gz / 1024 <= PAYLOAD_TARGET_KB else "OVER"
    print(f"  total {raw / 1024:.1f} KB, gzipped {gz / 1024:.1f} KB "
          f"(target <= {PAYLOAD_TARGET_KB} KB: {verdict})")  # fmt: skip
    times = asyncio.run(first_render(runs))
    median = statistics.median(times)
    verdict = "ok" if median <= RENDER_TARGET_MS else "OVER"
    print(
        f"first render (navigation start -> game screen with 20 rolls), {runs} cold runs: "
        f"median {median:.0f} ms, min {min(times):.0f}, max {max(times):.0f} "
        f"(target <= {RENDER_TARGET_MS} ms: {verdict})"
    )


if __name__ == "__main__":
    main()
