"""The playground's Telegram: users, chats (a group, a forum with topics, private chats with
the bot), their messages with per-chat ids, and a feed of changes for the page.

Everything lives in memory for one run; the bot reaches it only through the Bot API methods
(bot/playground/botapi.py), the page through bot/playground/web.py."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.playground.markup import to_html

BOT_USERNAME = "kosti_playground_bot"
BOT_NAME = "Кости"
GROUP_ID = -1001000000001
FORUM_ID = -1001000000002

Listener = Callable[[dict[str, Any]], None]


@dataclass
class PlayUser:
    id: int
    first_name: str
    username: str | None = None
    language_code: str = "ru"

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.username:
            data["username"] = self.username
        data["language_code"] = self.language_code
        return data


@dataclass
class PlayMessage:
    id: int
    chat_id: int
    sender: dict[str, Any]  # the Telegram User dict of its author
    text: str
    entities: list[dict[str, Any]]
    date: int = field(default_factory=lambda: int(time.time()))
    thread_id: int | None = None
    reply_to: int | None = None
    reply_markup: dict[str, Any] | None = None
    edit_date: int | None = None
    document: dict[str, Any] | None = None  # {"file_id", "file_name"}
    topic_created: str | None = None  # a forum topic's creation (service message)


@dataclass
class PlayChat:
    id: int
    type: str  # "private" or "supergroup"
    title: str
    is_forum: bool = False
    topics: dict[int, str] = field(default_factory=dict)  # thread id -> name
    members: list[int] = field(default_factory=list)
    bot_can_delete: bool = False
    started: bool = False  # private: the user has opened the bot (Start)
    pinned: int | None = None  # the pinned message shown in the bar above the chat
    messages: dict[int, PlayMessage] = field(default_factory=dict)
    last_id: int = 0

    def next_id(self) -> int:
        self.last_id += 1
        return self.last_id


@dataclass
class World:
    bot: dict[str, Any]  # the bot's User dict (getMe)
    users: dict[int, PlayUser] = field(default_factory=dict)
    chats: dict[int, PlayChat] = field(default_factory=dict)
    commands: dict[str, list[dict[str, str]]] = field(default_factory=dict)  # language -> menu
    menu_button: dict[str, Any] = field(default_factory=lambda: {"type": "default"})
    files: dict[str, tuple[str, bytes]] = field(default_factory=dict)  # file_id -> name, bytes
    listeners: list[Listener] = field(default_factory=list)
    _next_user: int = 10001

    # -- the cast --------------------------------------------------------------------------
    def add_user(self, first_name: str, username: str | None = None) -> PlayUser:
        user = PlayUser(self._next_user, first_name.strip()[:64] or "?", username)
        self._next_user += 1
        self.users[user.id] = user
        self.chats[user.id] = PlayChat(user.id, "private", user.first_name)
        for chat in self.chats.values():
            if chat.type != "private":
                chat.members.append(user.id)
        self.emit({"type": "users", "users": [self.user_view(u) for u in self.users.values()]})
        self.emit({"type": "chat", "chat": self.chat_view(self.chats[user.id])})
        return user

    def add_group(
        self, chat_id: int, title: str, *, forum: bool = False, bot_can_delete: bool = False
    ) -> PlayChat:
        chat = PlayChat(chat_id, "supergroup", title, forum, bot_can_delete=bot_can_delete)
        chat.members = list(self.users)
        self.chats[chat_id] = chat
        return chat

    def add_topic(self, chat: PlayChat, name: str, creator: PlayUser) -> int:
        """A forum topic: its id is the id of its creation message, as in Telegram."""
        message = PlayMessage(chat.next_id(), chat.id, creator.as_dict(), "", [])
        message.topic_created = name
        message.thread_id = message.id
        chat.messages[message.id] = message
        chat.topics[message.id] = name
        return message.id

    # -- messages --------------------------------------------------------------------------
    def add_message(self, message: PlayMessage) -> PlayMessage:
        self.chats[message.chat_id].messages[message.id] = message
        self.emit({"type": "message", "message": self.message_view(message)})
        return message

    def changed(self, message: PlayMessage) -> None:
        self.emit({"type": "message", "message": self.message_view(message)})

    def remove(self, chat: PlayChat, message_id: int) -> None:
        del chat.messages[message_id]
        self.emit({"type": "delete", "chat": chat.id, "id": message_id})

    def chat_dict(self, chat: PlayChat) -> dict[str, Any]:
        if chat.type == "private":
            user = self.users[chat.id]
            data: dict[str, Any] = {"id": chat.id, "type": "private"}
            data["first_name"] = user.first_name
            if user.username:
                data["username"] = user.username
            return data
        data = {"id": chat.id, "type": chat.type, "title": chat.title}
        if chat.is_forum:
            data["is_forum"] = True
        return data

    def message_dict(self, message: PlayMessage, *, nested: bool = True) -> dict[str, Any]:
        """The Telegram Message object of a stored message."""
        chat = self.chats[message.chat_id]
        data: dict[str, Any] = {
            "message_id": message.id,
            "date": message.date,
            "chat": self.chat_dict(chat),
            "from": message.sender,
        }
        if message.topic_created is not None:
            data["forum_topic_created"] = {"name": message.topic_created, "icon_color": 7322096}
        elif message.document is not None:
            data["document"] = {
                "file_id": message.document["file_id"],
                "file_unique_id": message.document["file_id"],
                "file_name": message.document["file_name"],
            }
            if message.text:
                data["caption"] = message.text
                data["caption_entities"] = message.entities
        else:
            data["text"] = message.text
            if message.entities:
                data["entities"] = message.entities
        if message.thread_id is not None and chat.is_forum:
            data["message_thread_id"] = message.thread_id
            data["is_topic_message"] = True
        if message.edit_date is not None:
            data["edit_date"] = message.edit_date
        if message.reply_markup:
            data["reply_markup"] = message.reply_markup
        # In a topic, a message that answers nothing replies to the topic's creation.
        reply_to = message.reply_to
        if reply_to is None and chat.is_forum and message.thread_id not in (None, message.id):
            reply_to = message.thread_id
        if nested and reply_to is not None and reply_to in chat.messages:
            data["reply_to_message"] = self.message_dict(chat.messages[reply_to], nested=False)
        return data

    # -- what the page sees ----------------------------------------------------------------
    def message_view(self, message: PlayMessage) -> dict[str, Any]:
        replied = self.chats[message.chat_id].messages.get(message.reply_to or 0)
        return {
            "chat": message.chat_id,
            "id": message.id,
            "from": message.sender["id"],
            "name": message.sender["first_name"],
            "bot": message.sender.get("is_bot", False),
            "html": to_html(message.text, message.entities),
            "thread": message.thread_id,
            "reply": None
            if replied is None
            else {"id": replied.id, "name": replied.sender["first_name"], "text": replied.text},
            "keyboard": (message.reply_markup or {}).get("inline_keyboard"),
            "edited": message.edit_date is not None,
            "document": message.document,
            "topic": message.topic_created,
            "date": message.date,
        }

    def chat_view(self, chat: PlayChat) -> dict[str, Any]:
        return {
            "id": chat.id,
            "type": chat.type,
            "title": chat.title,
            "forum": chat.is_forum,
            "topics": [{"id": k, "name": v} for k, v in chat.topics.items()],
            "started": chat.started,
            "bot_can_delete": chat.bot_can_delete,
            "pinned": chat.pinned,
            "messages": [
                self.message_view(m) for m in chat.messages.values() if m.topic_created is None
            ],
        }

    def user_view(self, user: PlayUser) -> dict[str, Any]:
        return {"id": user.id, "name": user.first_name, "username": user.username}

    def snapshot(self) -> dict[str, Any]:
        return {
            "bot": {"id": self.bot["id"], "name": self.bot["first_name"], "username": BOT_USERNAME},
            "users": [self.user_view(u) for u in self.users.values()],
            "chats": [self.chat_view(c) for c in self.chats.values()],
            "commands": self.commands,
            "menu_button": self.menu_button,
        }

    # -- the feed --------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self.listeners.append(listener)
        return lambda: self.listeners.remove(listener)

    def emit(self, event: dict[str, Any]) -> None:
        for listener in list(self.listeners):
            listener(event)


def new_world(bot_id: int) -> World:
    """The cast of the playground: a GM and three players, a group and a forum with topics."""
    bot = {
        "id": bot_id,
        "is_bot": True,
        "first_name": BOT_NAME,
        "username": BOT_USERNAME,
        "can_join_groups": True,
        "can_read_all_group_messages": False,
        "supports_inline_queries": False,
    }
    world = World(bot)
    world.add_group(GROUP_ID, "Игровой стол", bot_can_delete=True)
    forum = world.add_group(FORUM_ID, "Клуб «Дикий край»", forum=True)
    gm = world.add_user("Мастер", "master")
    for name, username in (("Аня", "anya"), ("Борис", "boris"), ("Вера", "vera")):
        world.add_user(name, username)
    world.add_topic(forum, "Бой", gm)
    world.add_topic(forum, "Кубы", gm)
    return world
