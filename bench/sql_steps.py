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
transaction); reads outside a transaction are printed beside them. Statement shapes: the SQL
with literals as ``?`` and long column lists as ``…``, the top 10 over a row's steps.

Who ran what: SQLite runs on the event loop's own thread (engine/store/sqlite_inline.py), so
the trace callback sees the asyncio task that runs each statement. A step's statements are
printed in three parts. The step's own transaction: the first BEGIN … COMMIT of the step that
is not the forgetting below, with the task that ran it (the update's handler, or the Mini
App's request); the journal rows of its chat calls (``outgoing_call``, one INSERT a call)
are in it, as a step and what it tells the chat commit together. The rest of that task: its
reads before the BEGIN (the game's), and after the COMMIT the reads of the Mini App page's
answer. Beside it, in tasks of their own: the update's inbox row (``received_update``: its
INSERT before the webhook's 200, its DELETE batched with the updates handled within 50 ms),
the sent calls forgotten (``sent_call``, the provisional ids replaced, the journal rows
deleted: one transaction shared by every call Telegram took within 50 ms;
engine/services/outgoing.py), and other work that fell in the step (the outbox's marks once a
second, the leases' refresh and sweeps, the timers), by coroutine. In all: every statement
the database ran during the step.

Steps, in two group chats, each with a savage game whose GM and player have /start-ed the
bot and a fight of three combatants (a player's Wild Card, an NPC Wild Card, a group of two
Extras); in the first game a chase of three participants follows the fight. The baseline
is an update of a bare aiogram bot (one handler answering with a fixed text) fed through
its ``feed_update`` with the same counter. Then: chat ``/r 2к6+1``; chat ``/hr d20``; the
GM's chat ``/next`` in each game; the Mini App's «Дальше» (``deal``, with the ``seq`` the
client saw) in each game.

Targets: the closed issue «One seam for every rule system, one transaction per step» set Mini
App deal <= 15 statements, chat /r <= 5, a fight step <= 12, one transaction per step. They
are judged on the median step's own transaction only (its statements, BEGIN and COMMIT
included, and that its task ran no other transaction and no write outside it): the inbox row,
the batched forgetting and the page's answer run outside the step's transaction (most of
them after its commit, off the step's path, the batches shared under load) and are printed
beside it, not judged. What the issue measured when it was opened counted every statement
of a step: it is printed beside the "in all" figure. The journal rows in the step's own
transaction came after the issue: they count against its target, and are printed.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import re
import statistics
import sys
import tempfile
import time
import weakref
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple
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


class Stmt(NamedTuple):
    sql: str
    task: str  # the asyncio task that ran it: its coroutine's name and a serial number


class Tracer:
    """Every statement SQLite executes on the ORM's connection, as SQLite reports it, with
    the task that ran it (SQLite runs on the event loop's own thread: the trace callback is
    called inside that task)."""

    def __init__(self) -> None:
        self.sql: list[Stmt] = []
        self._serials: weakref.WeakKeyDictionary[asyncio.Task[Any], int] = (
            weakref.WeakKeyDictionary()
        )
        self._next = itertools.count(1)

    def _record(self, sql: str) -> None:
        try:
            task = asyncio.current_task()
        except RuntimeError:  # no loop running
            task = None
        if task is None:
            self.sql.append(Stmt(sql, "-"))
            return
        if (serial := self._serials.get(task)) is None:
            serial = self._serials[task] = next(self._next)
        name = getattr(task.get_coro(), "__qualname__", "?")
        self.sql.append(Stmt(sql, f"{name}#{serial}"))

    async def attach(self) -> None:
        from tortoise.connection import connections

        client = connections.get("default")  # the process-wide context the runner made
        await until(lambda: client._connection is not None, 10, "the database connection")
        await client._connection.set_trace_callback(self._record)


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


def word(sql: str) -> str:
    return sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""


def ends_block(sql: str) -> bool:
    return word(sql) in ("COMMIT", "ROLLBACK", "END") and "ROLLBACK TO" not in sql.upper()


def is_write(sql: str) -> bool:
    return word(sql) in WRITES or (
        word(sql) == "WITH" and re.search(r"\b(INSERT|UPDATE|DELETE)\b", sql) is not None
    )


def count(statements: list[Stmt]) -> Count:
    out = Count(statements=len(statements))
    inside = False
    for sql, _ in statements:
        first = word(sql)
        out.shapes[shape(sql)] += 1
        if first in CONTROL:
            out.control += 1
            if first == "BEGIN":
                inside = True
                out.blocks += 1
            elif ends_block(sql):
                inside = False
        elif not inside:
            if is_write(sql):
                out.autocommit_writes += 1
            else:
                out.reads_outside += 1
    return out


# What follows a step's commit in tasks of their own (engine/services/outgoing.py, inbox.py):
# the calls Telegram took within 50 ms forgotten in one transaction (the posts' real ids, the
# provisional ids replaced, the journal rows deleted), and the update's inbox row (written
# before the webhook's 200, deleted with the others handled within 50 ms).
_FORGETTING = re.compile(
    r'^\s*(INSERT INTO "?sent_call"?|UPDATE \w+ SET message_id = CASE|DELETE FROM outgoing_call)',
    re.I,
)
_INBOX = re.compile(r"^\s*(INSERT INTO|DELETE FROM) received_update\b", re.I)
_JOURNAL = re.compile(r"^\s*INSERT INTO outgoing_call\b", re.I)


def units(statements: list[str]) -> list[list[str]]:
    """The statements as SQLite ran them: each BEGIN … COMMIT/ROLLBACK one unit, every other
    statement one of its own."""
    out: list[list[str]] = []
    block: list[str] | None = None
    for sql in statements:
        if block is not None:
            block.append(sql)
            if ends_block(sql):
                out.append(block)
                block = None
        elif word(sql) == "BEGIN":
            block = [sql]
        else:
            out.append([sql])
    if block is not None:
        out.append(block)
    return out


def forgetting(unit: list[str]) -> bool:
    body = [sql for sql in unit if word(sql) not in CONTROL]
    return word(unit[0]) == "BEGIN" and bool(body) and all(_FORGETTING.match(s) for s in body)


@dataclass
class Parts:
    """One step's statements, by who ran them. The step's task is the one that ran its own
    transaction (the first BEGIN … COMMIT of the step that is not the forgetting): the
    update's handler, or the Mini App's request."""

    own: list[str] = field(default_factory=list)  # its own transaction, BEGIN … COMMIT
    before: list[str] = field(default_factory=list)  # its task, before that BEGIN
    after: list[str] = field(default_factory=list)  # its task, after that COMMIT
    task_transactions: int = 0  # BEGIN … COMMIT blocks and autocommit writes of its task
    inbox: list[str] = field(default_factory=list)  # other tasks: its inbox row's INSERT, DELETE
    forgetting: list[str] = field(default_factory=list)  # other tasks: the sent calls forgotten
    other: Counter[str] = field(default_factory=Counter)  # other tasks: statements per coroutine

    @property
    def journal_rows(self) -> int:
        return sum(1 for sql in self.own if _JOURNAL.match(sql))

    @property
    def task(self) -> int:
        return len(self.before) + len(self.after)

    @property
    def beside(self) -> int:
        return len(self.inbox) + len(self.forgetting) + sum(self.other.values())


def split(step: list[Stmt]) -> Parts:
    by_task: dict[str, list[str]] = {}
    for sql, task in step:
        by_task.setdefault(task, []).append(sql)
    parts = Parts()
    mine = next(
        (
            task
            for task, statements in by_task.items()
            if any(word(u[0]) == "BEGIN" and not forgetting(u) for u in units(statements))
        ),
        None,
    )
    for task, statements in by_task.items():
        if task == mine:
            seen = False
            for unit in units(statements):
                block = word(unit[0]) == "BEGIN"
                parts.task_transactions += block or is_write(unit[0])
                if block and not seen and not forgetting(unit):
                    parts.own, seen = unit, True
                else:
                    (parts.after if seen else parts.before).extend(unit)
            continue
        for unit in units(statements):
            if forgetting(unit):
                parts.forgetting.extend(unit)
            elif len(unit) == 1 and _INBOX.match(unit[0]):
                parts.inbox.extend(unit)
            else:
                parts.other[task.split("#")[0]] += len(unit)
    return parts


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

    async def say(self, who: dict[str, Any], chat: dict[str, Any], text: str) -> list[Stmt]:
        """Post a chat message; the statements it caused (the bot's answers are in the fake)."""
        await self.quiet()
        mark = len(self.tracer.sql)
        await self.webhook.post(self.updates.message(who, chat, text))
        await self.quiet()
        return self.tracer.sql[mark:]

    async def miniapp(
        self, who: dict[str, Any], token: str, path: str, body: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], list[Stmt], list[Stmt]]:
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


async def deal(p: Process, table: Chat) -> tuple[list[Stmt], list[Stmt]]:
    """The GM's «Дальше»: (statements before the HTTP answer, statements after it)."""
    body = {"command": "deal", "seq": table.seq}
    answer, inside, after = await p.miniapp(table.gm, table.token, "encounter", body)
    table.seq = answer["encounter"]["seq"]
    return inside, after


async def bare_update(fake: FakeTelegram, tracer: Tracer) -> list[Stmt]:
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
    target: int | None  # statements of the step's own transaction, which is its only one
    issue: str  # what the issue measured when it was opened (every statement of a step)


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


def each(values: list[int]) -> str:
    return " ".join(map(str, values))


def print_parts(parts: list[Parts], web: bool) -> None:
    """The step's own transaction, the rest of its task, and what ran beside it."""
    own = [len(q.own) for q in parts]
    print(
        f"  the step's own transaction (BEGIN … COMMIT): median {statistics.median(own):g}"
        f" statements (each step: {each(own)}), of them the journal rows of its chat calls: "
        f"{each([q.journal_rows for q in parts])}; transactions of the step's task: "
        f"{each([q.task_transactions for q in parts])}"
    )
    answer = " (the page's answer, read after the commit)" if web else ""
    print(
        f"  the rest of its task: before its BEGIN {each([len(q.before) for q in parts])};"
        f" after its COMMIT {each([len(q.after) for q in parts])}{answer}"
    )
    other: Counter[str] = Counter()
    for q in parts:
        other.update(q.other)
    others = ", ".join(f"{name} {n}" for name, n in other.most_common())
    print(
        f"  beside it, in other tasks: the inbox row's INSERT and DELETE "
        f"{each([len(q.inbox) for q in parts])} (each in autocommit; the DELETE shared by the "
        f"updates handled within 50 ms); the sent calls forgotten "
        f"{each([len(q.forgetting) for q in parts])} (one transaction shared by every call "
        f"taken within 50 ms); other work {each([sum(q.other.values()) for q in parts])}"
        + (f" (the row's steps together: {others})" if others else "")
    )


def report(row: Row, runs: list[list[Stmt]], answered: list[int] | None = None) -> str:
    """Print one row's figures; returns its summary line."""
    counts = [count(r) for r in runs]
    parts = [split(r) for r in runs]
    statements = [c.statements for c in counts]
    tx = [c.transactions for c in counts]
    median, median_tx = statistics.median(statements), statistics.median(tx)
    own = [len(q.own) for q in parts]
    own_tx = [q.task_transactions for q in parts]
    median_own, median_own_tx = statistics.median(own), statistics.median(own_tx)
    goal = ""
    if row.target is not None:  # the median step's own transaction, and nothing else
        ok = median_own <= row.target and median_own_tx <= 1
        verdict = "OK" if ok else "OVER"
        goal = f"target: own transaction <= {row.target} statements, the only one: {verdict}"
    print(f"\n{row.label}   {goal}")
    if any(statements):
        print_parts(parts, answered is not None)
    control = statistics.median(c.control for c in counts)
    print(
        f"  in all: median {median:g} statements (each step: {each(statements)}); BEGIN/COMMIT"
        f" among them: {control:g}"
    )
    if answered is not None:
        print(
            f"  of them before the HTTP answer: {each(answered)} (the chat hooks start inside"
            " the request and run beside it)"
        )
    blocks = each([c.blocks for c in counts])
    writes = each([c.autocommit_writes for c in counts])
    reads = each([c.reads_outside for c in counts])
    print(
        f"  transactions in all: median {median_tx:g} (BEGIN…COMMIT: {blocks}; autocommit"
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
        print("  the last step, statement by statement (the task that ran it):")
        for n, (sql, task) in enumerate(runs[-1], 1):
            print(f"  {n:4}  {task:<36}  {shape(sql)}")
    rest = statistics.median(q.task for q in parts)
    beside = statistics.median(q.beside for q in parts)
    issue = f"   (the issue measured {row.issue}, every statement)" if row.issue else ""
    return (
        f"  {row.label:<56} {median_own:4g} {rest:+3g} {beside:+4g}   {median:4g} / "
        f"{median_tx:g}   {goal or '(no target)'}{issue}"
    )


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
        print(
            "\nsummary: median statements per step: the step's own transaction, the rest of"
            " its task (before its BEGIN, after its COMMIT), beside it in other tasks (the"
            " inbox row, the sent calls forgotten, other work); in all / transactions in all;"
            " the target, judged on the step's own transaction"
        )
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
