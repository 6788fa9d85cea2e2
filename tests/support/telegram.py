"""Factories for Telegram updates and a driver that feeds them to the real dispatcher.

Every reply of the bot travels as a real aiogram HTTP call to the fake Bot API
(`tests.support.fake_botapi`), where the test reads it back.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.types import Update

from tests.support.fake_botapi import ApiCall, FakeBotAPI


@dataclass(frozen=True)
class TgUser:
    id: int
    first_name: str
    username: str | None = None
    language_code: str | None = "ru"

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.username:
            data["username"] = self.username
        if self.language_code:
            data["language_code"] = self.language_code
        return data


@dataclass(frozen=True)
class TgChat:
    id: int
    type: str = "supergroup"
    title: str | None = None
    is_forum: bool = False

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "type": self.type}
        if self.title:
            data["title"] = self.title
        if self.is_forum:
            data["is_forum"] = True
        return data


def group(chat_id: int = -100123, title: str = "Игровой стол", forum: bool = False) -> TgChat:
    return TgChat(chat_id, "supergroup", title, forum)


def private(user: TgUser) -> TgChat:
    return TgChat(user.id, "private")


@dataclass
class Feed:
    """What one update made the bot do."""

    calls: list[ApiCall]
    message: dict[str, Any] | None = None  # the message that was fed, if any

    def sent(self, chat_id: int | None = None) -> list[ApiCall]:
        return [
            c
            for c in self.calls
            if c.method == "sendMessage"
            and c.result is not None
            and (chat_id is None or c.chat_id == chat_id)
        ]

    def only_text(self, chat_id: int | None = None) -> str:
        sent = self.sent(chat_id)
        assert len(sent) == 1, f"expected one message, got {[c.text for c in sent]}"
        return sent[0].text

    def methods(self) -> list[str]:
        return [c.method for c in self.calls]


class TelegramDriver:
    """Builds updates, feeds them through `dp.feed_update` and returns what the bot sent."""

    def __init__(self, dp: Dispatcher, bot: Bot, api: FakeBotAPI) -> None:
        self.dp, self.bot, self.api = dp, bot, api
        self._update_ids = itertools.count(5000)
        self._message_ids = itertools.count(1)
        self._callback_ids = itertools.count(1)
        self.updates: list[dict[str, Any]] = []  # every update fed, in order

    def typed_commands(self, since: int = 0) -> list[str]:
        """The commands users typed in the updates fed from number `since` on."""
        texts = [u["message"].get("text", "") for u in self.updates[since:] if "message" in u]
        return [t for t in texts if t.startswith("/")]

    async def feed(self, update: dict[str, Any]) -> Feed:
        self.updates.append(update)
        mark = self.api.mark()
        await self.dp.feed_update(
            self.bot, Update.model_validate(update, context={"bot": self.bot})
        )
        return Feed(self.api.since(mark))

    def message_update(
        self,
        user: TgUser,
        chat: TgChat,
        text: str,
        *,
        thread_id: int | None = None,
        reply_to: dict[str, Any] | None = None,
        update_id: int | None = None,
    ) -> dict[str, Any]:
        message: dict[str, Any] = {
            "message_id": next(self._message_ids),
            "date": int(time.time()),
            "chat": chat.as_dict(),
            "from": user.as_dict(),
            "text": text,
        }
        if text.startswith("/"):
            command_length = len(text.split(maxsplit=1)[0])
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": command_length}]
        if thread_id is not None:
            message["message_thread_id"] = thread_id
            message["is_topic_message"] = True
        if reply_to is not None:
            message["reply_to_message"] = reply_to
        return {
            "update_id": update_id if update_id is not None else next(self._update_ids),
            "message": message,
        }

    async def send(
        self,
        user: TgUser,
        chat: TgChat,
        text: str,
        *,
        thread_id: int | None = None,
        reply_to: dict[str, Any] | None = None,
    ) -> Feed:
        """`user` writes `text` in `chat` (optionally in a forum topic / as a reply)."""
        update = self.message_update(user, chat, text, thread_id=thread_id, reply_to=reply_to)
        feed = await self.feed(update)
        feed.message = update["message"]
        return feed

    async def press(self, user: TgUser, call: ApiCall, button: int = 0) -> Feed:
        """`user` presses inline button number `button` of the message the bot sent in `call`."""
        assert call.result is not None and isinstance(call.result, dict), "message was not sent"
        data = call.buttons()[button]["callback_data"]
        return await self.feed(
            {
                "update_id": next(self._update_ids),
                "callback_query": {
                    "id": f"cb{next(self._callback_ids)}",
                    "from": user.as_dict(),
                    "chat_instance": "ci-1",
                    "message": call.result,
                    "data": data,
                },
            }
        )


def message_of(user: TgUser, chat: TgChat, text: str = "привет", message_id: int = 1) -> dict:
    """A plain message dict (e.g. the message a `/gm` command replies to)."""
    return {
        "message_id": message_id,
        "date": int(time.time()),
        "chat": chat.as_dict(),
        "from": user.as_dict(),
        "text": text,
    }
