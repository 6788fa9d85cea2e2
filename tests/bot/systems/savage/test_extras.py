"""Groups of Extras in chat (issue 12, item 3): numbering goes on from group to group, the
«×N» may be written with a Latin x, a Cyrillic х or ×, `/remove` takes only a whole name and
asks before removing a whole group, and no internal id reaches the chat."""

from __future__ import annotations

from typing import Any

from aiogram import Dispatcher

from tests.bot.conftest import ALICE
from tests.bot.systems.savage.test_combat import Table, set_up_table, text_of
from tests.support.telegram import TelegramDriver


def members(state: Any) -> list[str]:
    return [m.name for c in state.combatants for m in c.members]


def every_text(table: Table) -> str:
    return "\n".join(c.text for c in table.api.calls if c.text)


async def test_extras_are_numbered_on_and_removed_with_care(
    tg: TelegramDriver, dp: Dispatcher, bot: Any
) -> None:
    table = Table(tg)
    await set_up_table(table)
    await table.say(ALICE, "/fight")
    first = text_of(await table.say(ALICE, "/add Пустой ×2"))
    assert "Пустой 1, Пустой 2" in first
    second = text_of(await table.say(ALICE, "/add Пустой x2"))  # a Latin x
    assert "Пустой 3, Пустой 4" in second and "Пустой 1" not in second
    third = text_of(await table.say(ALICE, "/add Пустой х1"))  # a Cyrillic х
    assert "Пустой 5 в бою" in third
    view = await table.state()
    assert members(view.state) == [f"Пустой {n}" for n in range(1, 6)]

    # An unknown name is refused and removes nothing (not the group «Пустой» it begins).
    refused = text_of(await table.say(ALICE, "/remove Пустой 7"))
    assert "Пустой 7" in refused and "нет никого" in refused
    assert members((await table.state()).state) == members(view.state)

    # A member of a group leaves alone.
    await table.say(ALICE, "/remove Пустой 2")
    assert "Пустой 2" not in members((await table.state()).state)
    assert "Пустой 1" in members((await table.state()).state)

    # A whole group only after the GM confirms it.
    asked = await table.say(ALICE, "/remove Пустой 3–4")
    (question,) = asked.sent()
    assert "Пустой 3–4" in question.text and "2 бойца" in question.text
    await table.press(ALICE, question, "Отмена")
    assert "Пустой 3" in members((await table.state()).state)
    (question,) = (await table.say(ALICE, "/remove Пустой 3–4")).sent()
    await table.press(ALICE, question, "Убрать всех")
    left = members((await table.state()).state)
    assert "Пустой 3" not in left and "Пустой 4" not in left and "Пустой 5" in left

    undone = text_of(await table.say(ALICE, "/undo"))  # the group comes back, named
    assert undone.startswith("↩️ Отменено: ➖ Пустой 3–4")
    assert "pustoy" not in every_text(table)  # no internal id anywhere, undo included
