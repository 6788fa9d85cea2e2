"""Board buttons act on the board as it was shown: the seq in their callback data is checked
inside the step's transaction (engine/services/aggregates/unit.py), so presses that arrive in
one batch — a double tap, a hundred taps — apply once and the rest get the fresh board."""

from __future__ import annotations

import asyncio
from typing import Any

from aiogram import Dispatcher

from bot.render.common import as_plain
from bot.systems.savage.render.combat_turns import board_outdated
from engine.services import aggregates as agg
from engine.services.savage import ENCOUNTER
from tests.bot.conftest import ALICE
from tests.bot.systems.savage.test_combat import Table, set_up_table
from tests.support.telegram import Feed, TelegramDriver


async def fight_of_three(table: Table) -> None:
    await set_up_table(table)
    await table.say(ALICE, "/fight")
    for name in ("Ичиго", "Рукия", "Пустой"):
        await table.say(ALICE, f"/add {name}")
    await table.say(ALICE, "/next")  # round 1 dealt: «Дальше» now moves the turn


def _index(call: Any, action: str) -> int:
    return next(i for i, b in enumerate(call.buttons()) if f":{action}:" in b["callback_data"])


async def presses(tg: TelegramDriver, call: Any, action: str, count: int) -> list[Feed]:
    index = _index(call, action)
    return list(await asyncio.gather(*(tg.press(ALICE, call, index) for _ in range(count))))


def alerts(feeds: list[Feed]) -> list[str]:
    """The alerts answered to the presses (feeds of concurrent updates overlap: one per
    callback query)."""
    answers = {
        c.params["callback_query_id"]: c.params.get("text", "")
        for f in feeds
        for c in f.calls
        if c.method == "answerCallbackQuery" and c.params.get("show_alert") is True
    }
    return list(answers.values())


async def test_a_double_tap_on_next_moves_one_turn(tg: TelegramDriver, dp: Dispatcher) -> None:
    table = Table(tg)
    await fight_of_three(table)
    before = await table.state()
    steps_before = len(await agg.history(before.game_id, before.stream))
    feeds = await presses(tg, table.board(), "next", 2)
    after = await table.state()
    assert len(await agg.history(after.game_id, after.stream)) == steps_before + 1
    assert after.state.current != before.state.current
    assert alerts(feeds) == [as_plain(board_outdated())]  # the second press: the fresh board


async def test_a_hundred_taps_on_next_move_one_turn(tg: TelegramDriver, dp: Dispatcher) -> None:
    table = Table(tg)
    await fight_of_three(table)
    before = await table.state()
    steps_before = len(await agg.history(before.game_id, before.stream))
    feeds = await presses(tg, table.board(), "next", 100)
    after = await table.state()
    assert len(await agg.history(after.game_id, after.stream)) == steps_before + 1
    assert len(alerts(feeds)) == 99
    state, seq = await agg.load(ENCOUNTER, after.game_id, after.stream, rebuild=True)
    assert (state, seq) == (after.state, after.seq)


async def test_a_double_tapped_undo_undoes_one_step(tg: TelegramDriver, dp: Dispatcher) -> None:
    table = Table(tg)
    await fight_of_three(table)
    await presses(tg, table.board(), "next", 1)
    moved = await table.state()
    feeds = await presses(tg, table.board(), "undo", 2)
    after = await table.state()
    steps = await agg.history(after.game_id, after.stream)
    undos = [s for s in steps if s.kind == "undo"]
    assert len(undos) == 1 and undos[0].undoes == steps[-2].step
    assert after.state.current != moved.state.current  # back to the turn before «Дальше»
    assert alerts(feeds) == [as_plain(board_outdated())]
