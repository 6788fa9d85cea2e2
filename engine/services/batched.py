"""Ids gathered for one statement off a step's path: the rows a worker is done with (the
updates it handled, the chat calls Telegram took) are deleted together, by one statement
`after` seconds after the first of them, instead of one each on the hot path."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable

log = logging.getLogger(__name__)


class Batched:
    """`add` ids; `run(ids)` is called with all of them `after` seconds after the first (or
    at `flush`). A failure (the database out of reach) keeps them for the next time."""

    def __init__(
        self, run: Callable[[list[int]], Awaitable[object]], *, after: float, what: str
    ) -> None:
        self.run, self.after, self.what = run, after, what
        self._ids: list[int] = []
        self._timer: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def add(self, ids: Iterable[int]) -> None:
        self._ids.extend(ids)
        if self._ids and self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(self.after, self._due)

    def _due(self) -> None:
        self._timer = None
        task = asyncio.get_running_loop().create_task(self.flush())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def flush(self) -> None:
        ids, self._ids = self._ids, []
        if not ids:
            return
        try:
            await self.run(ids)
        except Exception as error:  # out of reach: done all the same, told later
            log.warning("%d %s not yet forgotten: %s", len(ids), self.what, error)
            self._ids[:0] = ids
