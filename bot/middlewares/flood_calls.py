"""What the outgoing queue (bot/middlewares/flood.py) needs to know of a chat call, from the
call alone: which chat's queue it waits in (`queue_key`; None: not queued), whether it is a new
message (the group's windows count it) or an edit (a newer edit of the same message replaces
it while it waits); what stands in for Telegram's answer (`stand_in`: a kept call's, or a
provisional one — a post's message id is its journal row's id, negated) and how a later call
naming a provisional id is sent with the real one; and the call as JSON (`encode`, `decode`),
as the journal and the next start hold it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, get_args

import aiogram.methods
from aiogram.client.default import Default
from aiogram.exceptions import TelegramBadRequest
from aiogram.methods import (
    CopyMessage,
    CopyMessages,
    DeleteMessage,
    DeleteMessages,
    ForwardMessage,
    ForwardMessages,
    PinChatMessage,
    SendChatAction,
    TelegramMethod,
    UnpinChatMessage,
)
from aiogram.types import Chat, Message
from pydantic_core import PydanticSerializationError, to_jsonable_python

from engine.services.outgoing import Kept

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


class KeptForRestart(Exception):
    """A call kept for the next start whose answer no stand-in can take the place of."""


class NeverSent(TelegramBadRequest):
    """A call naming a post that was never sent (refused, or lost): it is not made."""

    def __init__(self, method: TelegramMethod[Any]) -> None:
        super().__init__(method, "message to edit not found: its post was never sent")


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
    ids = getattr(method, "message_ids", None)  # deleteMessages, forwardMessages, ...
    if isinstance(ids, list):
        update["message_ids"] = [swap(i) for i in ids]
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
