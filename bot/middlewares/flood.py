"""Outgoing flood control: Telegram's limits kept before a call is made, not learnt from 429s.

Telegram allows a bot about 30 messages a second in all and 20 a minute in one group, and
asks for about one a second in a chat. Every call that posts, edits or deletes a chat's
messages waits in that chat's queue and is made in the order it was queued, one at a time per
chat, once the windows allow it: the bot's window (`per_second`) for all of them, the chat's
windows for new messages in a group or channel — `group_per_minute` a minute, and at most
`PACE_BURST` within `PACE_BURST` seconds (a steady one a second, short bursts allowed: `pace`;
off in the playground, whose Bot API is in memory and whose demo lays its tables out at
once). Edits
are not part of Telegram's published per-group limit. Other calls (answering a button, reading
a member) are not queued.

Nothing is dropped. A 429 (`retry_after`, however long, however many in a row) or a Bot API out
of reach puts the call back at the head of its chat's queue until it goes through; the log
says so once per call. An edit of a message still waiting behind others is replaced by a newer
edit of the same message: only the latest text is sent, and both callers get its answer. The
windows are this process's, or with several workers shared in Redis
(bot/middlewares/flood_limits.py); the order is kept per chat within a worker.

With a `journal` (engine/services/outgoing.py, set by the runner), every queued call is
written to the database before it is queued and forgotten once Telegram accepted it or
refused it for good: a worker killed with calls in its queues leaves them to the next start
or to another worker. Its caller then waits for Telegram's answer at most `answer_wait`
seconds: past that it gets a stand-in answer (below) and goes on, the call staying in its
queue — a handler never holds its update behind a group's minute or a long 429. Calls made
within an outbox delivery are not journaled: the outbox row, undelivered until they are
answered, makes them again.

At shutdown (bot/runner.py) the windows are let go (`flush`); once the shutdown's bound ran
out, the calls still queued or under way are no longer made but kept (`keep`): the runner
stores them (engine/services/outgoing.py) and the next start sends them (`send_kept`) before
it takes updates. Their callers get a stand-in answer (a message numbered 0, or True), so a
handler cut short still queues the rest of what it posts, which is kept too. A call under way
may have reached Telegram: it is sent once more. Calls made within an outbox delivery are not
kept: the outbox row, still undelivered, makes them again.

aiogram has no outgoing limiter of its own (only the session's middleware hook), so this is
kept here."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, get_args

import aiogram.methods
from aiogram.client.default import Default
from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.exceptions import (
    TelegramAPIError,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import (
    CopyMessage,
    CopyMessages,
    DeleteMessage,
    DeleteMessages,
    ForwardMessage,
    ForwardMessages,
    Response,
    SendChatAction,
    TelegramMethod,
)
from aiogram.methods.base import TelegramType
from aiogram.types import Chat, Message
from pydantic_core import PydanticSerializationError, to_jsonable_python

from bot.middlewares.flood_limits import Limits, LocalLimits, Spec
from engine.services.outbox import delivering
from engine.services.outgoing import Journal, Kept

if TYPE_CHECKING:
    from aiogram import Bot

log = logging.getLogger(__name__)

ANSWER_WAIT_S = 5.0  # longest a caller waits for a journaled call's answer
PACE_BURST = 3  # a group's new messages: at most this many within this many seconds
RETRY_MAX_S = 30.0  # the longest pause between tries of a call the Bot API did not take


def is_new_message(method: TelegramMethod[Any]) -> bool:
    name = type(method).__name__
    if isinstance(method, SendChatAction):
        return False
    return name.startswith("Send") or isinstance(
        method, CopyMessage | CopyMessages | ForwardMessage | ForwardMessages
    )


def is_edit(method: TelegramMethod[Any]) -> bool:
    return type(method).__name__.startswith("EditMessage")


def queue_key(method: TelegramMethod[Any]) -> int | str | None:
    """The chat whose queue the call waits in; None: not a call on a chat's messages."""
    if not (
        is_new_message(method)
        or is_edit(method)
        or isinstance(method, DeleteMessage | DeleteMessages)
    ):
        return None
    chat = getattr(method, "chat_id", None)
    if chat is not None:
        return chat
    inline = getattr(method, "inline_message_id", None)
    return f"inline:{inline}" if inline else None


def is_queued(method: TelegramMethod[Any]) -> bool:
    """Whether the call waits in a chat's queue (and is retried there)."""
    return queue_key(method) is not None


def is_group(chat: int | str) -> bool:
    """Groups, supergroups and channels have negative ids (or an @username); an inline
    message's key is none of them."""
    if isinstance(chat, str):
        return not chat.startswith("inline:")
    return chat < 0


def edit_target(method: TelegramMethod[Any]) -> tuple[Any, ...] | None:
    if not is_edit(method):
        return None
    return (
        type(method),
        getattr(method, "chat_id", None),
        getattr(method, "message_id", None),
        getattr(method, "inline_message_id", None),
    )


@dataclass
class Call:
    make_request: NextRequestMiddlewareType[Any]
    bot: Bot
    method: TelegramMethod[Any]
    waiters: list[asyncio.Future[Any]] = field(default_factory=list)
    redelivered: bool = False  # made within an outbox delivery: its row makes it again
    rows: list[int] = field(default_factory=list)  # its journal rows (a replaced edit's too)
    tries: int = 0  # failed tries so far (429, the Bot API out of reach)


@dataclass
class ChatQueue:
    calls: deque[Call] = field(default_factory=deque)
    worker: asyncio.Task[None] | None = None
    current: Call | None = None  # the call under way
    request: asyncio.Future[Any] | None = None  # its request (`keep` cancels it)


class KeptForRestart(Exception):
    """A call kept for the next start whose answer no stand-in can take the place of."""


def _retrieved(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


class FloodControl(BaseRequestMiddleware):
    def __init__(
        self,
        per_second: int = 30,
        group_per_minute: int = 20,
        *,
        group_window: float = 60.0,
        limits: Limits | None = None,
        journal: Journal | None = None,
        answer_wait: float = ANSWER_WAIT_S,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
        pace: bool = True,
    ) -> None:
        self.pace = pace
        self.journal, self.answer_wait, self.sleep = journal, answer_wait, sleep
        self.per_second = per_second
        self.group_per_minute, self.group_window = group_per_minute, group_window
        self.limits: Limits = limits or LocalLimits()
        self.chats: dict[int | str, ChatQueue] = {}  # the chats with calls waiting
        self._tickets = itertools.count()  # one per call let go, to settle its windows
        self._flushing = asyncio.Event()
        self._keeping = False
        self.kept: list[Kept] = []  # what `keep` took, in the order it was queued
        self.left_journaled = 0  # what `keep` took that the journal holds already

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        key = queue_key(method)
        if key is None:
            return await make_request(bot, method)
        if self._keeping and not delivering():
            self._keep(key, Call(make_request, bot, method))
            return stand_in(bot, method)
        redelivered = delivering()
        rows = [] if redelivered else await self._journal(key, bot, method)
        chat = self.chats.get(key)
        if chat is None:
            chat = self.chats[key] = ChatQueue()
        waiter: asyncio.Future[Response[TelegramType]] = asyncio.get_running_loop().create_future()
        target = edit_target(method)
        older = next(
            (c for c in chat.calls if target is not None and edit_target(c.method) == target), None
        )
        if older is not None:  # the newer text replaces the one still waiting
            older.method, older.make_request, older.bot = method, make_request, bot
            older.waiters.append(waiter)
            older.rows += rows
        else:
            chat.calls.append(Call(make_request, bot, method, [waiter], redelivered, rows))
        if chat.worker is None or chat.worker.done():
            chat.worker = asyncio.create_task(self._drain(key, chat))
        # A cancelled caller (a handler cut off) does not take its message back: the queue
        # still sends it, and its failure, if any, is not reported as never retrieved.
        waiter.add_done_callback(_retrieved)
        if not rows:
            return await asyncio.shield(waiter)
        try:
            async with asyncio.timeout(self.answer_wait):  # no task of its own, as wait_for's
                return await asyncio.shield(waiter)
        except TimeoutError:  # durable and still queued: the caller goes on
            try:
                return stand_in(bot, method)  # type: ignore[no-any-return]
            except KeptForRestart:  # no stand-in fits: wait for the real answer
                return await asyncio.shield(waiter)

    async def _journal(self, key: int | str, bot: Bot, method: TelegramMethod[Any]) -> list[int]:
        """The call's journal row, if it has one (none for an upload, or with the database
        out of reach: then only this process holds it, as without a journal)."""
        if self.journal is None:
            return []
        payload = encode(bot, method)
        if payload is None:
            return []
        try:
            return [await self.journal.write(Kept(str(key), type(method).__name__, payload))]
        except Exception as error:
            log.warning("a %s is queued without its journal row: %s", type(method).__name__, error)
            return []

    async def _drain(self, key: int | str, chat: ChatQueue) -> None:
        while chat.calls:
            call = chat.calls[0]
            specs, ticket = self._specs(key, call.method), str(next(self._tickets))
            await self._allow(specs, ticket)
            if not chat.calls or chat.calls[0] is not call:
                continue  # kept meanwhile (`keep`)
            chat.calls.popleft()  # from here on, a newer edit queues anew
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

    def _settle(self, call: Call, outcome: Any) -> None:
        """The call's final answer: its callers get it, its journal rows are forgotten."""
        failed = isinstance(outcome, BaseException)
        # Sent, or refused for good (a cancelled call, cut off by `keep`, is the next start's).
        if self.journal is not None and (not failed or isinstance(outcome, TelegramAPIError)):
            self.journal.sent(call.rows)
        for waiter in call.waiters:
            if waiter.done():
                continue
            if failed:
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

    async def _allow(self, specs: list[Spec], ticket: str) -> None:
        while (
            not self._flushing.is_set() and (wait := await self.limits.acquire(specs, ticket)) > 0
        ):
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._flushing.wait(), wait)

    def flush(self) -> None:
        """Shutting down: what waits for a window goes out now (a 429 is still waited out),
        since a message kept for later would be lost with the process."""
        self._flushing.set()

    def keep(self) -> None:
        """The shutdown's bound ran out: the chat calls queued or under way, and those made
        from now on, are kept (`kept`) instead of made, their callers answered by stand-ins.
        Those of an outbox delivery still go out (the module's docstring)."""
        self._flushing.set()
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


def stand_in(bot: Bot, method: TelegramMethod[Any]) -> Any:
    """What a kept call's caller gets instead of Telegram's answer."""
    returning = method.__returning__
    kinds = get_args(returning) or (returning,)
    if bool in kinds:
        return True
    if Message in kinds:
        chat_id = getattr(method, "chat_id", None)
        chat_id = chat_id if isinstance(chat_id, int) else 0
        chat = Chat(id=chat_id, type="private" if chat_id > 0 else "supergroup")
        return Message(message_id=0, date=datetime.now(UTC), chat=chat).as_(bot)
    raise KeptForRestart(type(method).__name__)


def encode(bot: Bot, method: TelegramMethod[Any]) -> dict[str, Any] | None:
    """The call's parameters as JSON, with the bot's defaults (parse mode…) written out;
    None for what JSON cannot hold (an upload)."""

    def resolved(value: Any) -> Any:
        if isinstance(value, Default):
            return bot.default[value.name]
        if isinstance(value, dict):
            return {k: resolved(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [resolved(v) for v in value]
        return value

    data = resolved(method.model_dump(warnings=False, exclude_none=True))
    try:
        return {k: v for k, v in to_jsonable_python(data).items() if v is not None}
    except PydanticSerializationError:
        return None


def decode(call: Kept) -> TelegramMethod[Any]:
    kind = getattr(aiogram.methods, call.method)
    return kind.model_validate(call.payload)


async def send_kept(
    bot: Bot, calls: Iterable[Kept], done: Callable[[Kept], Awaitable[None]]
) -> int:
    """Send the calls a shutdown kept, in order per chat (the chats side by side); `done`
    after each one sent or refused for good. A chat whose call fails otherwise (the Bot API
    unreachable) stops there: its rows stay for the next try. How many were sent."""
    chats: dict[str, list[Kept]] = {}
    for call in calls:
        chats.setdefault(call.chat, []).append(call)
    sent = 0

    async def one_chat(queue: list[Kept]) -> None:
        nonlocal sent
        for call in queue:
            try:
                await bot(decode(call))
            except TelegramAPIError as error:  # refused: sending again would not help
                log.warning("a kept %s was refused: %s", call.method, error)
            except Exception:
                log.exception("a kept %s could not be sent; left for later", call.method)
                return
            else:
                sent += 1
            await done(call)

    await asyncio.gather(*(one_chat(queue) for queue in chats.values()))
    return sent
