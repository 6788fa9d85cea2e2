"""A rule system's background loop (ChatSystem.background): one pass every few seconds for
as long as the bot runs; a failed pass never ends it, the next one tries again."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from engine.store.db import database_unreachable

log = logging.getLogger(__name__)


async def every(seconds: float, work: Callable[[], Awaitable[object]], what: str) -> None:
    """Run `work` every `seconds`; `what` names it in the log (a database outage is one
    warning line, any other failure a traceback)."""
    while True:
        try:
            await work()
        except Exception as error:
            if database_unreachable(error):
                log.warning("%s could not be passed: %s", what, error)
            else:
                log.exception("%s could not be passed", what)
        await asyncio.sleep(seconds)
