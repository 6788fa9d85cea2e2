"""The playground's demo table of the Storyteller system: a game in a group of its own, two
players' characters and the GM's NPC template, a fight with initiative rolled, and the first
attack of whoever is up waiting for the GM's review in the GM's private chat."""

from __future__ import annotations

from aiogram.utils.i18n import gettext as _

from bot.systems.demo import GM, Demo, DemoTable
from engine.services import find_game
from engine.services.storyteller import current_fight

FIRST, SECOND = 1, 2  # the players' positions in the playground's cast
GAME = "Ночной город"
LISA = """Имя: Лиза
Атрибуты: Сила 2, Ловкость 4, Выносливость 2, Обаяние 3, Манипулирование 2, Внешность 3, \
Восприятие 3, Интеллект 2, Сообразительность 3
Способности: Огнестрельное оружие 3, Уворот 3, Бдительность 2, Маскировка 2
Специализации: Огнестрельное оружие (пистолеты)
Сила воли: 5
Броня: Кевларовый жилет
Оружие: Пистолет; Нож
Поглощает летальные: нет"""
ARTEM = """Имя: Артём
Атрибуты: Сила 4, Ловкость 3, Выносливость 3, Обаяние 2, Манипулирование 2, Внешность 2, \
Восприятие 2, Интеллект 2, Сообразительность 2
Способности: Рукопашный бой 3, Фехтование 3, Атлетизм 2, Запугивание 2
Сила воли: 4
Броня: Укреплённая одежда
Оружие: Дубинка
Поглощает летальные: нет"""
THUG = """Имя: Вышибала
Атрибуты: Сила 4, Ловкость 2, Выносливость 3, Обаяние 1, Манипулирование 2, Внешность 1, \
Восприятие 2, Интеллект 1, Сообразительность 2
Способности: Рукопашный бой 3, Фехтование 2, Запугивание 3, Бдительность 1
Сила воли: 3
Оружие: Нож
Поглощает летальные: нет"""
FIGHTERS = ("Лиза", "Артём", "Вышибала")


async def play(table: DemoTable) -> None:
    await table.start(GM)  # the GM's review of each attack comes in the private chat
    await table.say(GM, f"/newgame сказитель {GAME}")
    await table.say(FIRST, "/join")
    await table.say(SECOND, "/join")
    await table.say(FIRST, "/char " + LISA)
    await table.say(SECOND, "/char " + ARTEM)
    await table.say(GM, "/npc " + THUG)
    # the demo's attack goes straight to the GM (at a table, an attacked player chooses a
    # defense first, by tapping: /options защита-время)
    await table.say(GM, "/options защита-время 0")
    await table.say(GM, "/fight")
    for name in FIGHTERS:
        await table.say(GM, f"/add {name}")
    await table.say(GM, "/init")
    await first_attack(table)


async def first_attack(table: DemoTable) -> None:
    """Whoever is up attacks (the dice decide who): a character the NPC, the NPC a character;
    the attack waits for the GM."""
    game = await find_game(table.chat_id, table.thread_id)
    view = None if game is None else await current_fight(game.id)
    fight = None if view is None else view.state
    if fight is None or fight.turn is None or not fight.turn.up():
        raise LookupError("the demo's fight has no one up")
    attacker = fight.fighter(fight.turn.up()[0])
    target = next(f for f in fight.fighters if f.npc != attacker.npc)
    who = GM if attacker.owner is None else table.cast.index(attacker.owner)
    # with the attacker's first weapon
    await table.say(who, f"/attack {attacker.character.name} {target.character.name}")


def demo_hint() -> str:
    return _(
        "A Storyteller game in a group of its own: two players' characters and an NPC, "
        "initiative rolled, the first attack waiting for the GM's review."
    )


DEMO = Demo(play, demo_hint, chat=GAME)
