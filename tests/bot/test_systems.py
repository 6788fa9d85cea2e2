"""The chat's rule-system seam: a system's commands reach its routers only in games of that
system; elsewhere they get a clear refusal, and nothing of that system runs."""

from __future__ import annotations

import pytest

from bot.systems import registry
from tests.bot.conftest import ALICE, GROUP
from tests.support.telegram import TelegramDriver

WRONG_SYSTEM = "Эта игра идёт по другой системе: Сказитель (пулы d10)."


def texts(feed: object) -> list[str]:
    return [c.text for c in feed.sent()]  # type: ignore[attr-defined]


async def test_a_savage_command_in_a_storyteller_game_is_refused(tg: TelegramDriver) -> None:
    await tg.send(ALICE, GROUP, "/newgame сказитель Маскарад")
    feed = await tg.send(ALICE, GROUP, "/deal")
    (refusal,) = texts(feed)
    assert refusal == WRONG_SYSTEM
    assert not any(c.method == "editMessageText" for c in feed.calls)  # no board anywhere
    hit = await tg.send(ALICE, GROUP, "/hit Гриммджо 12")
    assert texts(hit) == [WRONG_SYSTEM]


async def test_a_fight_command_without_a_game_says_how_to_start_one(tg: TelegramDriver) -> None:
    feed = await tg.send(ALICE, GROUP, "/fight")
    (text,) = texts(feed)
    assert text.startswith("Такой игры здесь нет") and "/newgame" in text


async def test_the_same_commands_work_in_a_savage_game(tg: TelegramDriver) -> None:
    await tg.send(ALICE, GROUP, "/newgame дикий Пустые земли")
    feed = await tg.send(ALICE, GROUP, "/fight")
    assert any("Бой начинается" in t for t in texts(feed))


def test_a_chat_adapter_registers_once() -> None:
    (first, *_) = registry.installed()
    with pytest.raises(ValueError):
        registry.register(first)
    assert registry.by_alias("ДИКИЙ") == "savage" and registry.by_alias("wod") == "storyteller"
    assert registry.by_alias("шахматы") is None
