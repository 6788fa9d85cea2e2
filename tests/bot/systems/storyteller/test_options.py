"""The game's options and the healing times in chat, through the fake Bot API: /options
shows and sets the readings and tables (the GM only), a new fight takes them, /heal tells
how long a fighter's wounds take."""

from __future__ import annotations

from engine.services import find_game
from engine.services.storyteller.options import load_options
from engine.storyteller.healing import healing_hours
from engine.storyteller.options import ATTRIBUTE_ONLY, LETHAL, SEED_AIM_TARGETS, AimTarget
from tests.bot.conftest import ALICE, GROUP, VERA
from tests.bot.systems.storyteller.test_fight import Table, said
from tests.support.fake_botapi import ApiCall
from tests.support.telegram import Feed, TelegramDriver

MAX = "Имя: Макс\nАтрибуты: Сила 1, Ловкость 1, Выносливость 1\nСпособности: Рукопашный бой 1"
# «Здоровье»: lethal at Bruised, bashing at Hurt and Injured (the track keeps the worst first)
HURT = MAX.replace("Макс", "Вероника") + "\nЗдоровье: летальные 1, поверхностные 2"
THUG = "Имя: Бандит\nАтрибуты: Ловкость 1, Выносливость 1\nСпособности: Рукопашный бой 1"


async def new_game(table: Table) -> None:
    await table.say(ALICE, "/newgame сказитель Ночной город")
    await table.say(VERA, "/join")


async def game_id() -> int:
    game = await find_game(GROUP.id, None)
    assert game is not None
    return game.id


async def test_the_gm_sets_the_options_and_a_player_cannot(tg: TelegramDriver) -> None:
    table = Table(tg)
    await new_game(table)
    shown = said(await table.say(VERA, "/options"))
    assert "Настройки игры" in shown and "Ведущий проверяет каждую атаку: да" in shown
    assert "Кевларовый жилет 3, штраф 1" in shown  # the default armor table, as rows
    refused = said(await table.say(VERA, "/options проверка нет"))
    assert "ведущ" in refused.lower() and "Сохранено" not in refused
    # «Игрок может ... полагаться только на Атрибут ... Это усложняет действие или делает его
    # невозможным»: this GM reads it as the attribute alone at the same difficulty
    saved = said(await table.say(ALICE, "/options способность атрибут"))
    assert "Сохранено" in saved and "только атрибут, сложность та же" in saved
    feed = await table.say(
        ALICE, "/options оружие Шпага (Сила+2, летальные, сложность 5, Фехтование)"
    )
    assert "Шпага (Сила+2, летальные, сложность 5, Фехтование)" in said(feed)
    await table.say(ALICE, "/options броня Кольчуга 3, штраф 2")
    # the maneuvers' table (absent from the seed): «с тыла ... на два кубика» by default
    assert "тыл +3" in said(await table.say(ALICE, "/options тыл 3"))
    options = await load_options(await game_id())
    assert options.missing_ability == ATTRIBUTE_ONLY and options.rear_dice == 3
    assert options.weapon("шпага") is not None and options.armor_named("Кольчуга") is not None
    await table.say(ALICE, "/options оружие -Шпага")
    assert (await load_options(await game_id())).weapon("Шпага") is None
    bad = said(await table.say(ALICE, "/options броня Кольчуга"))
    assert "Кольчуга" in bad and "Сохранено" not in bad
    assert "Не понимаю" in said(await table.say(ALICE, "/options громкость 11"))
    await table.say(ALICE, "/options сброс")
    assert (await load_options(await game_id())).weapon("Шпага") is None


async def test_a_new_fight_takes_the_games_options(tg: TelegramDriver) -> None:
    table = Table(tg)
    await new_game(table)
    await table.say(VERA, "/char " + MAX)
    await table.say(ALICE, "/npc " + THUG)
    await table.say(ALICE, "/options проверка нет")
    await table.say(ALICE, "/fight")
    await table.say(ALICE, "/add Макс")
    await table.say(ALICE, "/add Бандит")
    await table.say(ALICE, "/init", [5, 3])
    mark = tg.api.mark()
    feed = await table.say(VERA, "/attack Бандит кулак", [2, 2])
    # no review in this game: the attack is told at once, nothing goes to the GM in private
    assert "⚔️ Атака: <b>Макс</b> → <b>Бандит" in said(feed)
    assert tg.api.sent(mark, chat_id=ALICE.id) == []


async def test_heal_tells_the_times_from_the_deepest_wound(tg: TelegramDriver) -> None:
    table = Table(tg)
    await new_game(table)
    await table.say(VERA, "/char " + HURT)
    await table.say(ALICE, "/npc " + THUG)
    await table.say(ALICE, "/fight")
    await table.say(ALICE, "/add Вероника")
    await table.say(ALICE, "/add Бандит")
    told = said(await table.say(VERA, "/heal Вероника"))
    lines = told.splitlines()
    assert lines[1:] == [
        "• Ранен, поверхностные — 1 час",
        "• Поранен, поверхностные — 1 час",
        "• Ушиблен, летальные — 1 день",
        "Всего: 26 часов.",
    ], told
    # the GM asks in the group: the answer goes to the GM privately, the group reads a name
    feed = await table.say(ALICE, "/heal Бандит")
    assert "ран нет" in said(feed, ALICE.id) and "ран нет" not in said(feed)
    assert "только ведущий" in said(feed)
    # an NPC's health is the GM's (the option «скрывать»)
    assert "только ведущий" in said(await table.say(VERA, "/heal Бандит"))


def edits(feed: Feed) -> list[ApiCall]:
    return [c for c in feed.calls if c.method == "editMessageText"]


def answers(feed: Feed) -> list[ApiCall]:
    return [c for c in feed.calls if c.method == "answerCallbackQuery"]


async def test_the_healing_table_is_shown_by_a_tap_and_changed_a_row_at_a_time(
    tg: TelegramDriver,
) -> None:
    table = Table(tg)
    await new_game(table)
    overview = (await table.say(VERA, "/options")).sent(GROUP.id)[0]
    assert "Время излечения: по умолчанию — /options лечение" in overview.text.replace(
        "<code>", ""
    ).replace("</code>", "")
    # a tap shows the table in the same message: no new message in the group
    feed = await table.press(VERA, overview, "Время излечения")
    assert feed.sent(GROUP.id) == []
    shown = edits(feed)[-1].text
    assert "• Ранен: 1 час / 1 неделя / 1 неделя" in shown, shown
    assert "/options лечение летальные Ранен 10д" in shown
    assert [b["text"] for b in edits(feed)[-1].buttons()] == ["⬅️ Все настройки"]
    # the GM changes one row; a player cannot
    refused = said(await table.say(VERA, "/options лечение летальные Ранен 10д"))
    assert "ведущ" in refused.lower() and "Сохранено" not in refused
    reply = (await table.say(ALICE, "/options лечение летальные ранен 10д")).sent(GROUP.id)[0]
    assert "Сохранено" in reply.text and "• Ранен: 1 час / 10 дней / 1 неделя" in reply.text
    assert "изменено ведущим" in reply.text
    options = await load_options(await game_id())
    assert healing_hours(LETHAL, "injured", options) == 10 * 24
    # absurd times are refused in Russian, naming what was written; nothing changes
    for text, words in (
        ("/options лечение летальные Ранен -3д", "от 1 часа до 5 лет: -3д"),
        ("/options лечение летальные Ранен 3", "Не удаётся прочитать время: 3"),
        ("/options лечение огненные Ранен 3д", "Нет такого типа повреждений: огненные"),
        ("/options лечение летальные Мёртв 3д", "Нет такого уровня здоровья: Мёртв"),
    ):
        assert words in said(await table.say(ALICE, text)), text
    assert await load_options(await game_id()) == options
    # back to the defaults by a tap (the GM's)
    assert "Сохранено" not in said(await table.press(VERA, reply, "По умолчанию"))
    assert await load_options(await game_id()) == options
    feed = await table.press(ALICE, reply, "По умолчанию")
    assert healing_hours(LETHAL, "injured", await load_options(await game_id())) == 7 * 24
    assert "по умолчанию" in edits(feed)[-1].text and answers(feed)
    back = await table.press(ALICE, edits(feed)[-1], "Все настройки")
    assert edits(back)[-1].text.startswith("<b>Настройки игры</b>")


async def test_the_aim_table_changes_a_row_and_goes_back_to_the_seeds(
    tg: TelegramDriver,
) -> None:
    table = Table(tg)
    await new_game(table)
    shown = said(await table.say(VERA, "/options прицел"))
    # the seed's «Маленькая (кисть руки, голова, оружие): +2 // +1»
    assert "(таблица из правил)" in shown and "• Маленькая: +2 // +1" in shown
    saved = said(await table.say(ALICE, "/options прицел маленькая 3 2"))
    assert "• Маленькая: +3 // +2" in saved and "• Очень маленькая: +3 // +2" in saved
    options = await load_options(await game_id())
    assert options.aim_target("small") == AimTarget("small", 3, 2, "Маленькая")
    assert "Маленькая +3 // +2" in said(await table.say(VERA, "/options"))
    for text, words in (
        ("/options прицел маленькая 11 1", "от 1 до 10"),
        ("/options прицел маленькая 0 1", "от 1 до 10"),
        ("/options прицел маленькая 2 -1", "от 0 до 10"),
        ("/options прицел огромная 2 1", "огромная"),
        ("/options прицел маленькая два", "/options прицел маленькая 2 1"),
    ):
        assert words in said(await table.say(ALICE, text)), text
    assert await load_options(await game_id()) == options
    said(await table.say(ALICE, "/options прицел сброс"))
    assert (await load_options(await game_id())).aim_targets == SEED_AIM_TARGETS
