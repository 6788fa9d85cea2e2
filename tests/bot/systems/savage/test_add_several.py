"""`/add` with several names (issue 12, item 11): the names go with commas; one message says
who joined and, for each name that failed, which one and why; the others still join; a
space-separated list that is no one's name gets the comma example."""

from __future__ import annotations

from typing import Any

from aiogram import Dispatcher

from tests.bot.conftest import ALICE, BORIS, GROUP
from tests.bot.systems.savage.test_combat import Table, set_up_table, text_of
from tests.support.telegram import TelegramDriver


def members(state: Any) -> list[str]:
    return [m.name for c in state.combatants for m in c.members]


async def test_several_names_say_which_failed_and_why(
    tg: TelegramDriver, dp: Dispatcher, bot: Any
) -> None:
    table = Table(tg)
    await set_up_table(table)
    await table.say(ALICE, "/fight")

    feed = await table.say(ALICE, "/add Ичиго, Бьякуя, Рукия")
    (reply,) = feed.sent(GROUP.id)  # one message for the whole command
    assert "➕ Ичиго в бою" in reply.text and "➕ Рукия в бою" in reply.text
    assert "⚠️ Не удалось добавить: Бьякуя. Нет персонажа или шаблона с таким именем." in reply.text
    assert reply.text.endswith("Добавлено в бой: Ичиго, Рукия.")
    assert members((await table.state()).state) == ["Ичиго", "Рукия"]
    assert "Ичиго" in table.board().text and "Рукия" in table.board().text

    # «×N» and semicolons work inside the list; nothing failed: no summary line.
    added = text_of(await table.say(ALICE, "/add Пустой ×2; Орихиме"))
    assert "Пустой 1, Пустой 2" in added and "➕ Орихиме в бою" in added
    assert "⚠️" not in added and "Добавлено" not in added
    assert members((await table.state()).state)[2:] == ["Пустой 1", "Пустой 2", "Орихиме"]


async def test_no_name_of_the_list_is_known(tg: TelegramDriver, dp: Dispatcher, bot: Any) -> None:
    table = Table(tg)
    await set_up_table(table)
    await table.say(ALICE, "/fight")
    refused = text_of(await table.say(ALICE, "/add Бьякуя, Кенпачи"))
    assert refused == (
        "⚠️ Не удалось добавить: Бьякуя. Нет персонажа или шаблона с таким именем.\n"
        "⚠️ Не удалось добавить: Кенпачи. Нет персонажа или шаблона с таким именем.\n"
        "Никто не добавлен."
    )
    assert members((await table.state()).state) == []

    # A player may add no one: said once, not once per name.
    player = text_of(await table.say(BORIS, "/add Ичиго, Рукия"))
    assert player.count("ведущий") == 1 and "Не удалось" not in player
    assert members((await table.state()).state) == []


async def test_names_without_commas_get_the_example(
    tg: TelegramDriver, dp: Dispatcher, bot: Any
) -> None:
    table = Table(tg)
    await set_up_table(table)
    await table.say(ALICE, "/fight")
    hint = text_of(await table.say(ALICE, "/add Ичиго Рукия"))
    assert hint == (
        "Нет персонажа или шаблона «Ичиго Рукия». Несколько имён пишите через запятую: "
        "<code>/add Ичиго, Рукия</code>"
    )
    usage = text_of(await table.say(ALICE, "/add"))
    assert "несколько через запятую: <code>/add Ичиго, Рукия</code>" in usage
    # A name with a number is one name: the plain refusal.
    plain = text_of(await table.say(ALICE, "/add Пустой 3"))
    assert "через запятую" not in plain and "Нет персонажа или шаблона" in plain
    assert members((await table.state()).state) == []
