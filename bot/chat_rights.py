"""May the bot delete messages in a group? Asked with getChatMember, cached per chat.

A command whose arguments are secret (`/hr 7d10>=6 ambush`) is removed from the group when
the bot may; otherwise the group is told once that such commands belong elsewhere.

Both memories live in the process (one `ChatRights` per dispatcher), not in the database: a
restart at worst asks Telegram again and repeats the short hint once per chat, which is
harmless (and useful while the right is still missing), and it needs no table or migration."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from aiogram import Bot
from aiogram.enums import ChatMemberStatus
from aiogram.exceptions import TelegramAPIError
from aiogram.types import ChatMemberAdministrator, Message

from bot.middlewares.flood import if_refused
from engine.services.after_commit import after_commit

log = logging.getLogger(__name__)
RIGHTS_TTL = 300.0  # seconds: a right given or taken away is seen within five minutes


@dataclass
class ChatRights:
    ttl: float = RIGHTS_TTL
    clock: Callable[[], float] = time.monotonic
    _may_delete: dict[int, tuple[float, bool]] = field(default_factory=dict)  # chat -> (until, ok)
    _hinted: set[tuple[str, int]] = field(default_factory=set)  # (kind, chat)

    async def may_delete(self, bot: Bot, chat_id: int) -> bool:
        """Is the bot an administrator of `chat_id` with the right to delete messages?"""
        cached = self._may_delete.get(chat_id)
        now = self.clock()
        if cached is not None and cached[0] > now:
            return cached[1]
        try:
            member = await bot.get_chat_member(chat_id, bot.id)
        except TelegramAPIError as error:  # not a member any more, a network failure...
            log.info("chat %s: cannot read the bot's rights (%s)", chat_id, error)
            allowed = False
        else:
            allowed = member.status == ChatMemberStatus.CREATOR or (
                isinstance(member, ChatMemberAdministrator) and member.can_delete_messages
            )
        self._remember(chat_id, allowed)
        return allowed

    async def delete(self, bot: Bot, message: Message) -> bool:
        """Delete `message` if the bot may; a refused delete counts as "may not" from now."""
        if not await self.may_delete(bot, message.chat.id):
            return False
        refused = False

        async def not_allowed(error: TelegramAPIError) -> None:
            nonlocal refused
            log.info("chat %s: delete refused (%s)", message.chat.id, error)
            self._remember(message.chat.id, False)
            refused = True

        async with if_refused(not_allowed):  # a group's delete may be refused after we went on
            await bot.delete_message(message.chat.id, message.message_id)
        return not refused

    def first_hint(self, chat_id: int, kind: str = "secret") -> bool:
        """True the first time a hint of `kind` is asked for `chat_id` (in this process).
        Asked within a step, it counts as given once the step committed: a step rolled back
        took its message with it, so the next one gives the hint again."""
        key = (kind, chat_id)
        if key in self._hinted:
            return False

        async def given() -> None:
            self._hinted.add(key)

        if not after_commit(given):
            self._hinted.add(key)
        return True

    def _remember(self, chat_id: int, allowed: bool) -> None:
        self._may_delete[chat_id] = (self.clock() + self.ttl, allowed)
