"""The playground's demo table of Savage Worlds: a game in the group, the players' and the
GM's characters (Extras as a template), and a fight ready for its first deal."""

from __future__ import annotations

from aiogram.utils.i18n import gettext as _

GM, FIRST, SECOND = 0, 1, 2  # positions in the playground's cast
DEMO = (
    (GM, "/start"),  # in the GM's private chat
    (GM, "/newgame savage Пустые земли"),
    (FIRST, "/join"),
    (SECOND, "/join"),
    (
        FIRST,
        "/char Ичиго (Дикий) Ловкость d8, Смекалка d6, Дух d8, Сила d10, Выносливость d8; "
        "Драка d10, Атлетика d8, Внимание d6; Защита 7, Стойкость 8 (2); Бенни 3",
    ),
    (
        SECOND,
        "/char Рукия (Дикий) Ловкость d8, Смекалка d8, Дух d10, Сила d6, Выносливость d6; "
        "Стрельба d8, Драка d6, Внимание d8; Защита 5, Стойкость 6 (1); Бенни 3",
    ),
    (
        GM,
        "/char Гриммджо (Дикий) Ловкость d10, Смекалка d6, Дух d6, Сила d12, Выносливость d10; "
        "Драка d12, Запугивание d8; Защита 8, Стойкость 10 (3)",
    ),
    (
        GM,
        "/char Пустой (Статист, ×3) Ловкость d6, Смекалка d4, Дух d4, Сила d8, "
        "Выносливость d6; Драка d6; Защита 5, Стойкость 6 (1)",
    ),
    (GM, "/fight"),
    (GM, "/add Ичиго"),
    (GM, "/add Рукия"),
    (GM, "/add Гриммджо"),
    (GM, "/add Пустой ×3"),
)


def demo_hint() -> str:
    return _(
        "A Savage Worlds game in the group: a GM, two players, their characters, NPC "
        "templates and a fight ready to deal."
    )
