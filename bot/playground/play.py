"""The playground's driver: what a user does in the page becomes an Update fed to the real
dispatcher (``Dispatcher.feed_update``, as the webhook route does); what the bot answers
comes back through the in-memory Bot API (bot/playground/session.py)."""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.types import Update
from aiohttp import web

from bot.playground.botapi import BotApi
from bot.playground.errors import BotApiError
from bot.playground.session import PlaygroundSession
from bot.playground.world import BOT_USERNAME, PlayChat, PlayMessage, World, new_world

log = logging.getLogger(__name__)
BOT_ID = 7000000777
TOKEN_MARKER = "PLAYGROUND-"


def playground_token(bot_id: int = BOT_ID) -> str:
    """A local token of this run: the bot's id, and a secret that never leaves the process
    (initData and start links are signed with it; no Telegram server knows it)."""
    return f"{bot_id}:{TOKEN_MARKER}{secrets.token_urlsafe(24)}"


@dataclass
class Playground:
    token: str = field(default_factory=playground_token)
    world: World = field(init=False)
    botapi: BotApi = field(init=False)
    session: PlaygroundSession = field(init=False)
    bot: Bot | None = None
    dispatcher: Dispatcher | None = None
    url: str = ""  # the page's address once served
    # its page and API (bot/playground/web.py)
    routes: Callable[[web.Application], None] | None = None
    on_started: list[Callable[[], object]] = field(default_factory=list)
    tasks: set[asyncio.Task[object]] = field(default_factory=set)
    demos_laid_out: set[str] = field(default_factory=set)  # the systems' codes
    fed: int = 0  # updates fed to the dispatcher
    _update_ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _callback_ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _pressed_by: dict[str, int] = field(default_factory=dict)  # callback id -> user id

    def __post_init__(self) -> None:
        self.world = new_world(int(self.token.partition(":")[0]))
        self.botapi = BotApi(self.world, on_answer=self._toast)
        self.session = PlaygroundSession(self.botapi)

    async def started(self, bot: Bot, dispatcher: Dispatcher, url: str) -> None:
        """The runner's hook once the web server listens: updates come from the page now."""
        self.bot, self.dispatcher, self.url = bot, dispatcher, url
        for hook in self.on_started:
            hook()

    def spawn(self, work: Coroutine[object, object, object]) -> None:
        """Run `work` beside the page (the demo table); its failure is logged."""
        task = asyncio.create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[object]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("playground task failed", exc_info=task.exception())

    async def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    # -- what users do ---------------------------------------------------------------------
    async def write(
        self,
        user_id: int,
        chat_id: int,
        text: str,
        *,
        thread: int | None = None,
        reply_to: int | None = None,
    ) -> PlayMessage:
        """`user_id` writes `text` in `chat_id` (in a forum topic, as a reply)."""
        user, chat = self.world.users[user_id], self._chat(chat_id)
        if chat.type == "private" and chat.id != user_id:
            raise BotApiError.bad("not this user's chat")
        text = text.strip()[:4096]
        if not text:
            raise BotApiError.bad("message text is empty")
        if chat.type == "private":
            self._start(chat)
        if reply_to is not None and reply_to not in chat.messages:
            reply_to = None
        if chat.is_forum and reply_to is not None:
            thread = chat.messages[reply_to].thread_id
        message = PlayMessage(
            chat.next_id(),
            chat.id,
            user.as_dict(),
            text,
            _command_entities(text),
            thread_id=thread if chat.is_forum and thread in chat.topics else None,
            reply_to=reply_to,
        )
        self.world.add_message(message)
        if self._bot_sees(chat, message):
            await self._feed({"message": self.world.message_dict(message)})
        return message

    async def start(self, user_id: int, param: str | None = None) -> PlayMessage:
        """The user opens the bot's private chat with Start (a `t.me/<bot>?start=` link)."""
        text = "/start" if not param else f"/start {param}"
        return await self.write(user_id, user_id, text)

    async def press(self, user_id: int, chat_id: int, message_id: int, row: int, col: int) -> str:
        """`user_id` presses a callback button; answers the callback query's id."""
        chat = self._chat(chat_id)
        message = chat.messages.get(message_id)
        if message is None or not message.reply_markup:
            raise BotApiError.bad("message not found")
        try:
            button = message.reply_markup["inline_keyboard"][row][col]
        except (IndexError, KeyError):
            raise BotApiError.bad("button not found") from None
        if "callback_data" not in button:
            raise BotApiError.bad("not a callback button")
        query_id = f"{user_id}-{next(self._callback_ids)}"
        self._pressed_by[query_id] = user_id
        query = {
            "id": query_id,
            "from": self.world.users[user_id].as_dict(),
            "chat_instance": f"ci{chat_id}",
            "message": self.world.message_dict(message),
            "data": button["callback_data"],
        }
        await self._feed({"callback_query": query})
        return query_id

    def add_user(self, name: str) -> int:
        return self.world.add_user(name).id

    # -- internals -------------------------------------------------------------------------
    def _chat(self, chat_id: int) -> PlayChat:
        chat = self.world.chats.get(chat_id)
        if chat is None:
            raise BotApiError.bad("chat not found")
        return chat

    def _start(self, chat: PlayChat) -> None:
        if not chat.started:
            chat.started = True
            self.world.emit({"type": "started", "chat": chat.id})

    def _bot_sees(self, chat: PlayChat, message: PlayMessage) -> bool:
        """Privacy mode: in a group where the bot is no administrator it gets only commands,
        mentions and replies to its own messages."""
        if chat.type == "private" or chat.bot_can_delete:
            return True
        replied = chat.messages.get(message.reply_to or 0)
        return (
            message.text.startswith("/")
            or f"@{BOT_USERNAME}" in message.text
            or (replied is not None and replied.sender["id"] == self.world.bot["id"])
        )

    async def _feed(self, payload: dict[str, Any]) -> None:
        if self.bot is None or self.dispatcher is None:
            raise BotApiError(503, "the bot is not running yet")
        update = Update.model_validate(
            {"update_id": next(self._update_ids), **payload}, context={"bot": self.bot}
        )
        self.fed += 1
        try:
            await self.dispatcher.feed_update(self.bot, update)
        except Exception:  # polling logs and goes on; so does the playground
            log.exception("update %s failed", update.update_id)

    def _toast(self, query_id: str, text: str, alert: bool, url: str | None) -> None:
        user = self._pressed_by.pop(query_id, None)
        if text or url:
            self.world.emit(
                {"type": "toast", "user": user, "text": text, "alert": alert, "url": url}
            )


def _command_entities(text: str) -> list[dict[str, Any]]:
    if not text.startswith("/"):
        return []
    command = text.split(maxsplit=1)[0]
    return [{"type": "bot_command", "offset": 0, "length": len(command.encode("utf-16-le")) // 2}]
