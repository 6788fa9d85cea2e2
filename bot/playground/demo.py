"""The demo table: a Savage Worlds game in the group, laid out by sending the commands a
newcomer would send, through the real dispatcher (nothing is written to the database
directly). The GM has opened the bot; the players have not (so a hidden roll shows how
Telegram's rule is met). The fight waits for its first deal."""

from __future__ import annotations

from bot.playground.play import Playground
from bot.playground.world import GROUP_ID, PlayChat

GM, FIRST, SECOND = 0, 1, 2  # positions in the playground's cast
SCRIPT = (
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


async def lay_out(play: Playground) -> PlayChat:
    """Send the demo's commands once (a second call only answers the group)."""
    group = play.world.chats[GROUP_ID]
    if play.demo_laid_out:
        return group
    play.demo_laid_out = True
    cast = list(play.world.users)
    for who, text in SCRIPT:
        user = cast[who]
        chat = user if text == "/start" else GROUP_ID
        await play.write(user, chat, text)
    return group
