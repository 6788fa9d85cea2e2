"""Chat-type filters as coroutines: aiogram runs a plain (sync) filter such as
``F.chat.type == "private"`` in a worker thread (`asyncio.to_thread`), a thread hop per
update and router; these answer on the event loop."""

from __future__ import annotations

from aiogram.enums import ChatType
from aiogram.filters import Filter
from aiogram.types import Message


class ChatTypeIn(Filter):
    def __init__(self, *types: ChatType) -> None:
        self.types = frozenset(types)

    async def __call__(self, message: Message) -> bool:
        return message.chat.type in self.types


IN_GROUPS = ChatTypeIn(ChatType.GROUP, ChatType.SUPERGROUP)
IN_PRIVATE = ChatTypeIn(ChatType.PRIVATE)
