"""The outgoing queues of flood control (bot/middlewares/flood.py): one per chat, under
Telegram's windows, nothing dropped.

Telegram allows a bot about 30 messages a second in all and 20 a minute in one group, and
asks for about one a second in a chat. Every call that posts, edits or deletes a chat's
messages waits in that chat's queue and is made in the order it was queued, one at a time per
chat, once the windows allow it: the bot's window (`per_second`) for all of them, the chat's
windows for new messages in a group or channel — `group_per_minute` a minute, and at most
`PACE_BURST` within `PACE_BURST` seconds (a steady one a second, short bursts allowed: `pace`;
off in the playground, whose Bot API is in memory and whose demo lays its tables out at
once). Edits are not part of Telegram's published per-group limit. A call takes its chat's
windows first, then the bot's, which is granted first come, first served by when the call was
queued: a call that waited for its group's windows, or behind its chat's earlier calls, goes
before the calls that came after it.

Nothing is dropped. A 429 (`retry_after`, however long, however many in a row) or a Bot API out
of reach puts the call back at the head of its chat's queue until it goes through; the log
says so once per call. An edit of a message still waiting behind others is replaced by a newer
edit of the same message: only the latest text is sent, and both callers get its answer. The
windows are this process's, or with several workers shared in Redis
(bot/middlewares/flood_limits.py); the order is kept per chat, and the bot's line, within a
worker (workers sharing a window take its freed places as they ask Redis).

At shutdown (bot/runner.py) the windows are let go (`flush`); once the shutdown's bound ran
out, the calls still queued or under way are no longer made but kept (`keep`): the runner
stores them (engine/services/outgoing.py) and the next start sends them
(bot/middlewares/flood_kept.py) before it takes updates. Their callers get a stand-in answer
(a message numbered 0, or True), so a handler cut short still queues the rest of what it
posts, which is kept too. A call under way may have reached Telegram: it is sent once more.
Calls made within an outbox delivery are not kept: the outbox row, still undelivered, makes
them again.

The middleware (`FloodControl`, bot/middlewares/flood.py) adds the journal: it gives a call its
rows, puts the real ids in place of the provisional ones the call names (`_resolve`) and does
what a final answer means besides reaching its callers (`_settle`: the rows forgotten, a
refusal handed to its handler)."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import heapq
import itertools
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiogram.client.session.middlewares.base import NextRequestMiddlewareType
from aiogram.exceptions import (
    TelegramAPIError,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import TelegramMethod

from bot.middlewares.flood_calls import (
    KeptForRestart,
    NeverSent,
    edit_target,
    encode,
    is_group,
    is_new_message,
    stand_in,
)
from bot.middlewares.flood_limits import Limits, LocalLimits, Spec
from engine.services.outgoing import Kept

if TYPE_CHECKING:
    from aiogram import Bot

log = logging.getLogger("bot.middlewares.flood")  # one log for the outgoing queue's modules

PACE_BURST = 3  # a group's new messages: at most this many within this many seconds
RETRY_MAX_S = 30.0  # the longest pause between tries of a call the Bot API did not take

# A refusal's handler, as `if_refused` (bot/middlewares/flood.py) gives it to a call.
Refused = Callable[[TelegramAPIError], Awaitable[None]]


@dataclass
class Call:
    make_request: NextRequestMiddlewareType[Any]
    bot: Bot
    method: TelegramMethod[Any]
    waiters: list[asyncio.Future[Any]] = field(default_factory=list)
    redelivered: bool = False  # made within an outbox delivery: its row makes it again
    rows: list[int] = field(default_factory=list)  # its journal rows (a replaced edit's too)
    tries: int = 0  # failed tries so far (429, the Bot API out of reach)
    # The refusal handlers of callers that went on before the answer, with their contexts.
    refused: list[tuple[Refused, contextvars.Context]] = field(default_factory=list)
    went_on: bool = False  # a caller went on with a provisional answer
    arrived: int = 0  # its place in the order calls came (the bot-wide line's order)


@dataclass
class ChatQueue:
    calls: deque[Call] = field(default_factory=deque)
    worker: asyncio.Task[None] | None = None
    current: Call | None = None  # the call under way
    request: asyncio.Future[Any] | None = None  # its request (`keep` cancels it)


@dataclass(order=True)
class Turn:
    """A call's place in the line for the bot-wide window: the earliest to come goes first."""

    arrived: int
    wake: asyncio.Future[None] = field(compare=False)


def _retrieved(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


class ChatQueues:
    """Each chat's calls in its own queue, made one at a time under the windows."""

    def __init__(
        self,
        per_second: int,
        group_per_minute: int,
        *,
        group_window: float,
        limits: Limits | None,
        sleep: Callable[[float], Awaitable[Any]],
        pace: bool,
    ) -> None:
        self.pace, self.sleep = pace, sleep
        self.per_second = per_second
        self.group_per_minute, self.group_window = group_per_minute, group_window
        self.limits: Limits = limits or LocalLimits()
        self.chats: dict[int | str, ChatQueue] = {}  # the chats with calls waiting
        self._tickets = itertools.count()  # one per call let go, to settle its windows
        self._arrivals = itertools.count(1)  # one per call queued: the order they came
        self._flushing = asyncio.Event()
        # The calls waiting for the bot-wide window, the earliest to come first (a heap).
        self._line: list[Turn] = []
        self._keeping = False
        self.kept: list[Kept] = []  # what `keep` took, in the order it was queued
        self.left_journaled = 0  # what `keep` took that the journal holds already

    def _enqueue(self, key: int | str, new: Call) -> tuple[Call, asyncio.Future[Any]]:
        """Put the call in its chat's queue (an edit still waiting takes the newer text):
        the call queued (`new` or the edit it joined) and the future of its answer."""
        chat = self.chats.get(key)
        if chat is None:
            chat = self.chats[key] = ChatQueue()
        waiter: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        target = edit_target(new.method)
        older = next(
            (c for c in chat.calls if target is not None and edit_target(c.method) == target), None
        )
        if older is not None:  # the newer text replaces the one still waiting
            older.method, older.make_request, older.bot = new.method, new.make_request, new.bot
            older.waiters.append(waiter)
            older.rows += new.rows
            call = older
        else:
            new.waiters.append(waiter)
            new.arrived = next(self._arrivals)
            call = new
            chat.calls.append(call)
        if chat.worker is None or chat.worker.done():
            chat.worker = asyncio.create_task(self._drain(key, chat))
        # A cancelled caller (a handler cut off) does not take its message back: the queue
        # still sends it, and its failure, if any, is not reported as never retrieved.
        waiter.add_done_callback(_retrieved)
        return call, waiter

    async def _drain(self, key: int | str, chat: ChatQueue) -> None:
        while chat.calls:
            call = chat.calls[0]
            specs, ticket = self._specs(key, call.method), str(next(self._tickets))
            await self._allow(specs, ticket, call.arrived)
            if not chat.calls or chat.calls[0] is not call:
                continue  # kept meanwhile (`keep`)
            chat.calls.popleft()  # from here on, a newer edit queues anew
            if not await self._resolve(key, call):
                await self.limits.settle(specs, ticket)
                self._settle(call, NeverSent(call.method))
                continue
            chat.current = call
            request = chat.request = asyncio.ensure_future(call.make_request(call.bot, call.method))
            pause = None
            try:
                result = await request
            except BaseException as error:  # the callers get the failure, the queue goes on
                pause = self._retry_after(key, call, error)
                if pause is None:
                    self._settle(call, error)
            else:
                self._settle(call, result)
            finally:  # it arrived by now, if at all: it counts from its answer
                chat.current = chat.request = None
                await self.limits.settle(specs, ticket)
            if pause is not None:  # back at the head of its queue, after the pause
                chat.calls.appendleft(call)
                await self.sleep(pause)
        if self.chats.get(key) is chat and not chat.calls:
            del self.chats[key]

    def _retry_after(self, key: int | str, call: Call, error: BaseException) -> float | None:
        """How long to wait before the call's next try; None: its answer is final (sent,
        refused for good, or a failure its callers hear of: an unjournaled call whose Bot API
        is out of reach, as without a journal)."""
        if isinstance(error, TelegramRetryAfter):
            pause = float(error.retry_after)
        elif call.rows and isinstance(
            error, TelegramNetworkError | TelegramServerError | OSError | TimeoutError
        ):
            pause = min(RETRY_MAX_S, 2.0**call.tries)
        else:
            return None
        if call.redelivered and self._keeping:
            return None  # shutting down: its outbox row makes it again
        call.tries += 1
        if call.tries == 1:  # once per call: a flood of 429s is one line, not a traceback
            log.warning(
                "%s to chat %s not taken (%s): tried again in %.0f s, it stays in its queue",
                type(call.method).__name__,
                key,
                error,
                pause,
            )
        return pause

    async def _resolve(self, key: int | str, call: Call) -> bool:
        """Ready the call to be made (False: it is not made, its callers get `NeverSent`)."""
        return True

    def _settle(self, call: Call, outcome: Any) -> None:
        """The call's final answer (a result, or the exception it failed with): its callers
        get it."""
        for waiter in call.waiters:
            if waiter.done():
                continue
            if isinstance(outcome, BaseException):
                waiter.set_exception(outcome)
            else:
                waiter.set_result(outcome)

    def _specs(self, key: int | str, method: TelegramMethod[Any]) -> list[Spec]:
        specs: list[Spec] = []
        if self.per_second > 0:
            specs.append(("bot", self.per_second, 1.0))
        if self.group_per_minute > 0 and is_new_message(method) and is_group(key):
            specs.append((f"chat:{key}", self.group_per_minute, self.group_window))
        if self.pace and self.group_per_minute > 0 and is_new_message(method) and is_group(key):
            # About one a second: a minute's 60ths, or the group's own rate if higher (a Bot
            # API server without limits); a test's short minute scales it down.
            pace = PACE_BURST * self.group_window / max(60, self.group_per_minute)
            specs.append((f"pace:{key}", PACE_BURST, pace))
        return specs

    async def _allow(self, specs: list[Spec], ticket: str, arrived: int) -> None:
        """Wait for a place in every window of the call: its chat's first, then the bot's
        (the chat's place held meanwhile), in the order the calls came (`_in_turn`)."""
        own = [spec for spec in specs if spec[0] != "bot"]
        shared = [spec for spec in specs if spec[0] == "bot"]
        await self._take(own, ticket)
        if shared:
            await self._in_turn(shared, ticket, arrived)

    async def _in_turn(self, specs: list[Spec], ticket: str, arrived: int) -> None:
        """Take the bot-wide window first come, first served: of the calls waiting for it,
        only the one that came first tries (a freed place went to whichever chat woke first,
        bench/tables.py) — by when it was queued, not when it got here, so a call that waited
        for its group's windows, or behind its chat's earlier calls, keeps its place."""
        loop = asyncio.get_running_loop()
        turn = Turn(arrived, loop.create_future())
        heapq.heappush(self._line, turn)
        try:
            while not self._flushing.is_set():
                wait = None  # not first: until the line moves
                if self._line[0] is turn:
                    wait = await self.limits.acquire(specs, ticket)
                    if wait <= 0:
                        return
                turn.wake = loop.create_future()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(turn.wake, wait)
        finally:
            self._line.remove(turn)
            heapq.heapify(self._line)
            if self._line:
                _wake(self._line[0])

    async def _take(self, specs: list[Spec], ticket: str) -> None:
        while (
            specs
            and not self._flushing.is_set()
            and (wait := await self.limits.acquire(specs, ticket)) > 0
        ):
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._flushing.wait(), wait)

    def flush(self) -> None:
        """Shutting down: what waits for a window goes out now (a 429 is still waited out),
        since a message kept for later would be lost with the process."""
        self._flushing.set()
        for turn in self._line:
            _wake(turn)

    async def drained(self, timeout: float) -> int:
        """Wait (at most `timeout` seconds) until every queued call went out; how many are
        still queued then. Handlers do not wait for their group's calls: a shutdown does."""
        deadline = asyncio.get_running_loop().time() + timeout
        while workers := [
            c.worker for c in self.chats.values() if c.worker and not c.worker.done()
        ]:
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                break
            await asyncio.wait(workers, timeout=left)
        return sum(len(c.calls) + (c.current is not None) for c in self.chats.values())

    def keep(self) -> None:
        """The shutdown's bound ran out: the chat calls queued or under way, and those made
        from now on, are kept (`kept`) instead of made, their callers answered by stand-ins.
        Those of an outbox delivery still go out (the module's docstring)."""
        self.flush()
        if self._keeping:
            return
        self._keeping = True
        for key, chat in list(self.chats.items()):
            current = chat.current
            if current is not None and not current.redelivered and chat.request is not None:
                chat.current = None
                self._keep(key, current)  # answered first: the cancelled call tells no one
                chat.request.cancel()  # the worker goes on with what is left
            for call in [c for c in chat.calls if not c.redelivered]:
                chat.calls.remove(call)
                self._keep(key, call)

    def _keep(self, key: int | str, call: Call) -> None:
        if call.rows:
            self.left_journaled += 1  # its rows are the next start's
        elif (payload := encode(call.bot, call.method)) is None:
            log.warning("a %s cannot be kept for the restart", type(call.method).__name__)
        else:
            self.kept.append(Kept(str(key), type(call.method).__name__, payload))
        for waiter in call.waiters:
            if waiter.done():
                continue
            try:
                waiter.set_result(stand_in(call.bot, call.method))
            except KeptForRestart as error:
                waiter.set_exception(error)

    def take_kept(self) -> list[Kept]:
        kept, self.kept = self.kept, []
        return kept

    async def close(self) -> None:
        await self.limits.close()


def _wake(turn: Turn) -> None:
    if not turn.wake.done():
        turn.wake.set_result(None)
