"""The next start sends what a shutdown kept (bot/middlewares/flood_queue.py `keep`, stored
by the runner in engine/services/outgoing.py) before it takes updates, through the bot and
its flood control, in order per chat. A kept call's journal row is the one it was written to
(`sending_kept()`): the flood control does not journal it again and waits for its answer."""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING

from aiogram.exceptions import TelegramAPIError
from aiogram.types import Message

from bot.middlewares.flood_calls import decode
from engine.services.outgoing import Kept

if TYPE_CHECKING:
    from aiogram import Bot

log = logging.getLogger("bot.middlewares.flood")  # one log for the outgoing queue's modules

_kept_row: contextvars.ContextVar[int | None] = contextvars.ContextVar("kept_row", default=None)


def sending_kept() -> int | None:
    """The journal row of the kept call being sent (`send_kept`); None outside it."""
    return _kept_row.get()


async def send_kept(
    bot: Bot, calls: Iterable[Kept], done: Callable[[Kept, int | None], Awaitable[None]]
) -> int:
    """Send the calls a shutdown kept, in order per chat (the chats side by side); `done`
    after each one sent (with a post's message id) or refused for good. A chat whose call
    fails otherwise (the Bot API unreachable) stops there: its rows stay for the next try.
    How many were sent."""
    chats: dict[str, list[Kept]] = {}
    for call in calls:
        chats.setdefault(call.chat, []).append(call)
    sent = 0

    async def one_chat(queue: list[Kept]) -> None:
        nonlocal sent
        for call in queue:
            message_id = None
            token = _kept_row.set(call.id)  # its row is the journal's: not written again
            try:
                answer = await bot(decode(call))
            except TelegramAPIError as error:  # refused: sending again would not help
                log.warning("a kept %s was refused: %s", call.method, error)
            except Exception:
                log.exception("a kept %s could not be sent; left for later", call.method)
                return
            else:
                sent += 1
                message_id = answer.message_id if isinstance(answer, Message) else None
            finally:
                _kept_row.reset(token)
            await done(call, message_id)

    await asyncio.gather(*(one_chat(queue) for queue in chats.values()))
    return sent
