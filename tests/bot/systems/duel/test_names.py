"""Fighters' names and numbers in a duel game's chat: /fighter keeps a name without its
invisible characters, refuses one that looks just like another fighter's, and a number past
the bound every sheet shares (engine/sheet_numbers.py) with the same sentence as any sheet."""

from __future__ import annotations

from engine.duel import format_sheet
from engine.services import duel as duels
from engine.services import find_game
from tests.bot.conftest import ALICE, BORIS
from tests.bot.systems.duel.test_duel import FORUM, arena
from tests.engine.duel.six_turns import BJORN
from tests.support.fake_botapi import ApiCall
from tests.support.telegram import TelegramDriver


def text(calls: list[ApiCall]) -> str:
    return "\n".join(c.text for c in calls if c.method == "sendMessage")


async def test_fighter_names_and_numbers(tg: TelegramDriver) -> None:
    table = await arena(tg)  # Бьорн and Такеда saved
    latin = text(
        await table.say(BORIS, "/fighter " + format_sheet(BJORN).replace("Бьорн", "Бьoрн"))
    )
    assert "Имя «Бьoрн» выглядит точно как «Бьорн»" in latin
    clean = text(
        await table.say(ALICE, "/fighter " + format_sheet(BJORN).replace("Бь", "Б\u200bь"))
    )
    assert "Боец сохранён:" in clean and "\u200b" not in clean
    huge = text(await table.say(ALICE, "/fighter Ингрид\nУрон d8, Хп " + "9" * 19))
    assert huge.startswith("Слишком большое число: 9999999999999999999.")
    assert "не больше 1000000 по модулю" in huge
    game = await find_game(FORUM.id, None)
    assert game is not None
    assert sorted(f.name for f in await duels.list_fighters(game.id)) == ["Бьорн", "Такеда"]
