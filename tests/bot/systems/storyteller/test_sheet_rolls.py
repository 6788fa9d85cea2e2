"""`/p прыжок` from the roller's sheet (issue 25, item 7): the preset's attribute + ability
as the seed names them, the wound penalty applied, said in the roll; without a character,
how to give the number — never «Бросок обрывается на середине»."""

from __future__ import annotations

from engine.storyteller.character import Character
from engine.storyteller.presets import preset_named, sheet_pool
from engine.storyteller.sheet import parse_sheet
from tests.bot.conftest import ALICE, VERA
from tests.bot.systems.storyteller.test_fight import Table, said
from tests.support.telegram import TelegramDriver

# Strength 2, Athletics 1, Perception 4, Technology 3; lethal at Bruised and bashing at Hurt,
# Injured: the worst marked level is Injured (−1 die)
SHEET = (
    "Имя: Вероника\nАтрибуты: Сила 2, Ловкость 2, Восприятие 4\n"
    "Способности: Атлетизм 1, Технология 3"
)
HURT = "\nЗдоровье: летальные 1, поверхностные 2"


def _character(text: str) -> Character:
    return parse_sheet(text).character


def test_the_sheet_pool_takes_the_best_of_the_seeds_pairs() -> None:
    # «Ремонт (Ловкость / Восприятие + Ремесло / Технология)»: Perception 4 + Technology 3
    index, pool = sheet_pool(_character(SHEET), preset_named("ремонт"))
    assert preset_named("ремонт").pools[index] == ("perception", "technology")
    assert pool.dice == 7
    # «Сила + Атлетика для прыжков с разбега», wounds taking their die
    _, pool = sheet_pool(_character(SHEET + HURT), preset_named("прыжок с разбега"))
    assert pool.dice == 2 + 1 - 1 and pool.difficulty == 3


async def test_a_preset_without_a_number_rolls_the_players_sheet(tg: TelegramDriver) -> None:
    table = Table(tg)
    await table.say(ALICE, "/newgame сказитель Ночной город")
    await table.say(VERA, "/join")
    # no character yet: how to give the number, with an example
    hint = said(await table.say(VERA, "/p прыжок"))
    assert "/p прыжок 4" in hint and "Сила" in hint and "обрывается" not in hint
    await table.say(VERA, "/char " + SHEET + HURT)
    # «Выполняется бросок с сложностью 3» on Strength: 2 dice less the wound's one
    rolled = said(await table.say(VERA, "/p прыжок", [9]))
    assert "по листу «Вероника»: Сила 2 − 1 (раны)" in rolled, rolled
    assert "сложность 3" in rolled
    # with Athletics for a running jump; in a fight the fighter's own wounds count
    await table.say(ALICE, "/fight")
    await table.say(ALICE, "/add Вероника")
    rolled = said(await table.say(VERA, "/p прыжок с разбега сл 4", [9, 9]))
    assert "Сила 2 + Атлетизм 1 − 1 (раны)" in rolled and "сложность 4" in rolled, rolled
    # a number typed is the player's own count, as before
    rolled = said(await table.say(VERA, "/p прыжок 3", [9, 9, 9]))
    assert "по листу" not in rolled
