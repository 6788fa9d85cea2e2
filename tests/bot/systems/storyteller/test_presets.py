"""A preset of the seed's actions through the shared /p: the pool at the action's
difficulty and what the successes mean, in Russian."""

from __future__ import annotations

from engine.dice.rng import ScriptedRng
from tests.bot.conftest import ALICE, GROUP
from tests.support.telegram import TelegramDriver


async def test_a_jump_in_chat(tg: TelegramDriver) -> None:
    tg.dp["rng"] = ScriptedRng([3, 5, 1, 9])
    feed = await tg.send(ALICE, GROUP, "/p прыжок 4")
    text = feed.only_text()
    assert "сложность 3" in text and "прыжок" in text
    assert "100 см вверх или на 2 м вперёд" in text
    tg.dp["rng"] = ScriptedRng([9, 9, 9])
    text = (await tg.send(ALICE, GROUP, "/p допрос 3")).only_text()
    assert "3 сведения" in text
