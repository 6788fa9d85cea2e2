"""Each update, seen from outside: how long it took, how it ended (engine/services/metrics.py),
and which update a log line belongs to (`LOG_FORMAT=json`, bot/logs.py).

The outermost update middleware: the ones inside say how the update ended (`note`) —
refused with a message to the user, a duplicate, the database out of reach, an error."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import TelegramObject, Update

from engine.services.metrics import UPDATE_SECONDS, UPDATES

log = logging.getLogger(__name__)


@dataclass
class Handling:
    """The update being handled: what the log lines carry, and its outcome so far."""

    update_id: int
    kind: str
    chat: int | None
    outcome: str = "ok"


_handling: ContextVar[Handling | None] = ContextVar("kosti_handling", default=None)


def handling() -> Handling | None:
    return _handling.get()


def note(outcome: str) -> None:
    """How the update being handled ended: refused, duplicate, database, error."""
    if (current := _handling.get()) is not None:
        current.outcome = outcome


def _chat_of(update: Update) -> int | None:
    event = update.event
    chat = getattr(event, "chat", None) or getattr(getattr(event, "message", None), "chat", None)
    return getattr(chat, "id", None)


class WatchMiddleware(BaseMiddleware):
    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if not isinstance(event, Update):
            return await handler(event, data)
        current = Handling(event.update_id, event.event_type, _chat_of(event))
        token = _handling.set(current)
        began = time.perf_counter()
        try:
            return await handler(event, data)
        except BaseException:
            if current.outcome == "ok":
                current.outcome = "error"
            raise
        finally:
            took = time.perf_counter() - began
            UPDATE_SECONDS.labels(current.kind).observe(took)
            UPDATES.labels(current.kind, current.outcome).inc()
            log.debug("update handled: %s in %.1f ms", current.outcome, took * 1000)
            _handling.reset(token)
