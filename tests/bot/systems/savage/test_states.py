"""Consistent states on the board (issue 12, item 9): the dead show only «нет в живых», an
Extra who is out only «вне боя», and a Shaken character's turn offers «Снять Шок» first."""

from __future__ import annotations

from typing import Any

from aiogram import Dispatcher

from tests.bot.conftest import ALICE, BORIS
from tests.bot.systems.savage.test_combat import GRIMMJOW, Table, set_up_table
from tests.support.telegram import TelegramDriver


def line_of(board: str, name: str) -> str:
    return next(line for line in board.splitlines() if name in line)


async def test_out_dead_and_shaken_on_the_board(
    tg: TelegramDriver, dp: Dispatcher, bot: Any
) -> None:
    table = Table(tg)
    await set_up_table(table)
    await table.say(ALICE, "/fight")
    for name in ("Ичиго", GRIMMJOW, "Пустой ×2"):
        await table.say(ALICE, f"/add {name}")
    await table.say(ALICE, "/status Гриммджо раны 2 мертв 1")
    await table.say(ALICE, "/hit Пустой 1 20")  # Toughness 7: a Wound, the Extra is out
    await table.say(ALICE, "/shaken Ичиго")
    faces = await table.shuffle("AS", "2C", "3D")  # Ichigo (Level Headed) keeps the ace
    await table.say(ALICE, "/next", [*faces, 1, 2])  # Spirit d8 1, Wild Die 2: still Shaken

    board = table.board()
    dead = line_of(board.text, "Гриммджо")
    assert "💀 нет в живых" in dead and "🎲" not in dead and "Ран" not in dead
    out = line_of(board.text, "Пустой 1")
    assert out.split("Пустой 1", 1)[1].strip(" </s>") == "✖ вне боя"
    assert "▶️" in line_of(board.text, "Ичиго")
    first = board.buttons()[0]["text"]
    assert "Снять Шок" in first  # a Shaken character's first business (seed 000 line 69)

    await table.press(BORIS, board, "Снять Шок")
    view = await table.state()
    ichigo = view.state.character("ichigo")
    assert not ichigo.status.shaken and ichigo.bennies == 2
    assert "Снять Шок" not in " ".join(b["text"] for b in table.board().buttons())
