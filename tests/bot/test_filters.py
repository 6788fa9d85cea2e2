"""Every handler and filter of the dispatcher is a coroutine (bot/filters.py): aiogram runs a
plain function in a worker thread, a thread hop per update for each of them. Routers that
answer only commands carry their command words as one root filter, and the shared routers'
words do not overlap, so their order (by use) cannot change which handler answers."""

from __future__ import annotations

from aiogram import Dispatcher, Router
from aiogram.types import Update

from bot.filters import IN_GROUPS, IN_PRIVATE, CommandAmong, command_of, router_commands
from bot.systems import registry
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


def _system_routers() -> set[str]:
    """Every system's routers, with those they include (the duel's screens)."""
    return {
        nested.name
        for system in registry.installed()
        for router in system.routers()
        for nested in router.chain_tail
    }


def test_the_shared_routers_answer_commands_no_other_router_answers(dp: Dispatcher) -> None:
    systems = _system_routers()
    words = {
        router.name: router_commands(router)
        for router in dp.chain_tail
        if router.message.handlers and router.name not in ("other_systems", "fallback")
    }
    shared = {name: w for name, w in words.items() if name not in systems}
    assert {"dice", "hidden", "start", "games"} <= set(shared)
    for name, own in shared.items():
        assert own, f"{name} answers more than commands: it would need its place in the order"
        for other, theirs in words.items():
            if other != name:
                assert not own & (theirs or frozenset()), (name, other, own & (theirs or set()))


def test_a_command_only_router_skips_other_commands_in_one_check(dp: Dispatcher) -> None:
    dice = next(router for router in dp.chain_tail if router.name == "dice")
    index = [f.callback for f in dice.message._handler.filters or ()]
    among = [f for f in index if isinstance(f, CommandAmong)]
    assert len(among) == 1
    assert {"r", "roll", "p"} <= among[0].commands and "attack" not in among[0].commands
    fallback = next(router for router in dp.chain_tail if router.name == "fallback")
    assert router_commands(fallback) is None  # it reads every command: no index


async def test_command_words_are_read_as_telegram_writes_them(tg: TelegramDriver) -> None:
    def word(text: str) -> str | None:
        message = Update.model_validate(tg.message_update(ALICE, GROUP, text)).message
        assert message is not None
        return command_of(message)

    assert word("/R@kosti_bot 2к6") == "r"
    assert word("/attack Гриммджо") == "attack"
    assert word("привет") is None
    assert word("/") is None
