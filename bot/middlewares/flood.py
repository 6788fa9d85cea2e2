"""Outgoing flood control: Telegram's limits kept before a call is made, not learnt from 429s.

Every call that posts, edits or deletes a chat's messages waits in that chat's queue and is
made in the order it was queued once Telegram's windows allow it; nothing is dropped: a 429 or
a Bot API out of reach puts it back at the head of its queue (bot/middlewares/flood_queue.py).
Which calls those are, what stands in for their answer and their JSON for the journal come
from the call alone (bot/middlewares/flood_calls.py). Other calls (answering a button, reading
a member) are not queued.

With a `journal` (engine/services/outgoing.py, set by the runner), every queued call is
written to the database before it is queued and forgotten once Telegram accepted it or
refused it for good: a worker killed with calls in its queues leaves them to the next start
or to another worker. A group's call then does not wait at all: its caller gets a
provisional answer at once — a post's message id is its journal row's id, negated — so a
handler journals everything it tells the chat within its step, never holds its update
behind a group's minute or a long 429, and a later call naming the provisional id is sent
with the real one (`_resolve`; across workers and restarts through the journal). A private
chat's call, whose refusal its caller reads (a user who never started the bot), waits for
the answer at most `answer_wait` seconds, then gets a stand-in (flood_calls.py `stand_in`). A
caller that must act on a refusal it no longer waits for says so with `if_refused` (a board
edited after its message was deleted is posted anew). Calls made within an outbox delivery
are not journaled: the outbox row, undelivered until they are answered, makes them again.

At shutdown (bot/runner.py) the calls still queued once the shutdown's bound ran out are kept
(flood_queue.py `keep`), and the next start sends them (bot/middlewares/flood_kept.py).

aiogram has no outgoing limiter of its own (only the session's middleware hook), so this is
kept here."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.exceptions import TelegramAPIError
from aiogram.methods import Response, TelegramMethod
from aiogram.methods.base import TelegramType
from aiogram.types import Message

from bot.middlewares.flood_calls import (
    KeptForRestart,
    encode,
    has_stand_in,
    is_group,
    provisional_id,
    provisional_refs,
    queue_key,
    stand_in,
    with_real_ids,
)
from bot.middlewares.flood_kept import sending_kept
from bot.middlewares.flood_limits import Limits
from bot.middlewares.flood_queue import Call, ChatQueues, Refused
from engine.services import outgoing, updates
from engine.services.after_commit import after_commit
from engine.services.outbox import delivering
from engine.services.outgoing import Journal, Kept

if TYPE_CHECKING:
    from aiogram import Bot

log = logging.getLogger(__name__)

ANSWER_WAIT_S = 5.0  # longest a caller waits for a journaled call's answer
RESOLVE_WAIT_S = 120.0  # longest a call waits for another worker to send the post it names
REAL_IDS_KEPT = 10_000  # posts whose real id this process remembers (older ones: the journal)

_on_refused: contextvars.ContextVar[Refused | None] = contextvars.ContextVar(
    "on_refused", default=None
)


@contextlib.asynccontextmanager
async def if_refused(handler: Refused) -> AsyncIterator[None]:
    """A refusal of the chat calls made within is `handler`'s: at once when the caller
    waited for the answer, else once the queue learns it (the caller went on)."""
    token: contextvars.Token[Refused | None] | None = _on_refused.set(handler)
    try:
        yield
    except TelegramAPIError as error:
        _on_refused.reset(token)  # type: ignore[arg-type]  # set above; None only after
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


class FloodControl(ChatQueues, BaseRequestMiddleware):
    """The session's middleware: a chat call journaled, queued and answered (the module's
    docstring); the queues, their windows and retries are `ChatQueues`'."""

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
        super().__init__(
            per_second,
            group_per_minute,
            group_window=group_window,
            limits=limits,
            sleep=sleep,
            pace=pace,
        )
        self.journal, self.answer_wait = journal, answer_wait
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
        kept_row = sending_kept()
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

    def _went_on(self, call: Call, handler: Refused | None) -> None:
        """The caller went on with a provisional answer: a refusal is `handler`'s."""
        call.went_on = True
        if handler is not None:
            call.refused.append((handler, contextvars.copy_context()))

    async def _answer(
        self, bot: Bot, method: TelegramMethod[Any], waiter: asyncio.Future[Any], *, journaled: bool
    ) -> Any:
        if not journaled or sending_kept() is not None:
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
        super()._settle(call, outcome)

    def _refused(self, call: Call, error: TelegramAPIError) -> None:
        """A refusal its callers no longer wait for: their handlers run, or the log says it."""
        if not call.refused:
            log.info("%s refused after its caller went on: %s", type(call.method).__name__, error)
        for handler, context in call.refused:
            context.run(_on_refused.set, None)  # what the handler sends is its own
            task = asyncio.get_running_loop().create_task(_guarded(handler(error)), context=context)
            self._handlers.add(task)
            task.add_done_callback(self._handlers.discard)


async def _guarded(work: Awaitable[None]) -> None:
    try:
        await work
    except Exception:
        log.exception("acting on a refused chat call failed")
