"""Every handler and filter of the dispatcher is a coroutine (bot/filters.py): aiogram runs a
plain function in a worker thread, a thread hop per update for each of them."""

from __future__ import annotations

from aiogram import Dispatcher, Router
from aiogram.types import Update

from bot.filters import IN_GROUPS, IN_PRIVATE
from tests.bot.conftest import ALICE, GROUP
from tests.support.telegram import TelegramDriver, private


def _sync_callables(router: Router) -> list[str]:
    found = []
    for name, observer in router.observers.items():
        for f in observer._handler.filters or ():
            if not f.awaitable:
                found.append(f"{router.name}.{name} filter {f.callback!r}")
        for handler in observer.handlers:
            if not handler.awaitable:
                found.append(f"{router.name}.{name} handler {handler.callback!r}")
            found += [
                f"{router.name}.{name} filter {f.callback!r}"
                for f in handler.filters or ()
                if not f.awaitable
            ]
    for sub in router.sub_routers:
        found += _sync_callables(sub)
    return found


def test_nothing_in_the_dispatcher_runs_in_a_thread(dp: Dispatcher) -> None:
    assert _sync_callables(dp) == []


async def test_chat_type_filters(tg: TelegramDriver) -> None:
    in_group = tg.message_update(ALICE, GROUP, "/r d6")
    in_private = tg.message_update(ALICE, private(ALICE), "/r d6")
    group_message = Update.model_validate(in_group).message
    private_message = Update.model_validate(in_private).message
    assert group_message is not None and private_message is not None
    assert await IN_GROUPS(group_message) and not await IN_PRIVATE(group_message)
    assert await IN_PRIVATE(private_message) and not await IN_GROUPS(private_message)
