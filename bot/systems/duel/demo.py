"""The playground's demo table of the forum duel: a game in a topic of the forum group, a
player's fighter against the GM's, the duel started, the player's first turn sent by the
form's buttons in the private chat (its sealed receipt in the topic), the GM's turn waiting
in the GM's private chat."""

from __future__ import annotations

from aiogram.utils.i18n import gettext as _

from bot.systems.demo import GM, Demo, DemoTable

PLAYER = 3  # the third player of the playground's cast: the other tables' two stay new
TOPIC = "Дуэль на мосту"
INGRID = """Ингрид
Класс: Рейдер
Атака 2, Блок 1, Уклонение 0, Урон d8, ХП 24, Броня 1"""
KENJI = """Кэндзи
Класс: Кенсей
Атака 1, Блок 0, Уклонение 2, Урон d6, ХП 18, Броня 0"""


async def play(table: DemoTable) -> None:
    for who in (GM, PLAYER):  # the forms come to the private chats
        await table.start(who)
    await table.say(GM, "/newgame дуэль Мост")
    await table.say(PLAYER, "/join")
    await table.say(PLAYER, "/fighter " + INGRID)
    await table.say(GM, "/fighter " + KENJI)  # the GM's: the GM plays it
    await table.say(GM, "/duel Ингрид против Кэндзи")
    # The player's turn by the form's buttons: an attack and a block from the left (the form
    # goes on to the AP by itself), one AP on the attack, send.
    await table.press_under(PLAYER, "⚔️ ", "⬅️")
    await table.press_under(PLAYER, "🛡 ", "⬅️")
    for label in ("+", "✉️"):
        await table.press(PLAYER, label)


def demo_hint() -> str:
    return _(
        "A forum duel in a topic of the forum group: a player's fighter against the GM's, "
        "the player's turn sealed (its receipt in the topic), the GM's turn waiting."
    )


DEMO = Demo(play, demo_hint, chat=TOPIC, forum=True)
