"""The updates being handled now, so that a shutdown can wait for them (SIGTERM on a deploy:
the hidden roll already stored still gets its private copies and its receipt)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import TelegramObject


class InFlight(BaseMiddleware):
    def __init__(self) -> None:
        self.count = 0
        self._idle = asyncio.Event()
        self._idle.set()

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        self.count += 1
        self._idle.clear()
        try:
            return await handler(event, data)
        finally:
            self.count -= 1
            if not self.count:
                self._idle.set()

    async def drained(self, timeout: float) -> int:
        """Wait until no update is being handled, at most `timeout` seconds; how many are
        still running then (0: all finished)."""
        deadline = time.monotonic() + timeout
        while self.count and time.monotonic() < deadline:
            try:
                await asyncio.wait_for(self._idle.wait(), deadline - time.monotonic())
            except TimeoutError:
                break
        return self.count
