"""The Bot API methods the bot calls, answered over the playground's World with Telegram's
rules where they matter: no first message to a user who never opened the bot, ``web_app``
buttons only in private chats, HTML parsed (and refused) as Telegram does, per-chat message
ids, edits, deletes and the bot's delete right. An unknown method answers 404 (logged once)."""

from __future__ import annotations

import itertools
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.playground.errors import FORBIDDEN_DESCRIPTION, BotApiError
from bot.playground.markup import message_text
from bot.playground.world import PlayChat, PlayMessage, World

log = logging.getLogger(__name__)
MAX_CALLBACK_DATA = 64  # bytes
# The fields of a ChatMemberAdministrator besides status and user (all required).
ADMIN_RIGHTS = (
    "can_be_edited",
    "is_anonymous",
    "can_manage_chat",
    "can_delete_messages",
    "can_manage_video_chats",
    "can_restrict_members",
    "can_promote_members",
    "can_change_info",
    "can_invite_users",
    "can_post_stories",
    "can_edit_stories",
    "can_delete_stories",
    "can_send_welcome_messages",
)
GIFT_TYPES = (
    "unlimited_gifts",
    "limited_gifts",
    "unique_gifts",
    "premium_subscription",
    "gifts_from_channels",
)
Toast = Callable[[str, str, bool, str | None], None]  # callback id, text, alert, url


@dataclass
class BotApi:
    world: World
    on_answer: Toast | None = None  # answerCallbackQuery: the page shows the toast
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    _unknown: set[str] = field(default_factory=set)
    _file_ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def call(self, method: str, params: dict[str, Any]) -> Any:
        """The method's result, or BotApiError."""
        self.calls.append((method, params))
        handler = getattr(self, f"m_{method}", None)
        if handler is None:
            if method not in self._unknown:
                self._unknown.add(method)
                log.warning("the playground does not know the Bot API method %s", method)
            raise BotApiError(404, "Not Found: method not found")
        return handler(params)

    # -- the bot itself --------------------------------------------------------------------
    def m_getMe(self, params: dict[str, Any]) -> dict[str, Any]:
        return self.world.bot

    def m_deleteWebhook(self, params: dict[str, Any]) -> bool:
        return True

    def m_setMyCommands(self, params: dict[str, Any]) -> bool:
        language = params.get("language_code") or ""
        self.world.commands[language] = list(params["commands"])
        self.world.emit({"type": "commands", "commands": self.world.commands})
        return True

    def m_setChatMenuButton(self, params: dict[str, Any]) -> bool:
        self.world.menu_button = params.get("menu_button") or {"type": "default"}
        self.world.emit({"type": "menu_button", "menu_button": self.world.menu_button})
        return True

    # -- chats -----------------------------------------------------------------------------
    def _chat(self, params: dict[str, Any]) -> PlayChat:
        try:
            return self.world.chats[int(params["chat_id"])]
        except (KeyError, ValueError):
            raise BotApiError.bad("chat not found") from None

    def m_getChat(self, params: dict[str, Any]) -> dict[str, Any]:
        gifts = dict.fromkeys(GIFT_TYPES, False)
        full = {"accent_color_id": 0, "max_reaction_count": 11, "accepted_gift_types": gifts}
        return self.world.chat_dict(self._chat(params)) | full

    def m_getChatMember(self, params: dict[str, Any]) -> dict[str, Any]:
        chat, user_id = self._chat(params), int(params["user_id"])
        if user_id == self.world.bot["id"]:
            return self._bot_member(chat)
        user = self.world.users.get(user_id)
        if user is None or (chat.type != "private" and user_id not in chat.members):
            raise BotApiError.bad("user not found")
        return {"status": "member", "user": user.as_dict()}

    def m_getChatAdministrators(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        chat = self._chat(params)
        admins = [self._bot_member(chat)] if chat.bot_can_delete else []
        if chat.members:
            creator = self.world.users[chat.members[0]]
            admins.insert(
                0, {"status": "creator", "user": creator.as_dict(), "is_anonymous": False}
            )
        return admins

    def _bot_member(self, chat: PlayChat) -> dict[str, Any]:
        if not chat.bot_can_delete:
            return {"status": "member", "user": self.world.bot}
        rights = dict.fromkeys(ADMIN_RIGHTS, False) | {"can_delete_messages": True}
        return {"status": "administrator", "user": self.world.bot, **rights}

    # -- messages --------------------------------------------------------------------------
    def _writable(self, params: dict[str, Any]) -> PlayChat:
        chat = self._chat(params)
        if chat.type == "private" and not chat.started:
            raise BotApiError(403, FORBIDDEN_DESCRIPTION)
        return chat

    def _markup(self, chat: PlayChat, params: dict[str, Any]) -> dict[str, Any] | None:
        markup = params.get("reply_markup")
        if not markup:
            return None
        rows = markup.get("inline_keyboard")
        if rows is None:
            return None  # reply keyboards: the bot sends none; the page shows nothing
        for button in (b for row in rows for b in row):
            if "web_app" in button and chat.type != "private":
                raise BotApiError.bad("BUTTON_TYPE_INVALID")
            data = button.get("callback_data")
            if data is not None and len(str(data).encode()) > MAX_CALLBACK_DATA:
                raise BotApiError.bad("BUTTON_DATA_INVALID")
        return {"inline_keyboard": rows}

    def _new(
        self, chat: PlayChat, params: dict[str, Any], text: str, entities: list[dict[str, Any]]
    ) -> PlayMessage:
        thread = params.get("message_thread_id")
        reply = params.get("reply_parameters") or {}
        reply_to = reply.get("message_id") or params.get("reply_to_message_id")
        if reply_to is not None and int(reply_to) not in chat.messages:
            if not reply.get("allow_sending_without_reply"):
                raise BotApiError.bad("message to be replied not found")
            reply_to = None
        if reply_to is not None and thread is None and chat.is_forum:
            thread = chat.messages[int(reply_to)].thread_id  # a reply stays in its topic
        if thread is not None and chat.is_forum and int(thread) not in chat.topics:
            raise BotApiError.bad("message thread not found")
        return PlayMessage(
            chat.next_id(),
            chat.id,
            self.world.bot,
            text,
            entities,
            thread_id=int(thread) if thread is not None and chat.is_forum else None,
            reply_to=int(reply_to) if reply_to is not None else None,
            reply_markup=self._markup(chat, params),
        )

    def m_sendMessage(self, params: dict[str, Any]) -> dict[str, Any]:
        chat = self._writable(params)
        text, entities = message_text(
            str(params.get("text", "")), params.get("parse_mode"), params.get("entities")
        )
        message = self.world.add_message(self._new(chat, params, text, entities))
        return self.world.message_dict(message)

    def m_sendDocument(self, params: dict[str, Any]) -> dict[str, Any]:
        chat = self._writable(params)
        caption = str(params.get("caption") or "")
        text, entities = (
            ("", [])
            if not caption
            else message_text(caption, params.get("parse_mode"), params.get("caption_entities"))
        )
        document = params.get("document")
        name, body = document if isinstance(document, tuple) else ("file", b"")
        file_id = f"doc{next(self._file_ids)}"
        self.world.files[file_id] = (name, body)
        message = self._new(chat, params, text, entities)
        message.document = {"file_id": file_id, "file_name": name, "size": len(body)}
        return self.world.message_dict(self.world.add_message(message))

    def _stored(self, params: dict[str, Any]) -> tuple[PlayChat, PlayMessage]:
        if "inline_message_id" in params:
            raise BotApiError.bad("inline messages are not used here")
        chat = self._chat(params)
        message = chat.messages.get(int(params.get("message_id", 0)))
        if message is None:
            raise BotApiError.bad("message to edit not found")
        if message.sender["id"] != self.world.bot["id"]:
            raise BotApiError.bad("message can't be edited")
        return chat, message

    def m_editMessageText(self, params: dict[str, Any]) -> dict[str, Any]:
        chat, message = self._stored(params)
        text, entities = message_text(
            str(params.get("text", "")), params.get("parse_mode"), params.get("entities")
        )
        markup = self._markup(chat, params)
        if (text, entities, markup) == (message.text, message.entities, message.reply_markup):
            raise BotApiError.bad(
                "message is not modified: specified new message content and reply markup are "
                "exactly the same as a current content and reply markup of the message"
            )
        message.text, message.entities, message.reply_markup = text, entities, markup
        message.edit_date = int(time.time())
        self.world.changed(message)
        return self.world.message_dict(message)

    def m_editMessageReplyMarkup(self, params: dict[str, Any]) -> dict[str, Any]:
        chat, message = self._stored(params)
        markup = self._markup(chat, params)
        if markup == message.reply_markup:
            raise BotApiError.bad(
                "message is not modified: specified new message content and reply markup are "
                "exactly the same as a current content and reply markup of the message"
            )
        message.reply_markup = markup
        message.edit_date = int(time.time())
        self.world.changed(message)
        return self.world.message_dict(message)

    def m_deleteMessage(self, params: dict[str, Any]) -> bool:
        chat = self._chat(params)
        message = chat.messages.get(int(params["message_id"]))
        if message is None:
            raise BotApiError.bad("message to delete not found")
        own = message.sender["id"] == self.world.bot["id"]
        if not (own or chat.type == "private" or chat.bot_can_delete):
            raise BotApiError.bad("message can't be deleted")
        self.world.remove(chat, message.id)
        return True

    def m_pinChatMessage(self, params: dict[str, Any]) -> bool:
        """As Telegram: in a group only an admin bot pins (the playground's admin may)."""
        chat = self._chat(params)
        if chat.type != "private" and not chat.bot_can_delete:
            raise BotApiError.bad("not enough rights to manage pinned messages in the chat")
        if int(params["message_id"]) not in chat.messages:
            raise BotApiError.bad("message to pin not found")
        chat.pinned = int(params["message_id"])
        self.world.emit({"type": "pinned", "chat": chat.id, "id": chat.pinned})
        return True

    def m_unpinChatMessage(self, params: dict[str, Any]) -> bool:
        chat = self._chat(params)
        message_id = params.get("message_id")
        if chat.pinned is None or (message_id is not None and int(message_id) != chat.pinned):
            raise BotApiError.bad("message to unpin not found")
        chat.pinned = None
        self.world.emit({"type": "pinned", "chat": chat.id, "id": None})
        return True

    def m_answerCallbackQuery(self, params: dict[str, Any]) -> bool:
        if self.on_answer is not None:
            self.on_answer(
                str(params["callback_query_id"]),
                str(params.get("text") or ""),
                bool(params.get("show_alert")),
                params.get("url"),
            )
        return True
