"""A small fake Telegram Bot API server for end-to-end bot tests.

It answers `POST /bot{token}/{method}` like the real Bot API, records every call (method and
decoded parameters) and can be told to refuse messages to some chats (403, "bot can't initiate
conversation") or to answer one call with 429 and `retry_after`. In a group the bot is a
plain member unless made an administrator that may delete messages (`grant_delete`).
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import re
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestServer

from bot.playground.errors import BotApiError
from bot.playground.markup import parse_html

BOT_ID = 700000001
BOT_USERNAME = "kosti_test_bot"
BOT_TOKEN = f"{BOT_ID}:TEST-token"

# Parameters that are plain text even when they look like JSON ("9", "[1, 2]", "true").
TEXT_PARAMS = frozenset(
    {"text", "caption", "title", "description", "short_description", "callback_query_id", "url"}
)
# Methods that address a chat and get 403 for chats marked as "never started the bot".
SENDING_METHODS = frozenset({"sendMessage", "sendPhoto", "sendDocument", "copyMessage"})
UPLOAD_PREFIX = "attach://"
ONE_POLLER = "make sure that only one bot instance is running"
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
FORBIDDEN_DESCRIPTION = "Forbidden: bot can't initiate conversation with a user"
PIN_REFUSED = "Bad Request: not enough rights to manage pinned messages in the chat"


class _Refused(Exception):
    """A method handler's Bot API error answer."""

    def __init__(self, status: int, description: str) -> None:
        super().__init__(description)
        self.status, self.description = status, description


@dataclass
class ApiCall:
    method: str
    params: dict[str, Any]
    result: Any = None  # None until answered successfully
    received: float = field(default_factory=time.perf_counter)  # when the request came in
    body: str = "json"  # how the call came: "json", or "form" (urlencoded or multipart)

    @property
    def chat_id(self) -> int | None:
        value = self.params.get("chat_id")
        return int(value) if value is not None else None

    @property
    def text(self) -> str:
        return str(self.params.get("text", ""))

    @property
    def reply_markup(self) -> dict[str, Any] | None:
        return self.params.get("reply_markup")

    def buttons(self) -> list[dict[str, Any]]:
        """Every inline button of the call's keyboard, row by row."""
        markup = self.reply_markup or {}
        return [button for row in markup.get("inline_keyboard", []) for button in row]


@dataclass
class FakeBotAPI:
    calls: list[ApiCall] = field(default_factory=list)
    forbidden_chats: set[int] = field(default_factory=set)
    unknown_chats: set[int] = field(default_factory=set)  # 400 "chat not found"
    pending_updates: list[dict[str, Any]] = field(default_factory=list)
    delete_rights: set[int] = field(default_factory=set)  # chats where the bot is such an admin
    stale_rights: set[int] = field(default_factory=set)  # getChatMember says yes, deletes fail
    pin_rights: set[int] = field(default_factory=set)  # groups where the bot may pin
    pinned: dict[int, list[int]] = field(default_factory=dict)  # chat -> pinned, newest last
    base_url: str = ""  # set once served: pass it as BOT_API_URL
    another_poller: bool = False  # another process polls this bot: getUpdates answers 409
    _failures: dict[str, list[int]] = field(default_factory=dict)
    _delays: dict[str, float] = field(default_factory=dict)
    _refusals: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    _message_id: int = 1000
    _waiting: dict[str, int] = field(default_factory=dict)
    most_at_once: dict[str, int] = field(default_factory=dict)  # of slowed-down methods

    # -- configuration -------------------------------------------------------------------
    def forbid(self, chat_id: int) -> None:
        """The user behind `chat_id` never started the bot (or blocked it)."""
        self.forbidden_chats.add(chat_id)

    def allow(self, chat_id: int) -> None:
        self.forbidden_chats.discard(chat_id)
        self.unknown_chats.discard(chat_id)

    def grant_delete(self, chat_id: int) -> None:
        """Make the bot an administrator of `chat_id` with the right to delete messages."""
        self.delete_rights.add(chat_id)

    def grant_pin(self, chat_id: int) -> None:
        """Make the bot an administrator of `chat_id` with the right to pin messages."""
        self.pin_rights.add(chat_id)

    def fail_with_retry_after(self, method: str, retry_after: int = 1, times: int = 1) -> None:
        """Answer the next `times` calls of `method` with 429 Too Many Requests."""
        self._failures.setdefault(method, []).extend([retry_after] * times)

    def refuse(self, method: str, status: int, description: str, times: int = 1) -> None:
        """Refuse the next `times` calls of `method` for good (`status`, `description`)."""
        self._refusals.setdefault(method, []).extend([(status, description)] * times)

    def slow_down(self, method: str, seconds: float) -> None:
        """Answer every call of `method` only after `seconds` (a slow or distant Bot API)."""
        self._delays[method] = seconds

    # -- inspection ----------------------------------------------------------------------
    def mark(self) -> int:
        return len(self.calls)

    def since(self, mark: int, method: str | None = None) -> list[ApiCall]:
        return [c for c in self.calls[mark:] if method is None or c.method == method]

    def sent(self, mark: int = 0, chat_id: int | None = None) -> list[ApiCall]:
        """Delivered sendMessage calls since `mark` (refused ones excluded), to one chat."""
        return [
            c
            for c in self.since(mark, "sendMessage")
            if c.result is not None and (chat_id is None or c.chat_id == chat_id)
        ]

    # -- the HTTP side -------------------------------------------------------------------
    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/bot{token}/{method}", self._handle)
        return app

    @staticmethod
    async def _form(request: web.Request) -> dict[str, Any]:
        """A multipart or urlencoded call (one that uploads a file), decoded as JSON would be."""
        form = await request.post()
        files = {
            key: {"filename": value.filename, "content": value.file.read()}
            for key, value in form.items()
            if isinstance(value, web.FileField)
        }
        params = {
            key: _decode(key, value)
            for key, value in form.items()
            if not isinstance(value, web.FileField)
        }
        for key, value in params.items():  # "attach://<name>" -> the uploaded file itself
            if isinstance(value, str) and value.startswith(UPLOAD_PREFIX):
                params[key] = files.get(value[len(UPLOAD_PREFIX) :], value)
        return params

    async def _handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        if request.match_info["token"] != BOT_TOKEN:
            return _error(401, "Unauthorized")
        body = "json" if request.content_type == "application/json" else "form"
        params = await request.json() if body == "json" else await self._form(request)
        call = ApiCall(method, params, body=body)
        self.calls.append(call)
        if method in self._delays:
            self._waiting[method] = self._waiting.get(method, 0) + 1
            self.most_at_once[method] = max(self.most_at_once.get(method, 0), self._waiting[method])
            try:
                await asyncio.sleep(self._delays[method])
            finally:
                self._waiting[method] -= 1

        queued = self._failures.get(method)
        if queued:
            retry_after = queued.pop(0)
            return _error(
                429,
                f"Too Many Requests: retry after {retry_after}",
                parameters={"retry_after": retry_after},
            )
        if refusals := self._refusals.get(method):
            return _error(*refusals.pop(0))
        if method in SENDING_METHODS and _as_int(params.get("chat_id")) in self.forbidden_chats:
            return _error(403, FORBIDDEN_DESCRIPTION)
        if method in SENDING_METHODS and _as_int(params.get("chat_id")) in self.unknown_chats:
            return _error(400, "Bad Request: chat not found")
        if method == "getUpdates" and not self.pending_updates:
            await asyncio.sleep(0.05)  # a short "long poll" instead of a busy loop
        handler = getattr(self, f"_m_{method}", None)
        try:
            _check_sizes(method, params)
            result = handler(params) if handler else True
        except _Refused as refused:
            return _error(refused.status, refused.description)
        call.result = result
        return web.json_response({"ok": True, "result": result})

    def _m_getMe(self, params: dict[str, Any]) -> dict[str, Any]:
        return _bot_user()

    def _m_getUpdates(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        if self.another_poller:
            raise _Refused(409, "Conflict: terminated by other getUpdates request; " + ONE_POLLER)
        offset = int(params.get("offset") or 0)
        updates = [u for u in self.pending_updates if u["update_id"] >= offset]
        self.pending_updates = updates
        return updates[: int(params.get("limit") or 100)]  # Telegram gives 100 at most

    def _m_sendMessage(self, params: dict[str, Any]) -> dict[str, Any]:
        self._message_id += 1
        return self._message(self._message_id, params)

    def _m_getChatMember(self, params: dict[str, Any]) -> dict[str, Any]:
        chat_id, user = int(params["chat_id"]), _bot_user()
        if (
            int(params["user_id"]) != BOT_ID
            or chat_id not in self.delete_rights | self.stale_rights
        ):
            return {"status": "member", "user": user}
        rights = dict.fromkeys(ADMIN_RIGHTS, False) | {"can_delete_messages": True}
        return {"status": "administrator", "user": user, **rights}

    def _m_deleteMessage(self, params: dict[str, Any]) -> bool:
        if int(params["chat_id"]) not in self.delete_rights:
            raise _Refused(400, "Bad Request: message can't be deleted")
        return True

    def _may_pin(self, params: dict[str, Any]) -> int:
        """As Telegram: anyone pins in a private chat, a bot in a group only as an admin
        with the right to pin."""
        chat_id = int(params["chat_id"])
        if chat_id < 0 and chat_id not in self.pin_rights:
            raise _Refused(400, PIN_REFUSED)
        return chat_id

    def _m_pinChatMessage(self, params: dict[str, Any]) -> bool:
        chat_id = self._may_pin(params)
        self.pinned.setdefault(chat_id, []).append(int(params["message_id"]))
        return True

    def _m_unpinChatMessage(self, params: dict[str, Any]) -> bool:
        chat_id, pins = self._may_pin(params), self.pinned.get(int(params["chat_id"]), [])
        message_id = params.get("message_id")
        if not pins or (message_id is not None and int(message_id) not in pins):
            raise _Refused(400, "Bad Request: message to unpin not found")
        pins.remove(int(message_id) if message_id is not None else pins[-1])
        self.pinned[chat_id] = pins
        return True

    def _m_sendDocument(self, params: dict[str, Any]) -> dict[str, Any]:
        self._message_id += 1
        message = self._message(self._message_id, params)
        document = params.get("document")
        name = document.get("filename") if isinstance(document, dict) else "file"
        message["document"] = {
            "file_id": f"doc{self._message_id}",
            "file_unique_id": f"u{self._message_id}",
            "file_name": name,
        }
        return message

    def _m_editMessageText(self, params: dict[str, Any]) -> dict[str, Any] | bool:
        if "inline_message_id" in params:
            return True
        return self._message(int(params["message_id"]), params)

    def _m_editMessageReplyMarkup(self, params: dict[str, Any]) -> dict[str, Any] | bool:
        if "inline_message_id" in params:
            return True
        return self._message(int(params["message_id"]), params)

    def _message(self, message_id: int, params: dict[str, Any]) -> dict[str, Any]:
        chat_id = int(params["chat_id"])
        message: dict[str, Any] = {
            "message_id": message_id,
            "date": int(time.time()),
            "chat": {"id": chat_id, "type": "private" if chat_id > 0 else "supergroup"},
            "from": _bot_user(),
            "text": params.get("text", ""),
        }
        if str(params.get("parse_mode", "")).upper() == "HTML" and message["text"]:
            # as Telegram does: the markup becomes entities (Message.html_text rebuilds it)
            with contextlib.suppress(BotApiError):  # else kept as sent
                message["text"], message["entities"] = parse_html(message["text"])
        if params.get("message_thread_id") is not None:
            message["message_thread_id"] = int(params["message_thread_id"])
            message["is_topic_message"] = True
        if params.get("reply_markup"):
            message["reply_markup"] = params["reply_markup"]
        return message


def _bot_user() -> dict[str, Any]:
    return {
        "id": BOT_ID,
        "is_bot": True,
        "first_name": "Кости",
        "username": BOT_USERNAME,
        "can_join_groups": True,
        "can_read_all_group_messages": False,
        "supports_inline_queries": False,
    }


def _decode(key: str, value: Any) -> Any:
    if not isinstance(value, str) or key in TEXT_PARAMS:
        return value
    try:
        return json.loads(value)
    except ValueError:
        return value


def _as_int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _error(status: int, description: str, **extra: Any) -> web.Response:
    body = {"ok": False, "error_code": status, "description": description, **extra}
    return web.json_response(body, status=status)


async def start_fake_botapi(api: FakeBotAPI) -> TestServer:
    """Serve `api` on a free port of 127.0.0.1; the caller closes the returned server."""
    server = TestServer(api.app(), host="127.0.0.1")
    await server.start_server()
    api.base_url = str(server.make_url("")).rstrip("/")
    return server


_MARKUP = re.compile(r"<[^>]+>")


def _visible(text: str) -> int:
    """Telegram's measure of a text: UTF-16 code units once the HTML is parsed."""
    plain = html.unescape(_MARKUP.sub("", text))
    return len(plain.encode("utf-16-le")) // 2


def _check_sizes(method: str, params: dict[str, Any]) -> None:
    """Refuse what Telegram refuses: texts over 4,096, captions over 1,024, callback data
    over 64 bytes."""
    text = params.get("text")
    in_text = method in ("sendMessage", "editMessageText") and isinstance(text, str)
    if in_text and _visible(text) > 4096:  # type: ignore[arg-type]
        raise _Refused(400, "Bad Request: message is too long")
    caption = params.get("caption")
    if isinstance(caption, str) and _visible(caption) > 1024:
        raise _Refused(400, "Bad Request: message caption is too long")
    markup = params.get("reply_markup")
    for row in (markup or {}).get("inline_keyboard", []) if isinstance(markup, dict) else []:
        for button in row:
            if len(str(button.get("callback_data", "")).encode()) > 64:
                raise _Refused(400, "Bad Request: BUTTON_DATA_INVALID")
