"""What bench/sql_steps.py and bench/pipeline.py share: the tests' fake Bot API served on
127.0.0.1 with the arrival time of every call, Telegram updates as Telegram sends them, and a
webhook sender. Nothing here knows the service's internals: updates go in through the
webhook route, answers come out as Bot API calls.
"""

from __future__ import annotations

import asyncio
import bisect
import itertools
import socket
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp
from aiohttp import web

from tests.support.fake_botapi import BOT_TOKEN as BOT_TOKEN  # the token the fake accepts
from tests.support.fake_botapi import FakeBotAPI

HOST = "127.0.0.1"
WEBHOOK_SECRET = "bench-webhook-secret"
PUBLIC_URL = "https://kosti.bench.invalid"  # never contacted: only a name for links
WEBHOOK_PATH = "/telegram/webhook"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


async def until(predicate: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


async def quiet(probe: Callable[[], object], window: float, timeout: float, what: str) -> None:
    """Wait until `probe()` has not changed for `window` seconds."""
    deadline = time.monotonic() + timeout
    seen, since = probe(), time.monotonic()
    while True:
        await asyncio.sleep(0.01)
        now, value = time.monotonic(), probe()
        if value != seen:
            seen, since = value, now
        elif now - since >= window:
            return
        if now > deadline:
            raise TimeoutError(f"{what} did not go quiet")


# A Bot API call as the matching knows it: (method, chat id, the edited message's id — None
# for a call that edits nothing). The bot's outgoing queue (one per chat, first in first out)
# replaces an edit still waiting by a newer edit of the same message (the later text wins):
# the two calls with one key of an edit method may arrive as one.
Key = tuple[str, int, int | None]


def is_edit(method: str) -> bool:
    return method.startswith("editMessage")


def call_key(method: str, params: Mapping[str, Any]) -> Key | None:
    """The call's key; None for a call that names no chat."""
    try:
        chat = int(str(params.get("chat_id")))
    except ValueError:
        return None
    if not is_edit(method):
        return (method, chat, None)
    try:
        return (method, chat, int(str(params.get("message_id"))))
    except ValueError:
        return (method, chat, None)


@dataclass
class Expect:
    """One update in flight, waiting for the calls of `keys` (in the order its handler makes
    them); `sent` is set when its POST starts. Done once every one arrived, or, for an edit,
    was merged into an earlier edit of the same message (`merged`; `merged_at`: when that
    one arrived)."""

    keys: tuple[Key, ...]
    sent: float = 0.0
    arrived: list[float] = field(default_factory=list)
    merged_at: list[float] = field(default_factory=list)
    left: int = 0  # calls still expected
    new_left: int = 0  # of them, the calls that edit nothing (never merged)
    done: asyncio.Event = field(default_factory=asyncio.Event)

    def __post_init__(self) -> None:
        self.left = len(self.keys)
        self.new_left = sum(1 for key in self.keys if not is_edit(key[0]))

    @property
    def merged(self) -> int:
        return len(self.merged_at)

    @property
    def first(self) -> float:
        """POST to the first call that answered it (a merged edit carries its text too)."""
        return min(self.arrived + self.merged_at) - self.sent

    @property
    def last(self) -> float:
        return max(self.arrived + self.merged_at) - self.sent

    def fill(self, n: int, at: float, merged: bool = False) -> None:
        """Its call `n` arrived at `at` (or was merged into the edit that arrived then)."""
        (self.merged_at if merged else self.arrived).append(at)
        self.left -= 1
        self.new_left -= not is_edit(self.keys[n][0])
        if self.left == 0:
            self.done.set()


Entry = tuple[Expect, int]  # an update in flight and one of its expected calls (an index)


class FakeTelegram:
    """The tests' FakeBotAPI plus the arrival time of each call (taken when the request comes
    in, before its body is read), the number of calls of each lane (every chat id, a group or
    the private chat of a user, is mapped to a lane), and the calls matched to the updates in
    flight (`expect`).

    Matching follows the bot's outgoing queues: a chat's calls are made one at a time in the
    order they were queued, and the updates of a chat are handled in the order they came. So
    each chat has a stream of expected calls, the updates' keys in the order they were
    posted, and a call that arrives takes the first expected call of its key in its chat's
    stream. An edit that is passed over — a later call of its chat arrived first — was merged
    into an edit of the same message still waiting when it was queued: that edit was ahead of
    every call of its update, so it is the last edit of that message that arrived after the
    update's POST and before the update's first call of its own; it carries the update's text
    (or a later one). Only where no such edit arrived does the update stay waiting (and count
    as lost). The last update of a stream has no later call to pass its edit over:
    `settle_merged` resolves it once the calls stopped, if its other calls all arrived."""

    def __init__(self) -> None:
        self.api = FakeBotAPI()
        self.lane_of: dict[int, int] = {}
        self.streams: dict[int, list[Entry]] = defaultdict(list)  # per chat
        self.edits: dict[Key, list[float]] = defaultdict(list)  # arrivals, in order
        self.count = 0  # every call, whoever made it
        self.last_call = 0.0  # when the latest call arrived
        self.per_lane: Counter[int] = Counter()
        self._runner: web.AppRunner | None = None

    @property
    def base_url(self) -> str:
        return self.api.base_url

    async def start(self) -> None:
        app = self.api.app()
        app.middlewares.append(self._arrival)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        port = free_port()
        await web.TCPSite(self._runner, HOST, port).start()
        self.api.base_url = f"http://{HOST}:{port}"

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def expect(self, keys: tuple[Key, ...]) -> Expect:
        """An update about to be posted, waiting for the calls of `keys`."""
        item = Expect(keys)
        for n, key in enumerate(keys):
            self.streams[key[1]].append((item, n))
        return item

    def forget(self) -> None:
        """Drop whatever is still in flight (after a timed-out burst)."""
        self.streams.clear()
        self.edits.clear()

    def settle_merged(self) -> int:
        """With no call on its way: every edit still expected of an update whose other calls
        all arrived (its handler ran) and which saw the edit it was merged into counts as
        merged; how many."""
        settled, now = 0, time.perf_counter()
        for stream in self.streams.values():
            for entry in [e for e in stream if is_edit(e[0].keys[e[1]][0])]:
                if entry[0].new_left == 0:
                    settled += self._merge_expected(stream, entry, now)
        return settled

    def _merge_expected(self, stream: list[Entry], entry: Entry, now: float) -> int:
        item, n = entry
        if not item.sent:
            return 0
        before = min(item.arrived, default=now)
        times = self.edits.get(item.keys[n], [])
        into = [t for t in times[bisect.bisect_right(times, item.sent) :] if t < before]
        if not into:
            return 0
        stream.remove(entry)
        item.fill(n, into[-1], merged=True)
        return 1

    def _match_expected(self, key: Key, at: float) -> None:
        if is_edit(key[0]):
            bisect.insort(self.edits[key], at)
        stream = self.streams.get(key[1], [])
        found = next((i for i, (item, n) in enumerate(stream) if item.keys[n] == key), None)
        if found is None:  # set-up, warm-up, or late after a burst
            return
        if not 0 < stream[found][0].sent < at:  # the first such call expected is not posted yet
            return
        passed = [e for e in stream[:found] if is_edit(e[0].keys[e[1]][0])]
        item, n = stream.pop(found)
        item.fill(n, at)
        if not is_edit(key[0]):  # the edits it passed over were merged, if anything
            for entry in passed:
                self._merge_expected(stream, entry, at)

    @web.middleware
    async def _arrival(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        at = time.perf_counter()
        response = await handler(request)
        self.count += 1
        self.last_call = max(self.last_call, at)
        if request.content_type == "application/json":  # already read by the handler
            params = await request.json()
        else:
            params = await request.post()  # (and cached)
        key = call_key(request.match_info.get("method", ""), params)
        if key is None:
            return response
        self.per_lane[self.lane_of.get(key[1], -1)] += 1
        self._match_expected(key, at)
        return response


# The fight every game of the benches runs: a player's Wild Card, an NPC Wild Card and a group
# of two Extras (three combatants), set up by chat commands as a table would.
ICHIGO = (
    "Ичиго (Дикий) Ловкость d8, Смекалка d6, Дух d8, Сила d10, Выносливость d8; "
    "Драка d10, Атлетика d8; Защита 7, Стойкость 8 (2); Бенни 3; Черты: Хладнокровие"
)
GRIMMJOW = (
    "Гриммджо (Дикий) Ловкость d10, Смекалка d6, Дух d8, Сила d12, Выносливость d10; "
    "Драка d12, Атлетика d10; Защита 8, Стойкость 9 (1); Бенни 0"
)
HOLLOW = "Пустой (Статист) Дух d4, Сила d8; Драка d6; Защита 5, Стойкость 7"
GAME_WITH_FIGHT = (  # (by the GM?, text), in the game's group
    (True, "/newgame savage Бенчмарк"),
    (False, "/join"),
    (False, "/char " + ICHIGO),
    (True, "/char " + HOLLOW),
    (True, "/fight"),
    (True, "/add Ичиго"),
    (True, "/add " + GRIMMJOW),
    (True, "/add Пустой ×2"),
)
CHASE = (  # the chase that follows the fight
    "/chase",
    "/chase add Ичиго беглецы 5",
    "/chase add Гриммджо преследователи 2",
    "/chase add Пустой преследователи 1",
)


def user(uid: int, name: str) -> dict[str, Any]:
    return {"id": uid, "is_bot": False, "first_name": name, "language_code": "ru"}


def group(chat_id: int, title: str) -> dict[str, Any]:
    return {"id": chat_id, "type": "supergroup", "title": title}


def private(who: dict[str, Any]) -> dict[str, Any]:
    return {"id": who["id"], "type": "private", "first_name": who["first_name"]}


class Updates:
    """Message updates with fresh update and message ids, a bot_command entity for '/...'."""

    def __init__(self, first_id: int = 1) -> None:
        self._ids = itertools.count(first_id)

    def message(self, sender: dict[str, Any], chat: dict[str, Any], text: str) -> dict[str, Any]:
        update_id = next(self._ids)
        message: dict[str, Any] = {
            "message_id": update_id,
            "date": int(time.time()),
            "chat": chat,
            "from": sender,
            "text": text,
        }
        if text.startswith("/"):
            length = len(text.split(maxsplit=1)[0])
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": length}]
        return {"update_id": update_id, "message": message}


class Webhook:
    """POSTs updates to a bot's webhook route, as Telegram does (with the secret header)."""

    def __init__(self, http: aiohttp.ClientSession, url: str, secret: str = WEBHOOK_SECRET):
        self.http, self.url = http, url
        self.headers = {"X-Telegram-Bot-Api-Secret-Token": secret}

    async def post(self, update: dict[str, Any]) -> None:
        async with self.http.post(self.url, json=update, headers=self.headers) as response:
            if response.status != 200:
                raise RuntimeError(f"webhook answered {response.status}: {await response.text()}")
            await response.read()
