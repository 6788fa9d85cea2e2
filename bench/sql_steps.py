"""Benchmark: SQL statements and transactions per user step, on SQLite, through the real
entry points.

Run: ``uv run python bench/sql_steps.py [--steps N] [--quick]`` (about 30 s; ``--quick``: 3
steps per row).

The whole process runs here as ``python -m bot`` runs it (``bot.runner.run``: migration,
dispatcher, aiohttp app) in webhook mode, on a fresh SQLite file in a temporary folder, with
the Bot API pointed at the tests' fake on 127.0.0.1. Chat commands are POSTed to the webhook
route (so update de-duplication and every middleware run), Mini App commands to
``/api/games/{token}/encounter`` with the GM's signed initData (the token from the group's
``/app`` button). The statements are seen by SQLite itself: a trace callback
(``sqlite3.Connection.set_trace_callback``, through engine/store/sqlite_inline.py) on the
ORM's connection
records every statement the database executes, BEGIN and COMMIT included (an
``executemany`` shows once per row, an ORM insert adds its ``last_insert_rowid()``:
that is what SQLite runs). A step lasts from the POST until the process is quiet (no
statement and no Bot API call for 0.15 s), so the work done after the HTTP answer (the
webhook handles updates in the background; the Mini App's chat hooks tell the chat and edit
the boards) counts too.

Transactions: BEGIN … COMMIT/ROLLBACK blocks plus writes in autocommit mode (each is its own
transaction); reads outside a transaction are printed beside them. The outbox marks the rows
a process delivered once a second, in a transaction of its own (engine/services/outbox.py):
that one falls in whichever step runs then and is counted there, so a row's steps show 1 or
2; targets are judged on the median step. Statement shapes: the SQL
with literals as ``?`` and long column lists as ``…``, the top 10 over a row's steps.

Steps, in two group chats, each with a savage game whose GM and player have /start-ed the
bot and a fight of three combatants (a player's Wild Card, an NPC Wild Card, a group of two
Extras); in the first game a chase of three participants follows the fight. The baseline
is an update of a bare aiogram bot (one handler answering with a fixed text) fed through
its ``feed_update`` with the same counter. Then: chat ``/r 2к6+1``; chat ``/hr d20``; the
GM's chat ``/next`` in each game; the Mini App's «Дальше» (``deal``, with the ``seq`` the
client saw) in each game. Targets (the issue «One seam for every rule system, one
transaction per step»): Mini App deal <= 15 statements, chat /r <= 5, a fight step <= 12,
one transaction per step.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp
from aiogram import Bot, Dispatcher
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.types import Message, Update
from pydantic import SecretStr

from bench.harness import (
    BOT_TOKEN,
    CHASE,
    GAME_WITH_FIGHT,
    HOST,
    PUBLIC_URL,
    WEBHOOK_PATH,
    WEBHOOK_SECRET,
    FakeTelegram,
    Updates,
    Webhook,
    free_port,
    group,
    private,
    quiet,
    until,
    user,
)
from bot.runner import run
from bot.settings import Settings
from engine.services import outbox
from webapp.auth import sign_init_data

QUIET_S = 0.15
CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "END", "SAVEPOINT", "RELEASE")
WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")

# -- counting -------------------------------------------------------------------------------


class Tracer:
    """Every statement SQLite executes on the ORM's connection, as SQLite reports it."""

    def __init__(self) -> None:
        self.sql: list[str] = []

    async def attach(self) -> None:
        from tortoise.connection import connections

        client = connections.get("default")  # the process-wide context the runner made
        await until(lambda: client._connection is not None, 10, "the database connection")
        await client._connection.set_trace_callback(self.sql.append)


_LITERAL = re.compile(r"X'[0-9A-Fa-f]*'|'(?:[^']|'')*'|(?<![\w.\"])-?\d+(?:\.\d+)?(?![\w\"])")
_LIST = re.compile(r"\?(?:\s*,\s*\?)+")
_COLUMNS = re.compile(r"^(SELECT )(.{40,}?)( FROM )|^(INSERT INTO \S+ )\((.*?)\)", re.I)
WIDTH = 120


def shape(sql: str) -> str:
    """The statement with its literals as ``?`` (lists of them as one ``?,…``) and long
    column lists of SELECT and INSERT as ``…``, cut to WIDTH characters."""
    text = _LIST.sub("?,…", _LITERAL.sub("?", " ".join(sql.split())))
    text = _COLUMNS.sub(lambda m: f"{m[1]}…{m[3]}" if m[1] else f"{m[4]}(…)", text, count=1)
    return text if len(text) <= WIDTH else text[: WIDTH - 1] + "…"


@dataclass
class Count:
    statements: int = 0
    control: int = 0  # BEGIN / COMMIT / ROLLBACK / SAVEPOINT …
    blocks: int = 0  # BEGIN … COMMIT/ROLLBACK
    autocommit_writes: int = 0
    reads_outside: int = 0
    shapes: Counter[str] = field(default_factory=Counter)

    @property
    def transactions(self) -> int:
        return self.blocks + self.autocommit_writes


def count(statements: list[str]) -> Count:
    out = Count(statements=len(statements))
    inside = False
    for sql in statements:
        word = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""
        out.shapes[shape(sql)] += 1
        if word in CONTROL:
            out.control += 1
            if word == "BEGIN":
                inside = True
                out.blocks += 1
            elif word in ("COMMIT", "ROLLBACK", "END") and "ROLLBACK TO" not in sql.upper():
                inside = False
        elif not inside:
            if word in WRITES or (word == "WITH" and re.search(r"\b(INSERT|UPDATE|DELETE)\b", sql)):
                out.autocommit_writes += 1
            else:
                out.reads_outside += 1
    return out


# -- driving the process --------------------------------------------------------------------


@dataclass
class Chat:
    """A group with a savage game: its GM, a player, and the game's Mini App token."""

    chat: dict[str, Any]
    gm: dict[str, Any]
    player: dict[str, Any]
    token: str = ""
    seq: int | None = None


class Process:
    """The running app: webhook updates and Mini App calls, each awaited until quiet."""

    def __init__(self, fake: FakeTelegram, tracer: Tracer, http: aiohttp.ClientSession, port: int):
        self.fake, self.tracer, self.http = fake, tracer, http
        self.base = f"http://{HOST}:{port}"
        self.webhook = Webhook(http, self.base + WEBHOOK_PATH)
        self.updates = Updates(1000)

    def activity(self) -> tuple[int, int]:
        return len(self.tracer.sql), self.fake.count

    async def quiet(self) -> None:
        await quiet(self.activity, QUIET_S, 30, "the process")

    async def say(self, who: dict[str, Any], chat: dict[str, Any], text: str) -> list[str]:
        """Post a chat message; the statements it caused (the bot's answers are in the fake)."""
        await self.quiet()
        mark = len(self.tracer.sql)
        await self.webhook.post(self.updates.message(who, chat, text))
        await self.quiet()
        return self.tracer.sql[mark:]

    async def miniapp(
        self, who: dict[str, Any], token: str, path: str, body: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], list[str], list[str]]:
        """A Mini App call: (answer, statements before the HTTP answer, statements after it)."""
        await self.quiet()
        info = {"id": who["id"], "first_name": who["first_name"], "language_code": "ru"}
        auth = {"Authorization": "tma " + sign_init_data(BOT_TOKEN, info, int(time.time()))}
        url = f"{self.base}/api/games/{token}/{path}"
        method = "GET" if body is None else "POST"
        mark = len(self.tracer.sql)
        async with self.http.request(method, url, json=body, headers=auth) as response:
            answer = await response.json()
        inside = len(self.tracer.sql)
        await self.quiet()
        if not answer.get("ok"):
            raise RuntimeError(f"{method} {path}: {answer}")
        return answer, self.tracer.sql[mark:inside], self.tracer.sql[inside:]


async def set_up(p: Process, table: Chat, *, chase: bool) -> None:
    gm, player, chat = table.gm, table.player, table.chat
    for who in (gm, player):
        await p.say(who, private(who), "/start")  # so the bot may write to them first
    for by_gm, text in GAME_WITH_FIGHT:
        await p.say(gm if by_gm else player, chat, text)
    for text in CHASE if chase else ():
        await p.say(gm, chat, text)
    mark = p.fake.api.mark()
    await p.say(gm, chat, "/app")
    buttons = [b for c in p.fake.api.since(mark, "sendMessage") for b in c.buttons()]
    [table.token] = parse_qs(urlsplit(buttons[0]["url"]).query)["startapp"]


async def look(p: Process, table: Chat) -> None:
    """The GM's board (the seq the client sees; a live board learns it by WebSocket)."""
    answer, _, _ = await p.miniapp(table.gm, table.token, "encounter")
    table.seq = answer["encounter"]["seq"]


async def deal(p: Process, table: Chat) -> tuple[list[str], list[str]]:
    """The GM's «Дальше»: (statements before the HTTP answer, statements after it)."""
    body = {"command": "deal", "seq": table.seq}
    answer, inside, after = await p.miniapp(table.gm, table.token, "encounter", body)
    table.seq = answer["encounter"]["seq"]
    return inside, after


async def bare_update(fake: FakeTelegram, tracer: Tracer) -> list[str]:
    """The baseline: a bare aiogram bot's update, fed through its dispatcher."""
    dp = Dispatcher()

    @dp.message()
    async def answer(message: Message) -> None:
        await message.answer("ok")

    session = AiohttpSession(api=TelegramAPIServer.from_base(fake.base_url))
    bot = Bot(BOT_TOKEN, session=session)
    try:
        who = user(9001, "Бейз")
        update = Updates(1).message(who, group(-1009009, "Бейз"), "/r 2к6+1")
        mark = len(tracer.sql)
        await dp.feed_update(bot, Update.model_validate(update, context={"bot": bot}))
        return tracer.sql[mark:]
    finally:
        await session.close()


# -- report ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    label: str
    target: int | None  # statements per step; a target always means one transaction too
    issue: str  # what the issue measured today


ROWS = {
    "bare": Row("baseline: a bare aiogram bot's update (feed_update)", None, ""),
    "r": Row("chat /r 2к6+1 (a game's chat; webhook, de-duplication)", 5, "10"),
    "hr": Row("chat /hr d20 (two private copies and the receipt)", None, ""),
    "next": Row("chat /next by the GM (fight only)", 12, "~26"),
    "next+chase": Row("chat /next by the GM (the chase follows)", 12, "~26"),
    "deal+chase": Row("Mini App «Дальше» (deal; the chase follows)", 15, "77 for 3 writes"),
    "deal": Row("Mini App «Дальше» (deal; fight only)", 15, ""),
}


TRACE = False  # --trace: every statement of a row's last step, in order


def report(row: Row, runs: list[list[str]], answered: list[int] | None = None) -> str:
    """Print one row's figures; returns its summary line."""
    counts = [count(r) for r in runs]
    statements = [c.statements for c in counts]
    tx = [c.transactions for c in counts]
    median, median_tx = statistics.median(statements), statistics.median(tx)
    goal = ""
    if row.target is not None:
        # the median step: a step in a busy second may also carry the outbox's marks
        ok = median <= row.target and median_tx <= 1
        goal = f"target <= {row.target} / 1: {'OK' if ok else 'OVER'}"
    print(f"\n{row.label}   {goal}")
    control = statistics.median(c.control for c in counts)
    print(
        f"  statements per step: median {median:g} (each step: {' '.join(map(str, statements))});"
        f" BEGIN/COMMIT among them: {control:g}"
    )
    if answered is not None:
        print(
            f"  of them before the HTTP answer: {' '.join(map(str, answered))} (the chat hooks"
            " start inside the request and run beside it)"
        )
    blocks = " ".join(str(c.blocks) for c in counts)
    writes = " ".join(str(c.autocommit_writes) for c in counts)
    reads = " ".join(str(c.reads_outside) for c in counts)
    print(
        f"  transactions per step: median {median_tx:g} (BEGIN…COMMIT: {blocks}; autocommit"
        f" writes: {writes}); reads outside a transaction: {reads}"
    )
    total: Counter[str] = Counter()
    for c in counts:
        total.update(c.shapes)
    if total:
        print("  per step  statement shape (top 10 of all the steps)")
        for text, n in total.most_common(10):
            print(f"  {n / len(runs):8.1f}  {text}")
    if TRACE and runs:
        print("  the last step, statement by statement:")
        for n, sql in enumerate(runs[-1], 1):
            print(f"  {n:4}  {shape(sql)}")
    issue = f"   the issue today: {row.issue}" if row.issue else ""
    return f"  {row.label:<56} {median:4g} / {median_tx:g}   {goal or '(no target)'}{issue}"


async def settled(p: Process) -> None:
    """Quiet, and the outbox rows of the row before marked by the idle flush (so that a
    row's steps carry no work of another kind of step: outbox.MARK_AFTER_S)."""
    await asyncio.sleep(outbox.MARK_AFTER_S + QUIET_S)
    await p.quiet()


async def measure(p: Process, fight_chase: Chat, fight_only: Chat, steps: int) -> list[str]:
    lines = [report(ROWS["bare"], [await bare_update(p.fake, p.tracer)])]
    chat, player = fight_chase.chat, fight_chase.player
    await settled(p)
    lines.append(report(ROWS["r"], [await p.say(player, chat, "/r 2к6+1") for _ in range(steps)]))
    await settled(p)
    lines.append(report(ROWS["hr"], [await p.say(player, chat, "/hr d20") for _ in range(steps)]))
    for key, table in (("next", fight_only), ("next+chase", fight_chase)):
        await settled(p)
        runs = [await p.say(table.gm, table.chat, "/next") for _ in range(steps)]
        lines.append(report(ROWS[key], runs))
    for key, table in (("deal+chase", fight_chase), ("deal", fight_only)):
        await settled(p)
        await look(p, table)
        parts = [await deal(p, table) for _ in range(steps)]
        answered = [len(before) for before, _ in parts]
        lines.append(report(ROWS[key], [a + b for a, b in parts], answered))
    return lines


async def main(steps: int) -> None:
    tmp = tempfile.TemporaryDirectory()
    fake = FakeTelegram()
    await fake.start()
    tracer = Tracer()
    port = free_port()
    settings = Settings(
        bot_token=SecretStr(BOT_TOKEN),
        bot_api_url=fake.base_url,
        database_url=f"sqlite://{tmp.name}/kosti.sqlite3",
        host=HOST,
        port=port,
        webhook_url=PUBLIC_URL + WEBHOOK_PATH,
        webhook_secret=SecretStr(WEBHOOK_SECRET),
        public_url=PUBLIC_URL,
        # statements are counted, not Telegram's windows: a step's messages leave at once
        flood_group_per_minute=1_000_000_000,
        _env_file=None,  # type: ignore[call-arg]
    )
    stop = asyncio.Event()
    process = asyncio.create_task(run(settings, stop=stop))
    try:
        await until(lambda: any(c.method == "setWebhook" for c in fake.api.calls), 30, "start")
        await tracer.attach()
        async with aiohttp.ClientSession() as http:
            p = Process(fake, tracer, http, port)
            fight_chase = Chat(group(-1001001, "Бой и погоня"), user(11, "Мастер"), user(12, "Аня"))
            fight_only = Chat(group(-1001002, "Только бой"), user(21, "Ведущий"), user(22, "Боря"))
            await set_up(p, fight_chase, chase=True)
            await set_up(p, fight_only, chase=False)
            for table in (fight_chase, fight_only):  # the first round and the chase's rhythm
                await look(p, table)
                await deal(p, table)
            load = "/".join(f"{x:.2f}" for x in os.getloadavg())
            print(f"database: an SQLite file; {steps} steps per row; load average {load}")
            lines = await measure(p, fight_chase, fight_only, steps)
        print("\nsummary: median statements / transactions per step")
        print("\n".join(lines))
    finally:
        stop.set()
        await asyncio.wait_for(process, 30)
        await fake.close()
        tmp.cleanup()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=5, help="measured steps per row")
    parser.add_argument("--quick", action="store_true", help="3 steps per row")
    parser.add_argument("--trace", action="store_true", help="list a row's last step")
    args = parser.parse_args()
    TRACE = args.trace
    asyncio.run(main(3 if args.quick else args.steps))
