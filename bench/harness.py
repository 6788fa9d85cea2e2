"""What bench/sql_steps.py and bench/pipeline.py share: the tests' fake Bot API served on
127.0.0.1 with the arrival time of every call, Telegram updates as Telegram sends them, and a
webhook sender. Nothing here knows the service's internals: updates go in through the
webhook route, answers come out as Bot API calls.
"""

from __future__ import annotations

import asyncio
import itertools
import socket
import sys
import time
from collections import Counter, defaultdict, deque
from collections.abc import Awaitable, Callable
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


@dataclass
class Expect:
    """One update in flight: done once `calls` Bot API calls arrived for its lane; `sent`
    is set when its POST starts."""

    calls: int
    sent: float = 0.0
    arrived: list[float] = field(default_factory=list)
    done: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def first(self) -> float:
        return self.arrived[0] - self.sent

    @property
    def last(self) -> float:
        return self.arrived[-1] - self.sent


class FakeTelegram:
    """The tests' FakeBotAPI plus the arrival time of each call (taken when the request comes
    in, before its body is read) and the lane it belongs to: every chat id (a group, or the
    private chat of a user) is mapped to a lane, and a lane's calls go to its oldest update
    in flight (FIFO)."""

    def __init__(self) -> None:
        self.api = FakeBotAPI()
        self.lane_of: dict[int, int] = {}
        self.lanes: dict[int, deque[Expect]] = defaultdict(deque)
        self.count = 0  # every call, whoever made it
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

    def expect(self, lane: int, calls: int) -> Expect:
        item = Expect(calls)
        self.lanes[lane].append(item)
        return item

    def forget(self) -> None:
        """Drop whatever is still in flight (after a timed-out burst)."""
        self.lanes.clear()

    @web.middleware
    async def _arrival(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        at = time.perf_counter()
        response = await handler(request)
        self.count += 1
        if request.content_type == "application/json":  # already read by the handler
            params = await request.json()
        else:
            params = await request.post()  # (and cached)
        try:
            chat = int(str(params.get("chat_id")))
        except ValueError:
            return response
        lane = self.lane_of.get(chat, -1)
        self.per_lane[lane] += 1
        queue = self.lanes.get(lane)
        if not queue:  # set-up, warm-up, or late after a burst
            return response
        head = queue[0]
        head.arrived.append(at)
        if len(head.arrived) >= head.calls:
            queue.popleft()
            head.done.set()
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
