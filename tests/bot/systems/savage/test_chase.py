"""A chase played through the fake Bot API (issue 4, «In chat»), from the set-up to a
successful Flee (seed 001): the row kept in one message, the turns following /next,
refusals for moving someone else's participant and for a Flee that is too close."""

from __future__ import annotations

import random
from typing import Any

from tests.bot.conftest import ALICE, BORIS, VERA
from tests.bot.systems.savage.test_combat import GRIMMJOW, ICHIGO, Table, text_of
from tests.support.fake_botapi import ApiCall
from tests.support.telegram import TelegramDriver

ROW_TITLE = "🏃 <b>"


def row(table: Table) -> ApiCall:
    calls = [
        c
        for c in table.api.calls
        if c.method in ("sendMessage", "editMessageText")
        and c.text.startswith(ROW_TITLE)
        and c.result is not None
    ]
    return calls[-1]


async def test_a_chase_from_start_to_flee(tg: TelegramDriver) -> None:
    table = Table(tg)
    await table.say(ALICE, "/newgame дикий Пустые земли")
    await table.say(BORIS, "/join")
    await table.say(VERA, "/join")
    await table.say(BORIS, "/char " + ICHIGO)
    await table.say(ALICE, "/fight")
    await table.say(ALICE, "/add Ичиго")
    await table.say(ALICE, "/add " + GRIMMJOW)

    # Seed 001 line 7: nine chase cards in a row, shown with suit and value.
    tg.dp["rng"] = random.Random(7)
    started = text_of(await table.say(ALICE, "/chase"))
    assert "Погоня начинается: в ряду карт — 9" in started
    first_row = row(table)
    row_id = first_row.result["message_id"]
    assert len([line for line in first_row.text.splitlines() if line.startswith("<code>")]) == 9
    # Line 8: each participant on a card; a player cannot set up the chase.
    assert "Ичиго («беглецы») на карте 5" in text_of(
        await table.say(ALICE, "/chase add Ичиго беглецы 5")
    )
    assert text_of(await table.say(BORIS, "/chase add Гриммджо погоня 2")).startswith(
        "Это может только ведущий"
    )
    await table.say(ALICE, "/chase add Гриммджо преследователи 2")
    assert "Ичиго ↔ Гриммджо: 3" in row(table).text

    # Line 9: the action cards of the fight give the turns; the row is edited in place.
    faces = await table.shuffle("KS", "QS", "3H")  # Ichigo is Level Headed
    dealt = await table.say(ALICE, "/next", faces)
    text = text_of(dealt)
    # one message (issue 12, item 1): the chase round in it, no «ходит по карте» line
    assert "Раунд погони 1" in text and "ходит по карте" not in text
    assert len(dealt.sent()) == 1
    edits = [
        c for c in dealt.calls if c.method == "editMessageText" and c.text.startswith(ROW_TITLE)
    ]
    assert edits and {c.params["message_id"] for c in edits} == {row_id}
    assert "<b>Ичиго</b>▶️" in row(table).text

    # Line 45: no Flee at three cards.
    too_close = text_of(await table.say(BORIS, "/flee"))
    assert too_close == "Для отрыва нужно не меньше 4 карт до ближайшего противника (сейчас 3)."
    # Players move only what they control.
    assert "только своих персонажей" in text_of(await table.say(VERA, "/move Ичиго вперёд"))

    # Line 14: Change Position as a free action, a raise moves two cards.
    moved = text_of(await table.say(BORIS, "/move вперёд", [8, 4, 3]))
    assert "Ичиго меняет позицию" in moved and "2 карты вперёд" in moved
    assert "Ичиго ↔ Гриммджо: 5" in row(table).text
    again = text_of(await table.say(BORIS, "/move вперёд"))
    assert again == "Ичиго: позиция в этот ход уже сменена."

    # Lines 45-46: at five cards the Flee roll is at −2; success ends the chase.
    fled = text_of(await table.say(BORIS, "/flee", [6, 2]))
    assert "−2 Отрыв" in fled and "отрывается!" in fled
    assert "Погоня окончена: беглецы оторвались" in fled
    assert row(table).text.startswith("🏃 <b>Погоня окончена</b>")
    closed = text_of(await table.say(ALICE, "/chase end"))
    assert "Погоня закрыта" in closed


async def test_undoing_the_deal_takes_back_the_chase_turn_it_opened(tg: TelegramDriver) -> None:
    table = Table(tg)
    await table.say(ALICE, "/newgame дикий Пустые земли")
    await table.say(BORIS, "/join")
    await table.say(BORIS, "/char " + ICHIGO)
    await table.say(ALICE, "/fight")
    await table.say(ALICE, "/add Ичиго")
    await table.say(ALICE, "/add " + GRIMMJOW)
    await table.say(ALICE, "/chase")
    await table.say(ALICE, "/chase add Ичиго беглецы 5")
    await table.say(ALICE, "/chase add Гриммджо преследователи 2")
    before = row(table).text
    await table.say(ALICE, "/next", await table.shuffle("KS", "QS", "3H"))
    assert "<b>Ичиго</b>▶️" in row(table).text and "раунд 1" in row(table).text
    # The chase round and turn were caused by that deal: /undo takes them back as well,
    # and the row message reads as before the deal.
    await table.say(ALICE, "/undo")
    assert row(table).text == before


async def test_chase_needs_a_fight_and_the_gm(tg: TelegramDriver, **_: Any) -> None:
    table = Table(tg)
    await table.say(ALICE, "/newgame дикий Пустые земли")
    await table.say(BORIS, "/join")
    assert text_of(await table.say(ALICE, "/chase")) == "В этой игре сейчас нет боя."
    # /next reads no fight before its own step: the step's transaction refuses it alike
    assert text_of(await table.say(ALICE, "/next")) == "В этой игре сейчас нет боя."
    await table.say(ALICE, "/fight")
    assert text_of(await table.say(BORIS, "/chase")) == "Это может только ведущий игры."
