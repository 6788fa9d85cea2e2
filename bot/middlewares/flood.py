"""Outgoing flood control: Telegram's limits kept before a call is made, not learnt from 429s.

Telegram allows a bot about 30 messages a second in all and 20 a minute in one group, and
asks for about one a second in a chat. Every call that posts, edits or deletes a chat's
messages waits in that chat's queue and is made in the order it was queued, one at a time per
chat, once the windows allow it: the bot's window (`per_second`) for all of them, the chat's
windows for new messages in a group or channel — `group_per_minute` a minute, and at most
`PACE_BURST` within `PACE_BURST` seconds (a steady one a second, short bursts allowed: `pace`;
off in the playground, whose Bot API is in memory and whose demo lays its tables out at
once). Edits
are not part of Telegram's published per-group limit. A call takes its chat's windows first,
then the bot's, which is granted first come, first served by when the call was queued: a
call that waited for its group's windows, or behind its chat's earlier calls, goes before
the calls that came after it. Other calls (answering a button, reading a member) are not
queued.

Nothing is dropped. A 429 (`retry_after`, however long, however many in a row) or a Bot API out
of reach puts the call back at the head of its chat's queue until it goes through; the log
says so once per call. An edit of a message still waiting behind others is replaced by a newer
edit of the same message: only the latest text is sent, and both callers get its answer. The
windows are this process's, or with several workers shared in Redis
(bot/middlewares/flood_limits.py); the order is kept per chat, and the bot's line, within a
worker (workers sharing a window take its freed places as they ask Redis).

With a `journal` (engine/services/outgoing.py, set by the runner), every queued call is
written to the database before it is queued and forgotten once Telegram accepted it or
refused it for good: a worker killed with calls in its queues leaves them to the next start
or to another worker. A group's call then does not wait at all: its caller gets a
provisional answer at once — a post's message id is its journal row's id, negated — so a
handler journals everything it tells the chat within its step, never holds its update
behind a group's minute or a long 429, and a later call naming the provisional id is sent
with the real one (`_resolve`; across workers and restarts through the journal). A private
chat's call, whose refusal its caller reads (a user who never started the bot), waits for
the answer at most `answer_wait` seconds, then gets a stand-in (below). A caller that must
act on a refusal it no longer waits for says so with `if_refused` (a board edited after
its message was deleted is posted anew). Calls made within an outbox delivery are not
journaled: the outbox row, undelivered until they are answered, makes them again.

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
import contextvars
import heapq
import itertools
import logging
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
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
    TelegramBadRequest,
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
    PinChatMessage,
    Response,
    SendChatAction,
    TelegramMethod,
    UnpinChatMessage,
)
from aiogram.methods.base import TelegramType
from aiogram.types import Chat, Message
from pydantic_core import PydanticSerializationError, to_jsonable_python

from bot.middlewares.flood_limits import Limits, LocalLimits, Spec
from engine.services import outgoing, updates
from engine.services.after_commit import after_commit
from engine.services.outbox import delivering
from engine.services.outgoing import Journal, Kept

if TYPE_CHECKING:
    from aiogram import Bot

log = logging.getLogger(__name__)

ANSWER_WAIT_S = 5.0  # longest a caller waits for a journaled call's answer
PACE_BURST = 3  # a group's new messages: at most this many within this many seconds
RETRY_MAX_S = 30.0  # the longest pause between tries of a call the Bot API did not take
RESOLVE_WAIT_S = 120.0  # longest a call waits for another worker to send the post it names
REAL_IDS_KEPT = 10_000  # posts whose real id this process remembers (older ones: the journal)

Refused = Callable[[TelegramAPIError], Awaitable[None]]
_on_refused: contextvars.ContextVar[Refused | None] = contextvars.ContextVar(
    "on_refused", default=None
)
_kept_row: contextvars.ContextVar[int | None] = contextvars.ContextVar("kept_row", default=None)


@contextlib.asynccontextmanager
async def if_refused(handler: Refused) -> AsyncIterator[None]:
    """A refusal of the chat calls made within is `handler`'s: at once when the caller
    waited for the answer, else once the queue learns it (the caller went on)."""
    token: contextvars.Token[Refused | None] | None = _on_refused.set(handler)
    try:
        yield
    except TelegramAPIError as error:
        _on_refused.reset(token)  # type: ignore[arg-type]
        token = None
        await handler(error)
    finally:
        if token is not None:
            _on_refused.reset(token)


@contextlib.asynccontextmanager
async def step_and_its_chat(bot: Bot) -> AsyncIterator[None]:
    """Around a handler's step and what it tells the chat: one transaction for both — the
    step and its calls' journal rows — and the calls queued once it committed
    (engine.services.updates.step_with_effects). A bot that journals nothing (a test's)
    commits the step on its own, as a call's caller then waits for Telegram's answer.

    Within it, a chat call with a stand-in answer returns at once with it (a post's
    provisional id), a private chat's too: its refusal is an `if_refused` handler's or
    logged. Other calls (an upload, a read such as getChatMember) are made at once, inside
    the transaction: make them before it."""
    if not any(
        isinstance(m, FloodControl) and m.journal is not None for m in bot.session.middleware
    ):
        yield
        return
    async with updates.step_with_effects():
        yield


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
    """The chat whose queue the call waits in; None: not a call on a chat's messages (a pin
    is one: it may name a post still queued)."""
    if not (
        is_new_message(method)
        or is_edit(method)
        or isinstance(method, DeleteMessage | DeleteMessages | PinChatMessage | UnpinChatMessage)
    ):
        return None
    chat: int | str | None = getattr(method, "chat_id", None)
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
        self._arrivals = itertools.count(1)  # one per call queued: the order they came
        self._flushing = asyncio.Event()
        # The calls waiting for the bot-wide window, the earliest to come first (a heap).
        self._line: list[Turn] = []
        self._keeping = False
        self.kept: list[Kept] = []  # what `keep` took, in the order it was queued
        self.left_journaled = 0  # what `keep` took that the journal holds already
        self.real_ids: OrderedDict[int, int] = OrderedDict()  # provisional id -> Telegram's
        self._handlers: set[asyncio.Task[None]] = set()  # refusal handlers under way

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
            kept: Response[TelegramType] = stand_in(bot, method)
            return kept
        redelivered = delivering()
        kept_row = _kept_row.get()
        if updates.holding_effects() and not redelivered and kept_row is None:
            held: Response[TelegramType] | None = await self._held(key, make_request, bot, method)
            if held is not None:
                return held
        if kept_row is not None:  # journaled already: `send_kept` waits for its answer
            rows = [kept_row]
        else:
            rows = [] if redelivered else await self._journal(key, bot, method)
        handler = _on_refused.get()
        # A group's call goes on at once; a private chat's only when its refusal has a
        # handler (else its caller reads the refusal: a user who never started the bot).
        go_on = (
            bool(rows)
            and kept_row is None
            and has_stand_in(method)
            and (is_group(key) or handler is not None)
        )
        call, waiter = self._enqueue(key, Call(make_request, bot, method, [], redelivered, rows))
        if go_on:  # durable: the queue does the waiting
            self._went_on(call, handler)
            provisional: Response[TelegramType] = stand_in(bot, method, provisional_id(rows[0]))
            return provisional
        answer: Response[TelegramType] = await self._answer(
            bot, method, waiter, journaled=bool(rows)
        )
        return answer

    async def _held(
        self, key: int | str, make_request: NextRequestMiddlewareType[Any], bot: Bot, method: Any
    ) -> Any:
        """Within a handler's `step_with_effects`: the call's journal row is written in the
        step's transaction and the call queued once that committed (None: it cannot wait
        for the commit — its caller reads Telegram's answer, or it has no journal row)."""
        if not has_stand_in(method):
            return None
        rows = await self._journal(key, bot, method)
        if not rows:
            return None
        handler = _on_refused.get()

        async def queue() -> None:  # after the commit, in a context without its transaction
            call, _ = self._enqueue(key, Call(make_request, bot, method, [], False, rows))
            self._went_on(call, handler)

        after_commit(queue)
        return stand_in(bot, method, provisional_id(rows[0]))

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

    def _went_on(self, call: Call, handler: Refused | None) -> None:
        """The caller went on with a provisional answer: a refusal is `handler`'s."""
        call.went_on = True
        if handler is not None:
            call.refused.append((handler, contextvars.copy_context()))

    async def _answer(
        self, bot: Bot, method: TelegramMethod[Any], waiter: asyncio.Future[Any], *, journaled: bool
    ) -> Any:
        if not journaled or _kept_row.get() is not None:
            return await asyncio.shield(waiter)
        try:
            async with asyncio.timeout(self.answer_wait):  # no task of its own, as wait_for's
                return await asyncio.shield(waiter)
        except TimeoutError:  # durable and still queued: the caller goes on
            try:
                return stand_in(bot, method)
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
        """Put the real ids in place of the provisional ones the call names (False: one of
        its posts was never sent, and will not be)."""
        refs = provisional_refs(call.method)
        if not refs:
            return True
        real: dict[int, int] = {}
        for ref in refs:
            found = self.real_ids.get(ref)
            if found is None:
                found = await self._real_from_journal(-ref)
            if found is None:
                log.info("%s to chat %s names a post never sent", type(call.method).__name__, key)
                return False
            real[ref] = found
        call.method = with_real_ids(call.method, real)
        return True

    async def _real_from_journal(self, row: int) -> int | None:
        """A post another worker (or the last run) journaled: its id once it was sent."""
        waited = 0.0
        while True:
            try:
                found = await outgoing.real_id(row)
            except Exception as error:  # the database out of reach: as a 5xx, tried again
                log.warning("the post of journal row %s not looked up: %s", row, error)
                found = outgoing.PENDING
            if found != outgoing.PENDING or waited >= RESOLVE_WAIT_S:
                return None if found == outgoing.PENDING else found
            await self.sleep(0.5)
            waited += 0.5

    def _settle(self, call: Call, outcome: Any) -> None:
        """The call's final answer: its callers get it, its journal rows are forgotten."""
        failed = isinstance(outcome, BaseException)
        sent_id = outcome.message_id if isinstance(outcome, Message) else None
        if sent_id is not None:
            for row in call.rows:
                self.real_ids[provisional_id(row)] = sent_id
            while len(self.real_ids) > REAL_IDS_KEPT:
                self.real_ids.popitem(last=False)
        # Sent, or refused for good (a cancelled call, cut off by `keep`, is the next start's).
        if self.journal is not None and (not failed or isinstance(outcome, TelegramAPIError)):
            self.journal.sent(call.rows, sent_id)
        if isinstance(outcome, TelegramAPIError) and call.went_on:
            self._refused(call, outcome)
        for waiter in call.waiters:
            if waiter.done():
                continue
            if failed:
                waiter.set_exception(outcome)
            else:
                waiter.set_result(outcome)

    def _refused(self, call: Call, error: TelegramAPIError) -> None:
        """A refusal its callers no longer wait for: their handlers run, or the log says it."""
        if not call.refused:
            log.info("%s refused after its caller went on: %s", type(call.method).__name__, error)
        for handler, context in call.refused:
            context.run(_on_refused.set, None)  # what the handler sends is its own
            task = asyncio.get_running_loop().create_task(_guarded(handler(error)), context=context)
            self._handlers.add(task)
            task.add_done_callback(self._handlers.discard)

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


class NeverSent(TelegramBadRequest):
    """A call naming a post that was never sent (refused, or lost): it is not made."""

    def __init__(self, method: TelegramMethod[Any]) -> None:
        super().__init__(method, "message to edit not found: its post was never sent")


def _wake(turn: Turn) -> None:
    if not turn.wake.done():
        turn.wake.set_result(None)


async def _guarded(work: Awaitable[None]) -> None:
    try:
        await work
    except Exception:
        log.exception("acting on a refused chat call failed")


def provisional_id(row: int) -> int:
    """The message id a post's caller holds until Telegram gave it one: its row, negated."""
    return -row


def _returns(method: TelegramMethod[Any]) -> tuple[Any, ...]:
    returning = method.__returning__
    return get_args(returning) or (returning,)


def has_stand_in(method: TelegramMethod[Any]) -> bool:
    kinds = _returns(method)
    return bool in kinds or Message in kinds


def stand_in(bot: Bot, method: TelegramMethod[Any], message_id: int = 0) -> Any:
    """What a caller gets instead of Telegram's answer (a kept call's, a provisional one)."""
    kinds = _returns(method)
    if bool in kinds:
        return True
    if Message in kinds:
        chat_id = getattr(method, "chat_id", None)
        chat_id = chat_id if isinstance(chat_id, int) else 0
        chat = Chat(id=chat_id, type="private" if chat_id > 0 else "supergroup")
        return Message(message_id=message_id, date=datetime.now(UTC), chat=chat).as_(bot)
    raise KeptForRestart(type(method).__name__)


def provisional_refs(method: TelegramMethod[Any]) -> list[int]:
    """The provisional message ids the call names (the message it edits, deletes or
    replies to)."""
    ids = [getattr(method, "message_id", None), getattr(method, "reply_to_message_id", None)]
    reply = getattr(method, "reply_parameters", None)
    ids.append(getattr(reply, "message_id", None))
    ids += list(getattr(method, "message_ids", None) or ())
    return [i for i in ids if isinstance(i, int) and i < 0]


def with_real_ids(method: TelegramMethod[Any], real: dict[int, int]) -> TelegramMethod[Any]:
    def swap(value: Any) -> Any:
        return real.get(value, value) if isinstance(value, int) else value

    update: dict[str, Any] = {}
    for name in ("message_id", "reply_to_message_id"):
        if isinstance(getattr(method, name, None), int):
            update[name] = swap(getattr(method, name))
    if isinstance(getattr(method, "message_ids", None), list):
        update["message_ids"] = [swap(i) for i in method.message_ids]  # type: ignore[attr-defined]
    reply = getattr(method, "reply_parameters", None)
    if reply is not None and isinstance(getattr(reply, "message_id", None), int):
        update["reply_parameters"] = reply.model_copy(update={"message_id": swap(reply.message_id)})
    return method.model_copy(update=update)


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
    method: TelegramMethod[Any] = kind.model_validate(call.payload)
    return method


async def send_kept(
    bot: Bot, calls: Iterable[Kept], done: Callable[[Kept, int | None], Awaitable[None]]
) -> int:
    """Send the calls a shutdown kept, in order per chat (the chats side by side); `done`
    after each one sent (with a post's message id) or refused for good. A chat whose call
    fails otherwise (the Bot API unreachable) stops there: its rows stay for the next try.
    How many were sent."""
    chats: dict[str, list[Kept]] = {}
    for call in calls:
        chats.setdefault(call.chat, []).append(call)
    sent = 0

    async def one_chat(queue: list[Kept]) -> None:
        nonlocal sent
        for call in queue:
            message_id = None
            token = _kept_row.set(call.id)  # its row is the journal's: not written again
            try:
                answer = await bot(decode(call))
            except TelegramAPIError as error:  # refused: sending again would not help
                log.warning("a kept %s was refused: %s", call.method, error)
            except Exception:
                log.exception("a kept %s could not be sent; left for later", call.method)
                return
            else:
                sent += 1
                message_id = answer.message_id if isinstance(answer, Message) else None
            finally:
                _kept_row.reset(token)
            await done(call, message_id)

    await asyncio.gather(*(one_chat(queue) for queue in chats.values()))
    return sent
