"""Benchmark of the Mini App: payload size and first render in headless Chromium.

Run: ``uv run python bench/webapp.py [runs] [--phone] [--h2] [--rtt] [--waterfall]
[--trace FILE]``
(needs Debian's chromium: /usr/bin/chromium).

- payload: every JS and CSS file the page loads (vendored ones included), gzipped as the
  server sends them; target <= 60 KB;
- first render: a local server on 127.0.0.1 with a fresh SQLite database holding a game and
  20 rolls; each run opens the game screen in a fresh browser context (cold cache) and reads
  the ``kosti:first-render`` performance mark (set by the app when the game screen - header,
  roller form, the 20 rolls, one Preact commit - is in the DOM) and Chromium's Element Timing
  of the game title (when that frame was painted); first render is the later of the two,
  from navigation start; target <= 300 ms. Also printed: the marks that split the time (the
  snapshot is handled once it has arrived and the modules run; the screen is rendered once
  the strings are ready too) and a same-run baseline (first contentful paint of a static
  hello page from the same server, in a fresh context too);
- ``--phone``: a slow phone, both pages throttled through the DevTools protocol — the CPU 4×
  slower (``Emulation.setCPUThrottlingRate``) and 150 ms added to every request and to a
  WebSocket's handshake, not to its frames (``Network.emulateNetworkConditions``; no
  throughput cap: the first screen is ~65 KB gzipped, 29 KB of it the strings); target
  <= 800 ms. Still HTTP/1.1 to the server: six connections, so every six requests of the
  page cost a round trip more;
- ``--h2``: both pages through Caddy (``caddy`` on the PATH: Debian's package) as
  docker/compose.yaml deploys the app — HTTPS with its own local certificate, so HTTP/2: the
  page's requests share one connection instead of waiting for one of six;
- ``--rtt`` (with ``--phone``): the phone's 150 ms as a round trip on the wire instead —
  both pages through a local proxy that delays every chunk 75 ms each way and a
  connection's first byte one round trip more (its TCP set-up), so a TLS handshake, a
  WebSocket's frames and every exchange on a shared connection pay it as on a real network
  (the DevTools latency is per request: it leaves out the set-ups and the frames);
- ``--waterfall``: the app's requests of the last run (start, response start, end; ms);
- ``--trace FILE``: a Chromium trace of the last run's app page (open it in DevTools'
  Performance panel or https://ui.perfetto.dev); tracing slows the page a little.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import shutil
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext, Page

TOKEN = "123456:BENCH-token"
PAYLOAD_TARGET_KB = 60
RENDER_TARGET_MS = 300
PHONE_TARGET_MS = 800
# The slow phone of --phone: 4x CPU; 150 ms of latency on every request (the network
# service adds it per request; it does not model a connection's set-up), no throughput cap.
PHONE_CPU_RATE = 4
PHONE_NETWORK = {
    "offline": False,
    "latency": 150,
    "downloadThroughput": -1,
    "uploadThroughput": -1,
}
PHONE_ONE_WAY = 0.075  # --rtt: the same 150 ms as a round trip on the wire


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
    from engine.storyteller.dice import pool

    rng = random.Random(1)
    for i in range(20):
        args = f"{5 + i % 5} 6 — бросок {i}"
        await log_roll(
            user_id=2, chat_id=-1001, topic_id=None, game_id=game.id, command="p",
            args=args, result=pool(args, rng).to_dict(),
        )  # fmt: skip
    return game.id


# Resolves in the page when the app has painted its first real screen (no polling, which
# would take main-thread time from the page); returns the marks that split the time.
WAIT_FOR_RENDER = """() => new Promise((resolve) => {
  let title = null; // Element Timing of the game title: when Chromium painted it
  let rendered = false;
  const done = () => {
    const at = (name) => {
      const entry = performance.getEntriesByName(name)[0];
      return entry ? entry.startTime : null;
    };
    resolve({
      boot: at("kosti:boot"), wsOpen: at("kosti-ws-open"), wsMessage: at("kosti-ws-message"),
      modules: at("kosti-modules"), strings: at("kosti-strings"), snapshot: at("kosti-snapshot"),
      render: at("kosti:first-render"), element: title,
    });
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.identifier === "kosti-game") title = e.renderTime;
    if (rendered && title !== null) done();
  }).observe({ type: "element", buffered: true });
  new PerformanceObserver((list, observer) => {
    if (list.getEntries().some((e) => e.name === "kosti:first-render")) {
      observer.disconnect();
      rendered = true;
      if (title !== null) done();
      else setTimeout(done, 2000); // the paint's entry comes with the frame's presentation
    }
  }).observe({ type: "mark", buffered: true });
})"""
WAIT_FOR_PAINT = """() => new Promise((resolve) => {
  new PerformanceObserver((list, observer) => {
    for (const e of list.getEntries()) {
      if (e.name === "first-contentful-paint") { observer.disconnect(); resolve(e.startTime); }
    }
  }).observe({ type: "paint", buffered: true });
})"""
WATERFALL = """() => performance.getEntriesByType("resource").map((e) => [
  e.name, e.initiatorType, e.startTime, e.responseStart, e.responseEnd, e.transferSize,
])"""
# Chromium's trace: the DevTools timeline (what the Performance panel shows), V8's samples,
# and Blink's own events (the parser, the resource fetcher, style and layout in detail).
TRACE_CATEGORIES = [
    "devtools.timeline", "disabled-by-default-devtools.timeline",
    "disabled-by-default-devtools.timeline.frame", "disabled-by-default-devtools.timeline.stack",
    "v8.execute", "disabled-by-default-v8.cpu_profiler", "blink", "blink.user_timing", "loading",
    "toplevel", "latencyInfo",
]  # fmt: skip
HELLO = (
    b'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>hello</title></head>'
    b"<body><h1>Hello</h1></body></html>"
)


async def hello(request: web.Request) -> web.Response:
    return web.Response(body=HELLO, content_type="text/html", charset="utf-8")


async def throttle(context: BrowserContext, page: Page, *, latency: bool = True) -> None:
    cdp = await context.new_cdp_session(page)
    await cdp.send("Emulation.setCPUThrottlingRate", {"rate": PHONE_CPU_RATE})
    if latency:
        await cdp.send("Network.enable")
        await cdp.send("Network.emulateNetworkConditions", PHONE_NETWORK)


@contextlib.asynccontextmanager
async def slow_wire(upstream: int, one_way: float) -> AsyncIterator[int]:
    """A TCP proxy to ``upstream`` whose every chunk arrives ``one_way`` seconds after it was
    sent, in order, and whose connections carry their first byte a round trip late (the
    TCP handshake); yields its port. No kernel help here (netem is not loaded), hence this."""
    loop = asyncio.get_running_loop()

    async def carry(
        reader: asyncio.StreamReader, writer: asyncio.StreamWriter, not_before: float
    ) -> None:
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def deliver() -> None:
            while True:
                due, data = await queue.get()
                await asyncio.sleep(max(0.0, due - loop.time()))
                if not data:
                    with contextlib.suppress(OSError):
                        writer.close()
                    return
                writer.write(data)
                with contextlib.suppress(OSError):
                    await writer.drain()

        delivering = asyncio.create_task(deliver())
        with contextlib.suppress(OSError):
            while data := await reader.read(1 << 16):
                queue.put_nowait((max(loop.time(), not_before) + one_way, data))
        queue.put_nowait((max(loop.time(), not_before) + one_way, b""))
        await delivering

    async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        set_up = loop.time() + 2 * one_way
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", upstream)
        except OSError:
            writer.close()
            return
        carrying = asyncio.gather(
            carry(reader, up_writer, set_up), carry(up_reader, writer, set_up)
        )
        open_ones.add(carrying)
        # ended by the bench's end: a handler that ends cancelled makes asyncio's streams
        # print a traceback (Python 3.11), so it returns instead
        with contextlib.suppress(asyncio.CancelledError):
            await carrying
        open_ones.discard(carrying)

    open_ones: set[asyncio.Future[Any]] = set()
    server = await asyncio.start_server(connection, "127.0.0.1", 0)
    try:
        yield int(server.sockets[0].getsockname()[1])
    finally:
        server.close()
        for carrying in list(open_ones):
            carrying.cancel()
        await asyncio.sleep(0)


CADDYFILE = """{{
\tadmin off
\tskip_install_trust
\tstorage file_system {storage}
}}
https://127.0.0.1:{port} {{
\ttls internal
\treverse_proxy 127.0.0.1:{upstream}
}}
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.asynccontextmanager
async def caddy(upstream: int, tmp: str) -> AsyncIterator[str]:
    """Caddy in front of the server on ``upstream`` (HTTPS, HTTP/2); yields its base URL."""
    binary = shutil.which("caddy")
    if binary is None:
        raise SystemExit("caddy not found: apt-get install -y caddy")
    port = free_port()
    config = Path(tmp) / "Caddyfile"
    config.write_text(CADDYFILE.format(storage=Path(tmp) / "caddy", port=port, upstream=upstream))
    env = {**os.environ, "HOME": tmp, "XDG_DATA_HOME": tmp, "XDG_CONFIG_HOME": tmp}
    process = await asyncio.create_subprocess_exec(
        binary, "run", "--config", str(config), "--adapter", "caddyfile", env=env,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    try:
        for _ in range(100):
            try:
                _, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.close()
                break
            except OSError:
                await asyncio.sleep(0.1)
        yield f"https://127.0.0.1:{port}"
    finally:
        process.terminate()
        await process.wait()


async def first_render(
    runs: int,
    phone: bool = False,
    waterfall: bool = False,
    h2: bool = False,
    trace: str | None = None,
    rtt: bool = False,
) -> tuple[list[dict[str, float]], list[float]]:
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
            app.router.add_get("/bench/hello", hello)
            runner = web.AppRunner(app)
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
            start = startapp_token(game_id, bot_token=TOKEN)
            times: list[dict[str, float]] = []
            baseline: list[float] = []
            args = [*CHROMIUM_ARGS, "--ignore-certificate-errors"] if h2 else CHROMIUM_ARGS
            async with contextlib.AsyncExitStack() as stack:
                base = f"http://127.0.0.1:{port}"
                if h2:
                    base = await stack.enter_async_context(caddy(port, tmp))
                if rtt:
                    front = int(base.rsplit(":", 1)[1])
                    wire = await stack.enter_async_context(slow_wire(front, PHONE_ONE_WAY))
                    base = f"{base.rsplit(':', 1)[0]}:{wire}"
                pw = await stack.enter_async_context(async_playwright())
                browser = await pw.chromium.launch(executable_path=path, args=args)
                for i in range(runs + 1):  # the first run warms up the browser process
                    # The same-run baseline: a static hello page from the same server.
                    context = await browser.new_context(viewport={"width": 390, "height": 844})
                    page = await context.new_page()
                    if phone:
                        await throttle(context, page, latency=not rtt)
                    await page.goto(f"{base}/bench/hello", wait_until="commit")
                    fcp = await page.evaluate(WAIT_FOR_PAINT)
                    await context.close()
                    # The app, cold: a fresh context has an empty cache.
                    context = await browser.new_context(viewport={"width": 390, "height": 844})
                    page = await context.new_page()
                    if phone:
                        await throttle(context, page, latency=not rtt)
                    init = sign_init_data(
                        TOKEN, {"id": 2, "first_name": "Аня"}, int(time.time()), start_param=start
                    )
                    fragment = launch_fragment(init, theme=LIGHT_THEME, start_param=start)
                    traced = trace is not None and i == runs
                    if traced:
                        await browser.start_tracing(
                            page=page, path=trace, categories=TRACE_CATEGORIES
                        )
                    await page.goto(f"{base}/app/#{fragment}", wait_until="commit")
                    marks = await page.evaluate(WAIT_FOR_RENDER)
                    if traced:
                        await browser.stop_tracing()
                    rolls = await page.locator("li.roll").count()
                    assert rolls == 20, rolls
                    assert await page.locator("form").count() == 1  # the roller
                    if i:
                        times.append(marks)
                        baseline.append(float(fcp))
                    if waterfall and i == runs:
                        print_waterfall(await page.evaluate(WATERFALL))
                    await context.close()
                await browser.close()
            return times, baseline
        finally:
            if runner is not None:
                await runner.cleanup()
            await close_db(ctx)


def print_waterfall(entries: list[list[Any]]) -> None:
    print("the app's requests of the last run (ms from navigation start):")
    print(f"  {'start':>6} {'answer':>6} {'end':>6} {'bytes':>6}  request")
    for name, kind, start, answer, end, size in sorted(entries, key=lambda e: e[2]):
        path = name.split("/app/", 1)[-1].split("?", 1)[0]
        print(f"  {start:6.0f} {answer:6.0f} {end:6.0f} {size:6d}  {path} ({kind})")


def spread(values: list[float]) -> str:
    return (
        f"median {statistics.median(values):.0f} ms, min {min(values):.0f}, max {max(values):.0f}"
    )


def main() -> None:
    argv = sys.argv[1:]
    trace = None
    if "--trace" in argv:
        at = argv.index("--trace")
        if at + 1 >= len(argv):
            raise SystemExit("--trace needs a file name")
        trace = argv.pop(at + 1)
    args = [a for a in argv if not a.startswith("--")]
    phone, waterfall, h2, rtt = (f"--{x}" in argv for x in ("phone", "waterfall", "h2", "rtt"))
    if rtt and not phone:
        raise SystemExit("--rtt is the slow phone's network: use it with --phone")
    runs = int(args[0]) if args else 15
    target = PHONE_TARGET_MS if phone else RENDER_TARGET_MS
    raw, gz, rows = payload()
    print("payload (JS + CSS):")
    for name, size, gzipped in rows:
        print(f"  {name:40} {size / 1024:7.1f} KB  gzip {gzipped / 1024:6.1f} KB")
    verdict = "ok" if gz / 1024 <= PAYLOAD_TARGET_KB else "OVER"
    print(f"  total {raw / 1024:.1f} KB, gzipped {gz / 1024:.1f} KB "
          f"(target <= {PAYLOAD_TARGET_KB} KB: {verdict})")  # fmt: skip
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs")
    if phone:
        network = (
            f"{PHONE_ONE_WAY * 2000:.0f} ms round trip on the wire (a delaying proxy)"
            if rtt
            else f"{PHONE_NETWORK}"
        )
        print(f"slow phone: CPU {PHONE_CPU_RATE}x slower, network {network}")
    print("through Caddy: HTTPS, HTTP/2" if h2 else "straight to the server: HTTP/1.1")
    marks, baseline = asyncio.run(first_render(runs, phone, waterfall, h2, trace, rtt))
    # Painted: the later of the app's mark and Chromium's own paint time of the game title.
    render = [max(m["render"], m["element"] or 0) for m in marks]
    median = statistics.median(render)
    verdict = "ok" if median <= target else "OVER"
    print(f"{runs} cold runs, from navigation start (ms):")
    for key, label in (
        ("boot", "boot.js running"),
        ("wsOpen", "socket open"),
        ("wsMessage", "snapshot received"),
        ("modules", "modules running"),
        ("strings", "strings ready"),
        ("snapshot", "snapshot handled"),
        ("render", "game screen in the DOM (kosti:first-render)"),
        ("element", "game title painted (Element Timing)"),
    ):
        values = [m[key] for m in marks if m.get(key) is not None]
        if values:
            print(f"  {label:38} {spread(values)}")
    print(
        f"  first render (header + roller + 20 rolls painted): {spread(render)} "
        f"(target <= {target} ms: {verdict})"
    )
    print(f"  baseline: static hello page, first contentful paint: {spread(baseline)}")
    if trace is not None:
        print(f"trace of the last run: {trace}")
    load = os.getloadavg()
    print(f"load average after the runs {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
