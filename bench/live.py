"""Benchmark of the live fan-out: how long N open boards wait for a deal.

Run: ``uv run python bench/live.py [--sockets 500] [--deals 20] [--players 4]``.

The server is the real app (``webapp.app.create_app``) on 127.0.0.1 over a fresh SQLite file,
in this process, its start-up heap frozen (``gc.freeze()``, as bot/runner.py does;
``--no-freeze``: not); the clients run in a second process (bench/live_clients.py: one event
loop, N WebSockets of one game, each authenticated with its own signed initData): one GM,
`--players` players who own one character each, the rest spectators. The game holds an
encounter of 8 fighters (the players' characters and the GM's NPCs). The GM presses «Дальше»
(``POST /api/games/{token}/encounter {"command": "next"}``) `--deals` times; per deal, the latency
of each socket is the time from the POST's start until that socket has received and parsed
(``json.loads``) the push. Interleaved with the deals, the baseline of the same run: the
server sends one fixed, pre-encoded text frame of the same size to every open socket
(``ws.send_str`` of one string in a loop, from a bench-only route) — the floor of aiohttp's
fan-out to these sockets on this machine. Prints p50/p95/p99/max of both and the load
average.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from aiohttp import web
from pydantic import SecretStr

from bot.settings import Settings
from engine.services import create_game, join_game, touch_user
from engine.services.savage import add_to_encounter, save_character, start_encounter
from engine.store.db import close_db, init_db, migrate
from webapp.app import create_app
from webapp.auth import sign_init_data
from webapp.config import WebAppConfig
from webapp.keys import SOCKETS
from webapp.links import startapp_token

TOKEN = "123456:BENCH-live-token"
GM_ID, FIRST_PLAYER, FIRST_SPECTATOR = 1, 11, 100_000
TARGET_P99_MS = 100
PCS = (
    "{name} (Дикий) Ловкость d8, Смекалка d6, Дух d8, Сила d10, Выносливость d8; "
    "Драка d10, Атлетика d8, Стрельба d6; Защита 7, Стойкость 8 (2); Бенни 3"
)
PC_NAMES = ("Ичиго", "Рукия", "Ренджи", "Орихимэ", "Чад", "Урю")
NPCS = (
    "Гриммджо (Дикий) Ловкость d10, Смекалка d6, Дух d8, Сила d12, Выносливость d10; "
    "Драка d12, Атлетика d10; Защита 8, Стойкость 9 (1); Бенни 1",
    "Улькиорра (Дикий) Ловкость d10, Смекалка d8, Дух d10, Сила d10, Выносливость d10; "
    "Драка d12, Стрельба d10; Защита 8, Стойкость 9 (2); Бенни 2",
    "Пустой (Статист) Дух d4, Сила d8; Драка d6; Защита 5, Стойкость 7",
    "Меносс (Статист) Дух d6, Сила d10; Драка d8; Защита 5, Стойкость 9",
)
FIGHTERS = 8


def signed(user_id: int, name: str) -> str:
    return sign_init_data(TOKEN, {"id": user_id, "first_name": name}, int(time.time()))


async def seed(players: int) -> int:
    """A SWADE game with an encounter of 8 fighters: one character per player, NPCs for the
    rest (the GM's)."""
    await touch_user(GM_ID, "Мастер")
    game = await create_game(
        chat_id=-1001, topic_id=None, system="savage", name="Бенчмарк", creator_id=GM_ID
    )
    pcs = min(players, len(PC_NAMES), FIGHTERS)
    for i in range(players):
        await touch_user(FIRST_PLAYER + i, f"Игрок {i + 1}")
        await join_game(game.id, FIRST_PLAYER + i)
    names = []
    for i in range(pcs):
        await save_character(game.id, PCS.format(name=PC_NAMES[i]), actor_id=FIRST_PLAYER + i)
        names.append(PC_NAMES[i])
    for text in NPCS[: FIGHTERS - pcs]:
        await save_character(game.id, text, actor_id=GM_ID)
        names.append(text.split(" (")[0])
    await start_encounter(game.id, actor_id=GM_ID)
    rng = random.Random(1)
    for name in names:
        await add_to_encounter(game.id, name, actor_id=GM_ID, rng=rng)
    return game.id


async def blast(request: web.Request) -> web.Response:
    """The baseline: one fixed frame, encoded once, sent to every open socket."""
    size = int((await request.json())["size"])
    frame = json.dumps({"type": "blast", "pad": "x" * max(0, size - 26)})
    sent = 0
    for ws in list(request.app[SOCKETS]):
        if not ws.closed:
            await ws.send_str(frame)
            sent += 1
    return web.json_response({"sent": sent})


# -- the server ------------------------------------------------------------------------------
def mix(sockets: int, players: int) -> list[tuple[int, str]]:
    users = [(GM_ID, "Мастер")] + [(FIRST_PLAYER + i, f"Игрок {i + 1}") for i in range(players)]
    spectators = sockets - len(users)
    if spectators < 0:
        raise SystemExit("--sockets must be at least 1 + --players")
    return users + [(FIRST_SPECTATOR + i, f"Зритель {i}") for i in range(spectators)]


async def serve(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite://{tmp}/bench.sqlite3"
        await migrate(url)
        ctx = await init_db(url)
        runner = None
        try:
            game_id = await seed(args.players)
            app = create_app(Settings(bot_token=SecretStr(TOKEN)), webapp_config=WebAppConfig())
            app.router.add_post("/bench/blast", blast)
            runner = web.AppRunner(app)
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
            gtoken = startapp_token(game_id, bot_token=TOKEN)
            config = {
                "base": f"http://127.0.0.1:{port}",
                "gtoken": gtoken,
                "inits": [signed(uid, name) for uid, name in mix(args.sockets, args.players)],
                "gm_init": signed(GM_ID, "Мастер"),
                "deals": args.deals,
            }
            if args.freeze:  # as bot/runner.py does once it has started
                gc.collect()
                gc.freeze()
            child = await asyncio.create_subprocess_exec(
                sys.executable,
                str(Path(__file__).with_name("live_clients.py")),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
            )
            out, _ = await child.communicate(json.dumps(config).encode())
            if child.returncode:
                raise SystemExit(f"the clients failed ({child.returncode})")
            result: dict[str, Any] = json.loads(out)
            return result
        finally:
            if runner is not None:
                await runner.cleanup()
            await close_db(ctx)


def percentiles(values: list[float]) -> str:
    q = statistics.quantiles(values, n=100, method="inclusive")
    return f"p50 {q[49]:6.1f}  p95 {q[94]:6.1f}  p99 {q[98]:6.1f}  max {max(values):6.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sockets", type=int, default=500)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--freeze",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="gc.freeze() once the server has started, as bot/runner.py does (default: yes)",
    )
    args = parser.parse_args()
    before = os.getloadavg()
    result = asyncio.run(serve(args))
    after = os.getloadavg()
    spectators = args.sockets - 1 - args.players
    print(
        f"{args.sockets} sockets (1 GM, {args.players} players with a character each, "
        f"{spectators} spectators), {FIGHTERS} fighters, {args.deals} deals, "
        f"start-up heap {'frozen' if args.freeze else 'not frozen'}"
    )
    print(f"deal -> push parsed on every socket:  {percentiles(result['deal'])}  "
          f"(target p99 < {TARGET_P99_MS} ms)")  # fmt: skip
    print(f"baseline, one {result['size']} B frame:   {percentiles(result['blast'])}")
    print(f"push sizes (bytes, the distinct views of the last deal): {result['sizes']}")
    print(f"the deal's POST answered: median {statistics.median(result['post']):.1f} ms")
    print(
        f"load average before {before[0]:.2f} {before[1]:.2f} {before[2]:.2f}, "
        f"after {after[0]:.2f} {after[1]:.2f} {after[2]:.2f} on {os.cpu_count()} CPUs"
    )


if __name__ == "__main__":
    main()
