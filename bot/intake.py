"""How updates reach the dispatcher: stored first, then handled chat by chat.

Every update from the webhook or long polling is written to the inbox
(engine/services/inbox.py) before Telegram is told we have it, then put in its chat's lane.
`slots` updates are handled at once in all, at most `PER_CHAT` of one chat: the lanes take
turns, so a group that sends a hundred commands holds `PER_CHAT` slots and every other chat
is answered at once. A chat's updates start in the order they came.

An update whose handling found the database out of reach is handled again, after a pause
that grows to `RETRY_MAX_S`, until it goes through or the process stops (its row stays in
the inbox for the next start): a command sent during an outage is applied once the database
is back, never answered with silence. Any other failure is the error middleware's to tell.

At most `queued` updates wait in the lanes; beyond that the webhook answers 503 and long
polling reads no further (Telegram keeps them)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextvars import ContextVar
from datetime import timedelta

from aiogram import Bot, Dispatcher
from aiogram.exceptions import TelegramConflictError
from aiogram.methods import GetUpdates
from aiogram.types import Update
from aiogram.types.update import UpdateTypeLookupError
from pydantic import ValidationError

from engine.services.inbox import Inbox, Received
from engine.store.db import database_unreachable

log = logging.getLogger("kosti.intake")

PER_CHAT = 2  # updates of one chat handled at once
QUEUED_PER_SLOT = 100  # updates waiting in the lanes, per slot, before the webhook says 503
RETRY_MAX_S = 10.0
POLL_TIMEOUT_S = 30

_retrying: ContextVar[bool] = ContextVar("kosti_update_retried", default=False)
_taken_over: ContextVar[bool] = ContextVar("kosti_update_taken_over", default=False)


def retried_on_outage() -> bool:
    """Whether the update being handled is handled again if the database is out of reach
    (the error middleware then lets the failure through instead of answering it)."""
    return _retrying.get()


def taken_over() -> bool:
    """Whether the update being handled is one a stopped worker left (or the last run): the
    mark that worker left in Redis ("in hand") must not make it skipped — the database's
    claim still keeps its step from being applied twice."""
    return _taken_over.get()


@contextlib.contextmanager
def retrying(*, taken: bool = False) -> Iterator[None]:
    tokens = _retrying.set(True), _taken_over.set(taken)
    try:
        yield
    finally:
        _taken_over.reset(tokens[1])
        _retrying.reset(tokens[0])


class Malformed(ValueError):
    """A webhook body that is no update."""


def lane_of(update: Update) -> str:
    """The chat whose lane an update waits in (its sender's for what has no chat)."""
    try:
        event = update.event
    except UpdateTypeLookupError:  # a kind this aiogram does not know: its own lane
        return "other"
    chat = getattr(event, "chat", None)
    if chat is None:
        message = getattr(event, "message", None)  # a button under a message
        chat = getattr(message, "chat", None)
    if chat is not None:
        return f"chat:{chat.id}"
    user = getattr(event, "from_user", None) or getattr(event, "user", None)
    return f"user:{user.id}" if user is not None else "other"


def parse(body: bytes, bot: Bot) -> Update:
    """A webhook body as an update; `Malformed` if it is none."""
    try:
        return Update.model_validate_json(body, context={"bot": bot})
    except (ValidationError, ValueError) as error:
        raise Malformed(str(error)) from None


class Intake:
    def __init__(
        self,
        dispatcher: Dispatcher,
        bot: Bot,
        inbox: Inbox,
        *,
        slots: int,
        per_chat: int = PER_CHAT,
        handle: Callable[[Update], Awaitable[object]] | None = None,
    ) -> None:
        self.dispatcher, self.bot, self.inbox = dispatcher, bot, inbox
        self.slots, self.per_chat = slots, per_chat
        self.queued_max = QUEUED_PER_SLOT * slots
        self._handle = handle or self._feed
        self._lanes: dict[str, deque[Update]] = {}
        self._running: dict[str, int] = {}
        self._turns: deque[str] = deque()  # lanes with an update to start, in turn
        self._active = 0
        self._queued = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._stopping = False
        self._left: set[int] = set()  # taken from a stopped worker or the last run
        self._room = asyncio.Event()
        self._room.set()

    # -- taking updates --------------------------------------------------------------------
    @property
    def full(self) -> bool:
        return self._queued >= self.queued_max

    async def receive(self, updates: Sequence[Update], raw: Sequence[str] | None = None) -> int:
        """Store the updates (as `raw`, their JSON as received, if given), then queue those
        that are new; how many. Raises if the database is out of reach (nothing stored,
        nothing queued)."""
        texts = raw or [u.model_dump_json(exclude_none=True) for u in updates]
        rows = [
            Received(u.update_id, lane_of(u), text) for u, text in zip(updates, texts, strict=True)
        ]
        fresh = {r.update_id for r in await self.inbox.store(rows)}
        for update in updates:
            if update.update_id in fresh:
                self.submit(update)
        return len(fresh)

    async def resume(self, lease: timedelta | None) -> int:
        """Queue what the inbox holds for nobody (a stopped worker's, the last run's)."""
        taken = await self.inbox.claim(lease)
        for row in taken:
            try:
                update = Update.model_validate_json(row.payload, context={"bot": self.bot})
            except ValidationError:
                log.error("stored update %s cannot be read; dropped", row.update_id)
                self.inbox.handled(row.update_id)
                continue
            self._left.add(update.update_id)
            self.submit(update)
        return len(taken)

    async def poll(self, allowed_updates: list[str] | None = None) -> None:
        """Long polling: the next offset is asked for only once a batch is stored."""
        offset: int | None = None
        pause = 1.0
        while not self._stopping:
            await self._room.wait()
            try:
                updates = await self.bot(
                    GetUpdates(
                        offset=offset, timeout=POLL_TIMEOUT_S, allowed_updates=allowed_updates
                    ),
                    request_timeout=POLL_TIMEOUT_S + 30,
                )
            except TelegramConflictError:  # another poller (explained by OnePoller)
                await asyncio.sleep(5)
                continue
            except Exception as error:
                log.warning("could not fetch updates (%s): again in %.0f s", error, pause)
                await asyncio.sleep(pause)
                pause = min(pause * 2, 30.0)
                continue
            pause = 1.0
            if not updates:
                continue
            await self._store_until_done(updates)
            offset = updates[-1].update_id + 1

    async def _store_until_done(self, updates: Sequence[Update]) -> None:
        pause = 0.5
        while True:
            try:
                await self.receive(updates)
                return
            except Exception as error:
                if not database_unreachable(error):
                    log.exception("updates could not be stored; asked for again")
                else:
                    log.warning("the database is out of reach; updates asked for again")
                await asyncio.sleep(pause)
                pause = min(pause * 2, RETRY_MAX_S)

    # -- the lanes -------------------------------------------------------------------------
    def submit(self, update: Update) -> None:
        lane = lane_of(update)
        self._lanes.setdefault(lane, deque()).append(update)
        self._queued += 1
        if self.full:
            self._room.clear()
        self._offer(lane)
        self._pump()

    def _offer(self, lane: str) -> None:
        if (
            self._lanes.get(lane)
            and self._running.get(lane, 0) < self.per_chat
            and lane not in self._turns
        ):
            self._turns.append(lane)

    def _pump(self) -> None:
        while not self._stopping and self._active < self.slots and self._turns:
            lane = self._turns.popleft()
            waiting = self._lanes.get(lane)
            if not waiting:
                continue
            update = waiting.popleft()
            self._queued -= 1
            if not self.full:
                self._room.set()
            self._running[lane] = self._running.get(lane, 0) + 1
            self._active += 1
            self._offer(lane)  # to the back of the turns: the other chats go first
            task = asyncio.create_task(self._run(lane, update))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _run(self, lane: str, update: Update) -> None:
        try:
            await self._until_stored(update)
        finally:
            self._active -= 1
            self._running[lane] -= 1
            if not self._running[lane]:
                del self._running[lane]
                if not self._lanes.get(lane):
                    self._lanes.pop(lane, None)
            self._offer(lane)
            self._pump()

    async def _until_stored(self, update: Update) -> None:
        pause = 0.5
        taken = update.update_id in self._left
        while True:
            try:
                with retrying(taken=taken):
                    await self._handle(update)
            except Exception as error:
                if database_unreachable(error) and not self._stopping:
                    log.warning(
                        "update %s: the database is out of reach, handled again in %.1f s",
                        update.update_id,
                        pause,
                    )
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, RETRY_MAX_S)
                    continue
                if database_unreachable(error):
                    return  # stopping: its row is the next start's
                log.exception("update %s failed", update.update_id)
            self._left.discard(update.update_id)
            self.inbox.handled(update.update_id)
            return

    async def _feed(self, update: Update) -> object:
        return await self.dispatcher.feed_update(self.bot, update)

    # -- stopping --------------------------------------------------------------------------
    async def drain(self, timeout: float) -> int:
        """Shutting down: handle what waits in the lanes for at most `timeout` seconds, then
        start nothing more (what still waits is the next start's); how many updates are
        still waiting or under way."""
        deadline = asyncio.get_running_loop().time() + timeout
        while (self._queued or self._tasks) and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        self.stop()
        return self._queued + len(self._tasks)

    def stop(self) -> None:
        """No more updates start; those under way finish (the runner waits for them)."""
        self._stopping = True
        self._room.set()

    @property
    def queued(self) -> int:
        return self._queued

    @property
    def active(self) -> int:
        return self._active
