"""Chases that just work (issue 12, item 4): a chase started in the middle of a fight round
is playable at once, «not taking a turn» never hides that the GM must open it, `/chase stop`
and `/chase end` are one notion, a new `/chase` after the end starts a new chase, and the
end says who got away."""

from __future__ import annotations

import random

from tests.bot.conftest import ALICE, BORIS
from tests.bot.systems.savage.test_chase import row
from tests.bot.systems.savage.test_combat import GRIMMJOW, ICHIGO, Table, text_of
from tests.support.telegram import TelegramDriver


async def fight_in_round(table: Table) -> None:
    await table.say(ALICE, "/newgame дикий Пустые земли")
    await table.say(BORIS, "/join")
    await table.say(BORIS, "/char " + ICHIGO)
    await table.say(ALICE, "/fight")
    await table.say(ALICE, "/add Ичиго")
    await table.say(ALICE, "/add " + GRIMMJOW)
    faces = await table.shuffle("KS", "QS", "3H")  # Ichigo (Level Headed) keeps K♠
    await table.say(ALICE, "/next", faces)
    assert (await table.state()).state.current == "ichigo"


async def test_a_chase_started_mid_round_is_playable_at_once(tg: TelegramDriver) -> None:
    table = Table(tg)
    await fight_in_round(table)
    tg.dp["rng"] = random.Random(7)
    await table.say(ALICE, "/chase")
    await table.say(ALICE, "/chase add Ичиго беглецы 8")
    opened = text_of(await table.say(ALICE, "/chase add Гриммджо преследователи 1"))
    # the chase round opens with the second side, and Ichigo, acting in the fight, acts
    assert "Раунд погони 1" in opened and "Ичиго ходит по карте K♠" in opened
    assert "<b>Ичиго</b>▶️" in row(table).text
    moved = text_of(await table.say(BORIS, "/move вперёд", [5, 2]))
    assert "Ичиго меняет позицию" in moved

    # A turn closed by hand: the refusal says what the GM does, not «not taking a turn».
    await table.say(ALICE, "/chase undo")
    await table.say(ALICE, "/chase undo")
    refused = text_of(await table.say(BORIS, "/move вперёд"))
    assert "/chase turn" in refused and "сейчас не ходит" not in refused


async def test_end_and_stop_are_one_and_a_new_chase_follows(tg: TelegramDriver) -> None:
    table = Table(tg)
    await fight_in_round(table)
    tg.dp["rng"] = random.Random(7)
    await table.say(ALICE, "/chase")
    await table.say(ALICE, "/chase add Ичиго беглецы 9")
    await table.say(ALICE, "/chase add Гриммджо преследователи 1")
    fled = text_of(await table.say(BORIS, "/flee", [8, 1, 2]))  # 8 cards apart: no penalty
    assert "Погоня окончена" in fled and "Ушли от погони: Ичиго" in fled
    assert "Не ушли (в погоне до конца): Гриммджо" in fled
    # the chase ended by itself: a new /chase starts a new one at once
    tg.dp["rng"] = random.Random(8)
    again = text_of(await table.say(ALICE, "/chase"))
    assert "Погоня начинается" in again
    await table.say(ALICE, "/chase add Ичиго беглецы 5")
    await table.say(ALICE, "/chase add Гриммджо преследователи 2")
    stopped = text_of(await table.say(ALICE, "/chase stop"))  # stop = end
    assert "Погоня окончена" in stopped and "Погоня закрыта" in stopped
    assert "Погоня начинается" in text_of(await table.say(ALICE, "/chase"))
