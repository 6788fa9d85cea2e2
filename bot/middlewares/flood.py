"""Outgoing flood control: Telegram's limits kept before a call is made, not learnt from 429s.

Telegram allows a bot about 30 messages a second in all and 20 a minute in one group. Every
call that posts, edits or deletes a chat's messages waits in that chat's queue and is made in
the order it was queued, one at a time per chat, once the windows allow it: the bot's window
(`per_second`) for all of them, the chat's window (`group_per_minute`) for new messages in a
group or channel (edits are not part of Telegram's published per-group limit; a 429 on one is
still honoured by the retry inside). Nothing is dropped, except that an edit of a message
still waiting behind others is replaced by a newer edit of the same message: only the latest
text is sent, and both callers get its answer. Other calls (answering a button, reading a
member) are not queued. The windows are this process's, or with several workers shared in
Redis (bot/middlewares/flood_limits.py); the order is kept per chat within a worker.

aiogram has no outgoing limiter of its own (only the session's middleware hook), so this is
kept here."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
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

from bot.middlewares.flood_limits import Limits, LocalLimits, Spec

if TYPE_CHECKING:
    from aiogram import Bot


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


@dataclass
class ChatQueue:
    calls: deque[Call] = field(default_factory=deque)
    worker: asyncio.Task[None] | None = None


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
    ) -> None:
        self.per_second = per_second
        self.group_per_minute, self.group_window = group_per_minute, group_window
        self.limits: Limits = limits or LocalLimits()
        self.chats: dict[int | str, ChatQueue] = {}  # the chats with calls waiting
        self._tickets = itertools.count()  # one per call let go, to settle its windows
        self._flushing = asyncio.Event()

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        key = queue_key(method)
        if key is None:
            return await make_request(bot, method)
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
        else:
            chat.calls.append(Call(make_request, bot, method, [waiter]))
        if chat.worker is None or chat.worker.done():
            chat.worker = asyncio.create_task(self._drain(key, chat))
        # A cancelled caller (a handler cut off) does not take its message back: the queue
        # still sends it, and its failure, if any, is not reported as never retrieved.
        waiter.add_done_callback(_retrieved)
        return await asyncio.shield(waiter)

    async def _drain(self, key: int | str, chat: ChatQueue) -> None:
        while chat.calls:
            call = chat.calls[0]
            specs, ticket = self._specs(key, call.method), str(next(self._tickets))
            await self._allow(specs, ticket)
            chat.calls.popleft()  # from here on, a newer edit queues anew
            try:
                result = await call.make_request(call.bot, call.method)
            except BaseException as error:  # the callers get the failure, the queue goes on
                for waiter in call.waiters:
                    if not waiter.done():
                        waiter.set_exception(error)
            else:
                for waiter in call.waiters:
                    if not waiter.done():
                        waiter.set_result(result)
            finally:  # it arrived by now, if at all: it counts from its answer
                await self.limits.settle(specs, ticket)
        if self.chats.get(key) is chat and not chat.calls:
            del self.chats[key]

    def _specs(self, key: int | str, method: TelegramMethod[Any]) -> list[Spec]:
        specs: list[Spec] = []
        if self.per_second > 0:
            specs.append(("bot", self.per_second, 1.0))
        if self.group_per_minute > 0 and is_new_message(method) and is_group(key):
            specs.append((f"chat:{key}", self.group_per_minute, self.group_window))
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

    async def close(self) -> None:
        await self.limits.close()
