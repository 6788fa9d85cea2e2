"""Helpful errors in the chat: an unknown command or a typo gets the likely command, a
Cyrillic «command» the Latin one, a die with spaces the glued notation; other bots'
commands are left alone; /help is a short menu whose buttons open its sections."""

from __future__ import annotations

from aiogram import Dispatcher

from engine.dice import ScriptedRng
from tests.bot.conftest import ALICE, GROUP
from tests.support.fake_botapi import BOT_USERNAME
from tests.support.telegram import TelegramDriver, private


async def test_typos_get_the_likely_command(tg: TelegramDriver, dp: Dispatcher) -> None:
    await tg.send(ALICE, GROUP, "/newgame дикий Тени")
    nxt = (await tg.send(ALICE, GROUP, "/nxt")).only_text()
    assert nxt == (
        "Неизвестная команда. Возможно, вы имели в виду <code>/next</code>? Все команды: /help"
    )
    glued = (await tg.send(ALICE, GROUP, "/r2d6 удар")).only_text()
    assert "<code>/r 2d6 удар</code>" in glued
    cyrillic = (await tg.send(ALICE, GROUP, "/р 2d6")).only_text()
    assert cyrillic.startswith("Telegram понимает команды только латиницей")
    assert "<code>/r 2d6</code>" in cyrillic


async def test_a_die_with_spaces_is_not_rolled_as_a_number(
    tg: TelegramDriver, dp: Dispatcher
) -> None:
    dp["rng"] = ScriptedRng([])
    spaced = await tg.send(ALICE, GROUP, "/r 2 к 6")
    assert spaced.only_text() == "Пишите кубик без пробелов внутри: <code>/r 2к6</code>"
    dp["rng"] = ScriptedRng([3, 4])
    assert "<b>7</b>" in (await tg.send(ALICE, GROUP, "/r 2к6")).only_text()


async def test_other_bots_commands_are_left_alone(tg: TelegramDriver) -> None:
    assert (await tg.send(ALICE, GROUP, "/ban")).sent() == []
    assert (await tg.send(ALICE, GROUP, "/nxt@other_bot")).sent() == []
    mine = (await tg.send(ALICE, GROUP, f"/ban@{BOT_USERNAME}")).only_text()
    assert mine == "Такой команды я не знаю. Все команды: /help"
    assert "/help" in (await tg.send(ALICE, private(ALICE), "/ban")).only_text()


async def test_help_is_a_short_menu_with_sections(tg: TelegramDriver) -> None:
    [menu] = (await tg.send(ALICE, GROUP, "/help")).sent()
    assert len(menu.text) < 500
    labels = [b["text"] for b in menu.buttons()]
    assert labels[:3] == ["🎲 Броски", "🔒 Скрытые броски", "👥 Игры"]
    assert "📱 Mini App" in labels and any("Savage Worlds" in label for label in labels)
    assert "@BotFather" not in menu.text

    pressed = await tg.press(ALICE, menu, labels.index("🎲 Броски"))
    [edit] = [c for c in pressed.calls if c.method == "editMessageText"]
    for example in ("/r 2к6+1 удар мечом", "/t d8+1", "/dmg 2к6+1 против 6", "/p 7 6"):
        assert example in edit.text
    assert edit.buttons()[0]["text"] == "· 🎲 Броски ·"
    hidden = await tg.press(ALICE, menu, labels.index("🔒 Скрытые броски"))
    [edit] = [c for c in hidden.calls if c.method == "editMessageText"]
    assert "/hr 2к6" in edit.text and "/timezone" in edit.text


async def test_a_hidden_die_with_spaces_is_not_rolled(tg: TelegramDriver) -> None:
    await tg.send(ALICE, GROUP, "/newgame дикий Тени")
    spaced = await tg.send(ALICE, GROUP, "/hr t d 8")
    assert spaced.only_text() == "Пишите кубик без пробелов внутри: <code>/hr t d8</code>"
