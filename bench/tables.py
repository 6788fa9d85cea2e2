"""Load model: N tables playing at once on one process, against Telegram's limits.

Run: ``uv run python bench/tables.py [--tables 25 50 100 150 175 200] [--seconds 30] [--quick]
[--calls] [--workers N [--postgres URL]]`` (``--quick``: 25 and 50 tables, 8 s each, under
~60 s in all).

``--workers N`` (bench/tables_workers.py, which describes it and holds its figures): the same
load on N worker processes sharing PostgreSQL (``--postgres``, else KOSTI_TEST_POSTGRES_URL,
else a throwaway cluster) and a throwaway Redis, the POSTs spread over their webhooks in turn;
the same line per level (CPU, RSS and the queues added up over the workers), then one with
each worker's CPU per update. Without it, as follows.

The server is the real process (``python -m bot`` in webhook mode, a child process, a fresh
SQLite file in a temporary folder, default settings; only METRICS_TOKEN is set, so that its
``/metrics`` can be scraped). Each table is a group with a GM and three players (all have
/start-ed the bot) in a Savage Worlds game with a fight of three combatants under way
(bench/harness.py's GAME_WITH_FIGHT). The set-up is made by a first process with the outgoing
limits lifted (as bench/pipeline.py runs it), which is then stopped; the measured process is
a second one, started on the same file with the default limits, so the set-up's thousands of
calls do not take minutes at 30 a second.

Load: Poisson arrivals, one action every 10 s on average per table (N/10 a second in all,
each at a table drawn at random): half a player's ``/r 2к6+1``, a tenth a player's
``/hr d20``, a fifth the GM's ``/next`` (a fight step), a fifth a press of the board's
«▶️ Дальше» button (a callback query carrying the board's latest button data), each POSTed to
the webhook as Telegram would. Each level runs ``--seconds`` with the first N tables; the
queues are let drain between levels.

Telegram's limits: the tests' fake Bot API has no limits of its own (it answers a 429 only
when told to), so the fake here is wrapped (``Limits``): every call that posts, edits or
deletes a chat's message counts in the bot's window — at most 30 in any second — and a new
message in a group also in that group's — at most 20 in any minute; a call past either is
answered 429 with ``retry_after`` (whole seconds, as Telegram gives it), and is not counted
as made.

Printed per N:

- updates/s handled (updates whose first call came, over the level's seconds);
- p50 and p99 from the POST to the FIRST outgoing call for the update, and each kind's p99.
  The first call is matched to its update exactly where the call names it: a group reply
  names the message it answers (``reply_parameters``: ``/r``, ``/next``), a callback answer
  the query (``answerCallbackQuery``: the button); a hidden roll's first call is its first
  private copy (to the player or the GM), matched to the table's oldest ``/hr`` waiting;
- out of order: of consecutive updates in POST order whose first call waits for the windows
  (all but the button's) and posted 50 ms apart or more, the share whose first calls came
  in the other order (about 0 % where the windows are granted first come, first served);
- the process's CPU over the level (utime + stime from /proc, % of one core);
- RSS per table: VmRSS after the level less VmRSS of the measured process when started (it
  held no table yet), divided by N;
- the queues: ``kosti_queued`` from ``/metrics`` scraped every second — chat calls waiting
  for Telegram's windows (mean and max, and the wait the max implies were they served first
  come, first served at 30 a second) and updates waiting in the chats' lanes (max);
- calls per step: Bot API calls made over updates handled, all of them and those the 30/s
  window counts; 429s received;
- the ceiling those imply: 30 calls/s ÷ limited calls per step ÷ 0.1 actions per table per
  second — how many tables one bot serves before its window is full.
- the machine's load average (1 minute) at the level's end; with ``--calls`` a second line:
  the calls per update by method, and the group edits that left their message as it was
  (Telegram would refuse them as "not modified").

Measured
--------
2026-12-03, the shared 2-core VM, loaded by other sessions' jobs (the load average moved
between 1.5 and 8 during these runs; a level's p99 can jump with a neighbour's burst).
Columns: tables, updates/s, p50 and p99 ms to the first call (p99 by kind), out of order,
CPU (% of one core), RSS per table, chat calls queued mean/max (the max ÷ 30/s), lanes max,
calls per step all/limited, 429s, ceiling (tables).

``--quick`` (load 1.9)::

       25   2.4   7    16  (r 16 hr 10 next 9 button 11)     0.0 %  3 %  25 kB  0.0/0     0
            1.84/1.58  0  190
       50   6.0   6    12  (r 11 hr 9 next 11 button 12)     0.0 %  5 %  41 kB  0.0/0     0
            2.10/1.73  0  173

``--tables 25 50 100 150 175 200 --seconds 30`` (load 1.6 at the start; set-up of 200
tables 24 s)::

       25   2.0   6    17  (r 17 hr 10 next 11 button 12)    0.0 %  2 %  55 kB  0.0/0  (0 ms)
            1.74/1.52  0  197
       50   5.5   6    20  (r 15 hr 21 next 11 button 19)    0.0 %  4 %  71 kB  0.0/0  (0 ms)
            1.92/1.60  0  188
      100   9.9   7    27  (r 55 hr 19 next 17 button 22)    0.0 %  9 %  51 kB  0.1/2  (67 ms)
            1.79/1.56  0  192
      150  15.5  10   414  (r 490 hr 91 next 427 button 36)  6.4 % 15 %  45 kB  1.4/9  (300 ms)
            1.83/1.57  0  192
      175  18.4  19  1743  (r 1887 hr 188 next 2229 button 31)  16.2 % 15 %  44 kB  5.0/17
            (567 ms)  1.77/1.54  0  195
      200  21.1 308  8405  (r 8705 hr 390 next 7089 button 28)  43.8 % 16 %  48 kB  45.8/93
            (3100 ms)  1.80/1.56  0  193

An earlier full run the same evening (load 6–8) gave the same shape: p99 345 ms at 150
tables, 1.7 s at 175, 4.2 s at 200, CPU 12–20 %.

Reading: Telegram's 30 calls a second is the binding limit, not CPU (16 % of one core at 200
tables). A step makes 1.8 calls, 1.55 of them counted by the 30/s window (``/r`` one post,
``/hr`` three, ``/next`` and the button a post and the board's edit), so one bot serves
about 190 tables; the p99 passes 1 s between 150 and 175 tables (79–92 % of that ceiling).
The bot's own windows keep it under the limits: no 429 came. The slow first calls are the
group's (``/r``, ``/next``); a hidden roll's first call (a private copy) and a button's
(``answerCallbackQuery``, not queued) stay fast. The windows are not granted first come,
first served: a chat's calls go out one at a time behind that chat's earlier ones (the
previous step's board edit), and a full window is not a queue — every waiting chat sleeps
until the same freed place and whichever wakes first takes it (``_allow`` in
bot/middlewares/flood_queue.py) — so up to 44 % of updates are overtaken by later ones and the
p99 is 3 times the wait the queue's length implies (1.7 s against 0.57 s at 175 tables).

Since the bot-wide window is granted first come, first served (bot/middlewares/flood_queue.py,
``_allow``), the same evening, before (the commit before it) and after, one run each,
``--tables 150 175 200 --seconds 20``, load 1.0–1.2::

    before  150  15.5  10   483  (r 553 hr 103 next 483 button 27)    7.2 %
            175  19.1  36  1750  (r 1960 hr 170 next 1750 button 39)  26.3 %
            200  20.9 228  5632  (r 5868 hr 498 next 5383 button 27)  40.8 %
    after   150  15.5  11   343  (r 348 hr 273 next 398 button 33)    0.0 %
            175  19.1 102   784  (r 784 hr 543 next 1258 button 22)   3.2 %
            200  20.9 691  1645  (r 1804 hr 1115 next 2719 button 24)  6.1 %

The p99 at 175 tables (90 % of the ceiling) is under 1 s now; the median rises, as the
waits are shared out evenly. What is still out of order is a group's own windows (20 a
minute, one a second), which a chat's calls wait for one after the other.

Then (issue 29, item 2) the bot's line is ordered by when a call was queued, not by when it
got to the window — a call that waited for its group's windows, or behind its chat's
earlier calls, no longer goes behind the calls that came meanwhile (``_in_turn``) — and an
NPC's turn that a tap only passed to posts nothing: the board, edited, shows it
(bot/systems/savage/combat/tell.py), which takes a fight step from two calls to one for
about 4 in 9 presses of «Дальше». 2026-12-04, before (main) and after, alternately in one
sitting, ``--tables 175 180 185 --seconds 20 --calls``; the load average (1 minute, at the
level's end) moved between 2.8 and 12.5 with the other sessions' jobs, and decides the
p99 more than the change does (before, run 2: a stall at load 12 held 235 calls)::

    run       tables  p50 ms  p99 ms  out of order  queued mean/max  calls/step (30/s) ceiling  load
    before 1   175     138     953    3.3 %          6.6/20          1.55               194      5.1
               180     120     884    3.7 %          7.0/21          1.53               196      5.3
               185      37     601    0.0 %          4.1/20          1.62               185      5.1
    after 1    175     123    1403    6.7 %         10.2/36          1.46               205      3.8
               180      35     684    0.7 %          3.3/19          1.40               215      3.5
               185     996    2604    5.7 %         32.3/60          1.51               199      5.1
    before 2   175     266    9358    9.2 %         12.5/76          1.53               196     11.8
               180    6001   19378   28.3 %        135.2/235         1.38               217     12.5
               185     158     807    0.7 %          8.7/26          1.61               186     11.5
    after 2    175      17     562    2.6 %          3.2/11          1.46               205      5.1
               180      14     544    0.8 %          2.5/14          1.40               214      3.7
               185      12     581    0.0 %          2.2/16          1.53               195      2.8

Calls per step (the 30/s window's) fall from 1.54 to 1.46 on average over these levels
(``sendMessage`` 1.18 → 1.09 an update; edits the same, none of them unchanged): the
ceiling rises from about 195 to about 205 tables. The arrivals are the same in every run
(seeded by the level); the steps' cards are not, hence the spread between runs. The p99
to the first call is under 1 s at 175–185 tables (85–90 % of the new ceiling) in the
quieter after-run (load 2.8–5.1) and in before-run 1; at a load of 5 and more a level
can stall either code for seconds (after 1 at 185, before 2 at 175–180), so this sitting
shows no p99 difference the load does not swamp. What the change guarantees is tested
(tests/bot/middlewares/test_flood.py, the group's call that waited keeps its place).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import math
import os
import random
import re
import sys
import tempfile
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp
from aiohttp import web

from bench.harness import (
    GAME_WITH_FIGHT,
    HOST,
    FakeTelegram,
    Updates,
    Webhook,
    group,
    private,
    quiet,
    until,
    user,
)
from bench.pipeline import Server, kosti_server, percentile

ACTIONS_PER_TABLE_S = 0.1  # one action every 10 s
BOT_PER_SECOND = 30  # Telegram: about 30 messages a second per bot
GROUP_PER_MINUTE = 20  # and 20 a minute per group
MIX = (("r", 0.5), ("hr", 0.1), ("next", 0.2), ("button", 0.2))
PLAYERS = 3
METRICS_TOKEN = "bench-metrics"
NEXT_BUTTON = "▶️ Дальше"
QUICK_TABLES, QUICK_SECONDS = (25, 50), 8.0
OVERTAKE_S = 0.05  # an update posted this much later that is answered first overtook

# Calls that change a chat's messages (the bot's window); of those, new messages (a group's).
POSTS = frozenset(
    {"sendMessage", "sendPhoto", "sendDocument", "copyMessage", "forwardMessage", "sendPoll"}
)
CHANGES = POSTS | {
    "editMessageText",
    "editMessageReplyMarkup",
    "editMessageCaption",
    "deleteMessage",
    "deleteMessages",
    "pinChatMessage",
    "unpinChatMessage",
}


# -- Telegram's limits on the fake --------------------------------------------------------


class Limits:
    """Sliding windows over the calls made: the bot's second and each group's minute. `on`
    off during the set-up."""

    def __init__(self) -> None:
        self.on = False
        self.bot: deque[float] = deque()
        self.groups: dict[int, deque[float]] = {}

    def retry_after(self, method: str, chat: int | None, now: float) -> int:
        """0 if the call may be made now (and it is counted), else Telegram's retry_after."""
        if not self.on or method not in CHANGES:
            return 0
        window = _trim(self.bot, now - 1.0)
        if len(window) >= BOT_PER_SECOND:
            return 1
        in_group = method in POSTS and chat is not None and chat < 0
        minute = _trim(self.groups.setdefault(chat or 0, deque()), now - 60.0)
        if in_group and len(minute) >= GROUP_PER_MINUTE:
            return max(1, math.ceil(minute[0] + 60.0 - now))
        window.append(now)
        if in_group:
            minute.append(now)
        return 0


def _trim(window: deque[float], before: float) -> deque[float]:
    while window and window[0] <= before:
        window.popleft()
    return window


def too_many(retry_after: int) -> web.Response:
    body = {
        "ok": False,
        "error_code": 429,
        "description": f"Too Many Requests: retry after {retry_after}",
        "parameters": {"retry_after": retry_after},
    }
    return web.json_response(body, status=429)


# -- matching calls to updates ------------------------------------------------------------


@dataclass
class Sent:
    update_id: int
    kind: str
    table: int
    sent: float
    first: float | None = None
    worker: int = 0  # which server's webhook got the POST (0 with one server)


@dataclass
class Tally:
    """What one level saw: its updates by id, the calls made, the 429s."""

    sent: dict[int, Sent] = field(default_factory=dict)
    hidden: dict[int, deque[Sent]] = field(default_factory=dict)  # per table, /hr waiting
    calls: Counter[str] = field(default_factory=Counter)  # method -> made
    refused: int = 0
    lost_posts: int = 0  # webhook POSTs not answered 200
    unchanged: int = 0  # edits that left their message as it was (Telegram: "not modified")

    def add(self, item: Sent) -> None:
        self.sent[item.update_id] = item
        if item.kind == "hr":
            self.hidden.setdefault(item.table, deque()).append(item)

    def first_call(self, item: Sent | None, at: float) -> None:
        if item is not None and item.first is None:
            item.first = at


class LimitedTelegram(FakeTelegram):
    """The harness's fake (and its per-chat call counts) behind Telegram's limits, noting for
    each update when its first call came."""

    def __init__(self) -> None:
        super().__init__()
        self.limits = Limits()
        self.tally = Tally()
        self.table_of: dict[int, int] = {}  # private chat id -> table
        self.by_query: dict[str, int] = {}  # callback query id -> update id
        plain = self.api.app

        def app() -> web.Application:  # the limits outermost: a refused call is not counted
            application = plain()
            application.middlewares.insert(0, self._limited)
            return application

        self.api.app = app  # type: ignore[method-assign]

    @web.middleware
    async def _limited(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        at = time.perf_counter()
        method = request.match_info.get("method", "")
        params = await _params(request)
        chat = _int(params.get("chat_id"))
        if wait := self.limits.retry_after(method, chat, at):
            self.tally.refused += 1
            return too_many(wait)
        response = await handler(request)
        if response.status == 200:
            self.tally.calls[method] += 1
            self._match(method, params, chat, at)
        return response

    def _match(self, method: str, params: dict[str, Any], chat: int | None, at: float) -> None:
        tally = self.tally
        if method == "answerCallbackQuery":
            update_id = self.by_query.get(str(params.get("callback_query_id")))
            tally.first_call(tally.sent.get(update_id or 0), at)
        elif isinstance(reply := params.get("reply_parameters"), dict):
            tally.first_call(tally.sent.get(_int(reply.get("message_id")) or 0), at)
        elif chat is not None and chat > 0 and method in POSTS:
            waiting = tally.hidden.get(self.table_of.get(chat, -1))
            if waiting:
                tally.first_call(waiting.popleft(), at)


async def _params(request: web.Request) -> dict[str, Any]:
    with contextlib.suppress(ValueError):
        if request.content_type == "application/json":
            return dict(await request.json())  # the body is kept for the handler
        return dict(await request.post())
    return {}


def _int(value: Any) -> int | None:
    try:
        return int(str(value))
    except ValueError:
        return None


# -- the tables ---------------------------------------------------------------------------


@dataclass
class Table:
    index: int
    chat: dict[str, Any]
    gm: dict[str, Any]
    players: list[dict[str, Any]]
    board: int = 0  # the board's message id, and its latest «Дальше» button
    next_data: str = ""


class Tables:
    """The tables' set-up (the pipeline bench's game with a fight, and two more players who
    /start the bot and /join) and their updates."""

    def __init__(self, fake: LimitedTelegram, http: aiohttp.ClientSession, count: int):
        self.fake, self.http = fake, http
        self.tables = [_table(i) for i in range(count)]
        self.updates = Updates(1)
        self.seen = 0  # the fake's calls read for the boards so far
        self.shown: dict[tuple[int, int], str] = {}  # (chat, message) -> its text and markup
        for table in self.tables:
            for who in (table.gm, *table.players):
                fake.table_of[who["id"]] = table.index

    async def set_up(self, url: str) -> None:
        """Every table's commands posted one after the other (a chat's updates are handled in
        the order they came), all tables at once; then wait until every fight dealt its first
        round and the bot went quiet."""
        hook = Webhook(self.http, url)

        async def one(table: Table) -> None:
            for text, who, chat in set_up_script(table):
                await hook.post(self.updates.message(who, chat, text))

        await asyncio.gather(*(one(t) for t in self.tables))
        chats = {t.chat["id"] for t in self.tables}

        def dealt() -> set[int]:
            calls = self.fake.api.calls
            return {c.chat_id or 0 for c in calls if "раунд 1" in c.text.lower()} & chats

        await until(lambda: len(dealt()) == len(chats), 60 + len(chats), "the first rounds")
        await quiet(lambda: self.fake.api.mark(), 1.0, 120, "the set-up")

    def follow_boards(self) -> None:
        """Each table's board (the message with the «Дальше» button): its id and latest data,
        from the calls made since the last look."""
        by_chat = {t.chat["id"]: t for t in self.tables}
        calls, self.seen = self.fake.api.since(self.seen), self.fake.api.mark()
        for call in calls:
            self._note_shown(call)
            table = by_chat.get(call.chat_id or 0)
            button = next((b for b in call.buttons() if b.get("text") == NEXT_BUTTON), None)
            if table is None or button is None:
                continue
            if call.method == "editMessageText":
                table.board = int(call.params["message_id"])
            elif isinstance(call.result, dict):
                table.board = int(call.result["message_id"])
            table.next_data = str(button["callback_data"])

    def _note_shown(self, call: Any) -> None:
        """What each message of the groups shows, and the edits that changed nothing."""
        if call.result is None or call.chat_id is None or call.chat_id > 0:
            return
        shown = json.dumps([call.text, call.reply_markup], sort_keys=True, ensure_ascii=False)
        if call.method == "editMessageText":
            key = (call.chat_id, int(call.params["message_id"]))
            if self.shown.get(key) == shown:
                self.fake.tally.unchanged += 1
        elif call.method == "sendMessage" and isinstance(call.result, dict):
            key = (call.chat_id, int(call.result["message_id"]))
        else:
            return
        self.shown[key] = shown

    def update(self, table: Table, kind: str, rng: random.Random) -> dict[str, Any]:
        player = rng.choice(table.players)
        if kind == "r":
            return self.updates.message(player, table.chat, "/r 2к6+1")
        if kind == "hr":
            return self.updates.message(player, table.chat, "/hr d20")
        if kind == "next":
            return self.updates.message(table.gm, table.chat, "/next")
        return self.press(table)

    def press(self, table: Table) -> dict[str, Any]:
        """The GM's press of the board's «Дальше» button, as Telegram sends it."""
        update_id = self.updates.message(table.gm, table.chat, "")["update_id"]  # its id
        query_id = f"q{update_id}"
        self.fake.by_query[query_id] = update_id
        board = {
            "message_id": table.board,
            "date": int(time.time()),
            "chat": table.chat,
            "from": {"id": 700000001, "is_bot": True, "first_name": "Kosti"},
            "text": "⚔️",
        }
        query = {
            "id": query_id,
            "from": table.gm,
            "chat_instance": str(table.chat["id"]),
            "message": board,
            "data": table.next_data,
        }
        return {"update_id": update_id, "callback_query": query}


def set_up_script(table: Table) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(text, sender, chat): everyone /starts the bot, the game with its fight (the harness's
    GAME_WITH_FIGHT), the other players /join, the GM deals the first round."""
    script = [("/start", who, private(who)) for who in (table.gm, *table.players)]
    for by_gm, text in GAME_WITH_FIGHT:
        script.append((text, table.gm if by_gm else table.players[0], table.chat))
    script += [("/join", player, table.chat) for player in table.players[1:]]
    return [*script, ("/next", table.gm, table.chat)]


def _table(i: int) -> Table:
    players = [user(20_000 + PLAYERS * i + p, f"Игрок {p + 1}") for p in range(PLAYERS)]
    chat = group(-1004000000 - i, f"Стол {i}")
    return Table(i, chat, user(10_000 + i, f"Мастер {i}"), players)


def pick_kind(rng: random.Random) -> str:
    roll, total = rng.random(), 0.0
    for kind, share in MIX:
        total += share
        if roll < total:
            return kind
    return MIX[-1][0]


# -- one level ----------------------------------------------------------------------------


@dataclass
class Level:
    tables: int
    seconds: float
    tally: Tally
    cpu: float | None  # % of one core, the servers' together
    rss_per_table_kb: float | None  # the servers' together
    chat_calls: list[float]
    lanes_max: float
    load: float  # the machine's 1-minute load average at the level's end
    wall: float = 0.0  # the level's length, s
    cpu_seconds: list[float | None] = field(default_factory=list)  # each server's, over it
    metered: dict[str, float | None] = field(default_factory=dict)  # CPU s, by the meter's name


async def play(tables: Tables, servers: list[Server], count: int, seconds: float) -> Tally:
    """Post Poisson arrivals at `count` tables for `seconds`; the POSTs run concurrently, to
    the servers' webhooks in turn (as a reverse proxy spreads them)."""
    fake, hooks = tables.fake, [Webhook(tables.http, s.webhook_url) for s in servers]
    tally = fake.tally = Tally()
    rng, rate = random.Random(count), count * ACTIONS_PER_TABLE_S
    posts: list[asyncio.Task[None]] = []

    async def post(update: dict[str, Any], hook: Webhook) -> None:
        try:
            await hook.post(update)
        except (RuntimeError, aiohttp.ClientError):
            tally.lost_posts += 1

    start = at = time.perf_counter()
    while (at := at + rng.expovariate(rate)) < start + seconds:
        await asyncio.sleep(max(0.0, at - time.perf_counter()))
        table, kind = tables.tables[rng.randrange(count)], pick_kind(rng)
        tables.follow_boards()
        update = tables.update(table, kind, rng)
        worker = len(posts) % len(hooks)
        tally.add(Sent(update["update_id"], kind, table.index, time.perf_counter(), None, worker))
        posts.append(asyncio.create_task(post(update, hooks[worker])))
    await asyncio.gather(*posts)
    return tally


async def queued(http: aiohttp.ClientSession, server: Server) -> dict[str, float]:
    """kosti_queued{queue=...} from the server's /metrics."""
    url = f"http://{HOST}:{server.port}/metrics"
    headers = {"Authorization": f"Bearer {METRICS_TOKEN}"}
    async with http.get(url, headers=headers) as response:
        text = await response.text()
    found = re.findall(r'^kosti_queued\{queue="(\w+)"\} (\S+)$', text, re.MULTILINE)
    return {name: float(value) for name, value in found}


def vm_rss_kb(server: Server) -> int | None:
    try:
        status = Path(f"/proc/{server.proc.pid}/status").read_text()  # type: ignore[union-attr]
    except (OSError, AttributeError):
        return None
    found = re.search(r"VmRSS:\s+(\d+) kB", status)
    return int(found.group(1)) if found else None


Meters = dict[str, Callable[[], float | None]]  # CPU seconds so far of something, by name


def _sum(values: list[float | None]) -> float | None:
    return None if any(v is None for v in values) else sum(v or 0.0 for v in values)


async def level(
    tables: Tables,
    servers: list[Server],
    count: int,
    seconds: float,
    empty_rss: list[int | None],
    meters: Meters | None = None,
) -> Level:
    """One level on the servers (one, or the workers, whose CPU, RSS and queues are added
    up; each server's CPU seconds kept too, and those of any other `meters`)."""
    meters = meters or {}
    samples: list[dict[str, float]] = []

    async def scrape() -> None:
        while True:
            await asyncio.sleep(1.0)
            with contextlib.suppress(aiohttp.ClientError):
                found = [await queued(tables.http, server) for server in servers]
                samples.append(dict(sum((Counter(f) for f in found), Counter())))

    cpu0, wall0 = [s.cpu_seconds() for s in servers], time.perf_counter()
    metered0 = {name: read() for name, read in meters.items()}
    scraper = asyncio.create_task(scrape())
    tally = await play(tables, servers, count, seconds)
    wall, cpu1 = time.perf_counter() - wall0, [s.cpu_seconds() for s in servers]
    metered = {name: _less(read(), metered0[name]) for name, read in meters.items()}
    scraper.cancel()
    rss = _sum([_float(vm_rss_kb(s)) for s in servers])
    # Let the queues drain (late first calls still count) before the next level.
    await quiet(lambda: tables.fake.api.mark(), 2.0, 300, "the queues")
    tables.follow_boards()  # the level's last calls: its unchanged edits
    used = [_less(b, a) for a, b in zip(cpu0, cpu1, strict=True)]
    cpu, empty = _sum(used), _sum([_float(r) for r in empty_rss])
    return Level(
        tables=count,
        seconds=seconds,
        tally=tally,
        cpu=None if cpu is None else 100 * cpu / wall,
        rss_per_table_kb=None if rss is None or empty is None else (rss - empty) / count,
        chat_calls=[s.get("chat_calls", 0.0) for s in samples],
        lanes_max=max((s.get("lanes", 0.0) for s in samples), default=0.0),
        load=os.getloadavg()[0],
        wall=wall,
        cpu_seconds=used,
        metered=metered,
    )


def _float(value: int | None) -> float | None:
    return None if value is None else float(value)


def _less(after: float | None, before: float | None) -> float | None:
    return None if after is None or before is None else after - before


# -- report -------------------------------------------------------------------------------


def out_of_order(items: list[Sent]) -> float:
    """Of consecutive updates in POST order whose first call waits for the windows (not a
    button's, whose answer is not queued) and whose POSTs are OVERTAKE_S apart or more (so
    that handling two at once does not count), the share whose first calls came the other
    way round."""
    queued = (i for i in items if i.kind != "button" and i.first is not None)
    answered = sorted(queued, key=lambda i: i.sent)
    pairs = [(a, b) for a, b in itertools.pairwise(answered) if b.sent - a.sent >= OVERTAKE_S]
    swapped = sum(1 for a, b in pairs if (b.first or 0) < (a.first or 0))
    return 100 * swapped / max(1, len(pairs))


def report(result: Level) -> str:
    items = list(result.tally.sent.values())
    answered = [i for i in items if i.first is not None]
    if not answered:
        return f"{result.tables:>5}  no answers"
    ms = {i.update_id: 1000 * ((i.first or 0) - i.sent) for i in answered}
    every = list(ms.values())
    by_kind = " ".join(
        f"{kind} {percentile([ms[i.update_id] for i in answered if i.kind == kind], 99):.0f}"
        for kind, _ in MIX
        if any(i.kind == kind for i in answered)
    )
    calls = result.tally.calls
    limited = sum(n for method, n in calls.items() if method in CHANGES)
    per_step, per_step_limited = sum(calls.values()) / len(answered), limited / len(answered)
    ceiling = BOT_PER_SECOND / per_step_limited / ACTIONS_PER_TABLE_S if limited else math.inf
    waiting = result.chat_calls or [0.0]
    fifo_ms = 1000 * max(waiting) / BOT_PER_SECOND  # the longest wait the queue implies
    cpu = "n/a" if result.cpu is None else f"{result.cpu:.0f} %"
    rss = "n/a" if result.rss_per_table_kb is None else f"{result.rss_per_table_kb:.0f} kB"
    unanswered = len(items) - len(answered)
    return (
        f"{result.tables:>5} {len(answered) / result.seconds:7.1f} "
        f"{percentile(every, 50):7.0f} {percentile(every, 99):7.0f}  ({by_kind})"
        f"  {out_of_order(items):5.1f} % {cpu:>6} {rss:>8}"
        f"  {sum(waiting) / len(waiting):5.1f}/{max(waiting):4.0f} ({fifo_ms:5.0f} ms)"
        f" {result.lanes_max:4.0f}"
        f"  {per_step:4.2f}/{per_step_limited:4.2f} {result.tally.refused:5}  {ceiling:5.0f}"
        f"  {result.load:4.1f}"
        + (f"  [{unanswered} unanswered: {_named(items)}]" if unanswered else "")
        + (f"  [{result.tally.lost_posts} POSTs refused]" if result.tally.lost_posts else "")
    )


def _named(items: list[Sent]) -> str:
    """The unanswered updates, so that a run can be followed into the logs: update id, kind,
    table and (with workers) the worker whose webhook got it."""
    return ", ".join(
        f"{i.update_id} {i.kind} table {i.table} worker {i.worker}"
        for i in items
        if i.first is None
    )


HEADER = (
    "tables  upd/s  p50 ms  p99 ms  (p99 by kind)  out of order  CPU  RSS/table"
    "  chat calls queued mean/max (max ÷ 30/s), lanes max  calls/step all/limited  429s"
    "  ceiling  load"
)


async def start(server: Server, http: aiohttp.ClientSession, tries: int = 3) -> None:
    """Start the server, again if it did not answer within the pipeline bench's minute (on
    the shared machine under a load of 10 a start took longer); stopped if it never did."""
    for attempt in range(tries):
        try:
            await server.start(http)
            return
        except RuntimeError:
            await server.stop()
            if attempt == tries - 1:
                raise
            print(f"{server.name} did not start within a minute: started again", flush=True)


def calls_made(result: Level) -> str:
    """The calls made per update handled, by method (``--calls``)."""
    answered = max(1, sum(1 for i in result.tally.sent.values() if i.first is not None))
    made = sorted(result.tally.calls.items(), key=lambda kv: -kv[1])
    unchanged = f"  (unchanged edits {result.tally.unchanged / answered:.2f})"
    return "        " + "  ".join(f"{method} {n / answered:.2f}" for method, n in made) + unchanged


async def main(counts: list[int], seconds: float, by_method: bool = False) -> None:
    with tempfile.TemporaryDirectory(prefix="kosti-tables-") as folder:
        fake = LimitedTelegram()
        await fake.start()
        try:
            async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
                await run(fake, http, Path(folder), counts, seconds, by_method)
        finally:
            await fake.close()


async def run(
    fake: LimitedTelegram,
    http: aiohttp.ClientSession,
    folder: Path,
    counts: list[int],
    seconds: float,
    by_method: bool = False,
) -> None:
    tables = await set_up(fake, http, kosti_server(folder, fake.base_url), max(counts))
    server = kosti_server(folder, fake.base_url)
    await measure(tables, [measured(server)], counts, seconds, by_method)


async def set_up(
    fake: LimitedTelegram, http: aiohttp.ClientSession, setup: Server, count: int
) -> Tables:
    """The tables set up by `setup` (a server with the outgoing limits lifted, as
    bench/pipeline.py runs it), which is then stopped."""
    tables = Tables(fake, http, count)
    started = time.perf_counter()
    await start(setup, http)
    try:
        await until(lambda: any(c.method == "setWebhook" for c in fake.api.calls), 30, "kosti")
        await tables.set_up(setup.webhook_url)
    finally:
        await setup.stop()
    print(f"set up {len(tables.tables)} tables in {time.perf_counter() - started:.0f} s")
    return tables


def measured(server: Server) -> Server:
    """The server with the default limits (Telegram's, kept by the bot) and /metrics on."""
    for name in ("FLOOD_PER_SECOND", "FLOOD_GROUP_PER_MINUTE"):
        server.env.pop(name)
    server.env["METRICS_TOKEN"] = METRICS_TOKEN
    return server


async def measure(
    tables: Tables,
    servers: list[Server],
    counts: list[int],
    seconds: float,
    by_method: bool = False,
    per_worker: Callable[[Level], str] | None = None,
    meters: Meters | None = None,
) -> None:
    """Start the servers (one after the other), then each level against them; stopped at
    the end. `per_worker`: a line more after each level's; `meters`: read over each level."""
    fake, http = tables.fake, tables.http
    mark = fake.api.mark()
    try:
        for server in servers:
            await start(server, http)

        def hooked() -> bool:
            return len(fake.api.since(mark, "setWebhook")) >= len(servers)

        await until(hooked, 30, "kosti")
        await asyncio.sleep(1.0)
        empty_rss = [vm_rss_kb(server) for server in servers]
        tables.follow_boards()
        fake.limits.on = True
        load = "/".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"load average {load} ({os.cpu_count()} CPUs); {seconds:g} s per level")
        print(HEADER)
        for count in counts:
            result = await level(tables, servers, count, seconds, empty_rss, meters)
            print(report(result), flush=True)
            if by_method:
                print(calls_made(result), flush=True)
            if per_worker is not None:
                print(per_worker(result), flush=True)
    finally:
        for server in servers:
            await server.stop()


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[25, 50, 100, 150, 175, 200])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--quick", action="store_true", help="25 and 50 tables, 8 s each")
    parser.add_argument("--calls", action="store_true", help="calls per update by method")
    parser.add_argument("--workers", type=int, help="N workers on PostgreSQL and Redis")
    parser.add_argument(
        "--postgres", help="with --workers: a PostgreSQL URL (its schema is dropped!)"
    )
    args = parser.parse_args()
    if args.postgres and args.workers is None:
        parser.error("--postgres goes with --workers")
    if args.workers is not None and args.workers < 1:
        parser.error("--workers: 1 or more")
    if args.quick:
        args.tables, args.seconds = list(QUICK_TABLES), QUICK_SECONDS
    return args


if __name__ == "__main__":
    args = arguments()
    counts = sorted(args.tables)
    if args.workers is None:
        asyncio.run(main(counts, args.seconds, args.calls))
    else:
        from bench.tables_workers import main as on_workers

        postgres = args.postgres or os.environ.get("KOSTI_TEST_POSTGRES_URL")
        asyncio.run(on_workers(counts, args.seconds, args.calls, args.workers, postgres))
