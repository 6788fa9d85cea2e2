"""Names and numbers typed in the chat (engine/services/names.py, engine/sheet_numbers.py),
through the fake Bot API: a name too long for the library gets a Russian refusal, not «Что-то
пошло не так»; invisible characters are not kept; a name that looks just like another one of
the game is refused, naming it, so /chars never lists two names that read alike; a number past
the bound every sheet shares is refused with its sentence."""

from __future__ import annotations

from typing import Any

from aiogram import Dispatcher

from engine.services import find_game
from engine.services.savage import list_characters
from tests.bot.conftest import ALICE, BORIS, GROUP
from tests.bot.systems.savage.test_combat import GRIMMJOW, Table, set_up_table, text_of
from tests.support.telegram import TelegramDriver

SOMETHING_WRONG = "Что-то пошло не так"
TOO_LONG = "Имя длиннее 255 символов: сократите его."


async def library(tg: TelegramDriver) -> list[str]:
    game = await find_game(GROUP.id, None)
    assert game is not None
    return [r.name for r in await list_characters(game.id)]


async def test_a_name_too_long_for_add_is_refused_in_russian(
    tg: TelegramDriver, dp: Dispatcher, bot: Any
) -> None:
    table = Table(tg)
    await set_up_table(table)
    await table.say(ALICE, "/fight")
    refused = text_of(await table.say(ALICE, "/add " + "Я" * 300))
    assert refused == TOO_LONG
    # one of several names: the others still join, and the long one says why
    several = text_of(await table.say(ALICE, "/add " + "Я" * 300 + ", Ичиго"))
    assert SOMETHING_WRONG not in several
    assert f"⚠️ Не удалось добавить: {'Я' * 300}. {TOO_LONG}" in several
    assert "➕ Ичиго в бою" in several
    # a number no saved entry has is no one, not an error
    nobody = text_of(await table.say(ALICE, "/add " + "9" * 40))
    assert "Нет персонажа или шаблона" in nobody and SOMETHING_WRONG not in nobody


async def _table_with_grimmjow(tg: TelegramDriver) -> Table:
    table = Table(tg)
    await set_up_table(table)  # Ичиго (Boris's), Рукия, Орихиме (Vera's), Пустой (the GM's)
    await table.say(ALICE, "/char " + GRIMMJOW)
    return table


async def test_a_zero_width_space_is_not_kept(tg: TelegramDriver, dp: Dispatcher, bot: Any) -> None:
    table = await _table_with_grimmjow(tg)
    # «И\u200bчиго» is Ichigo: saved as «Ичиго», Boris's entry replaced
    saved = text_of(await table.say(BORIS, "/char " + GRIMMJOW.replace("Гриммджо", "И\u200bчиго")))
    assert "Сохранено: <b>Ичиго</b>" in saved and "\u200b" not in saved
    assert sorted(await library(tg)) == ["Гриммджо", "Ичиго", "Орихиме", "Пустой", "Рукия"]


async def test_a_latin_letter_beside_the_real_name_is_refused(
    tg: TelegramDriver, dp: Dispatcher, bot: Any
) -> None:
    table = await _table_with_grimmjow(tg)
    # «Гриммджo» with a Latin «o» beside «Гриммджо»: refused, naming the real one
    latin = text_of(await table.say(ALICE, "/char " + GRIMMJOW.replace("Гриммджо", "Гриммджo")))
    assert latin.startswith("Имя «Гриммджo» выглядит точно как «Гриммджо»")
    assert sorted(await library(tg)) == ["Гриммджо", "Ичиго", "Орихиме", "Пустой", "Рукия"]
    listed = text_of(await table.say(ALICE, "/chars"))
    assert listed.count("Гриммдж") == 1


async def test_invisible_and_bidi_characters_are_not_names(
    tg: TelegramDriver, dp: Dispatcher, bot: Any
) -> None:
    table = await _table_with_grimmjow(tg)
    # a name of invisible characters only, and a right-to-left override
    blank = text_of(await table.say(ALICE, "/char \u200b\u2060 (Дикий) Дух d8"))
    assert blank == "Имя пустое: в нём нет ни одного видимого символа."
    rtl = text_of(await table.say(BORIS, "/char \u202eКон (Дикий) Дух d8"))
    assert "Сохранено: <b>Кон</b>" in rtl
    names = await library(tg)
    assert sorted(names) == ["Гриммджо", "Ичиго", "Кон", "Орихиме", "Пустой", "Рукия"]
    listed = text_of(await table.say(ALICE, "/chars"))
    assert not any(ch in listed for ch in "\u200b\u2060\u202e")


async def test_toughness_past_the_bound_is_refused(
    tg: TelegramDriver, dp: Dispatcher, bot: Any
) -> None:
    table = Table(tg)
    await set_up_table(table)
    huge = text_of(await table.say(BORIS, "/char Кон (Дикий) Дух d8; Стойкость " + "1" + "0" * 18))
    assert huge.startswith(
        "Слишком большое число: 1000000000000000000. Число в листе персонажа — не больше "
        "1000000 по модулю."
    )
    assert SOMETHING_WRONG not in huge
    assert "Кон" not in await library(tg)
