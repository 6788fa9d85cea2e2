"""A SWADE game with a fight (and optionally a chase) for the board tests: Аня (PLAYER_ID)
plays Ичиго, Борис (OTHER_ID) plays Рукия; the GM has Гриммджо and three Hollows."""

from __future__ import annotations

import random

from engine.savage import chase
from engine.services.savage import (
    add_to_encounter,
    chase_command,
    save_character,
    start_chase,
    start_encounter,
)
from engine.services.types import GameInfo
from tests.webapp.conftest import GM_ID, OTHER_ID, PLAYER_ID, make_game

ICHIGO = (
    "Ичиго (Дикий) Ловкость d8, Смекалка d6, Дух d8, Сила d10, Выносливость d8; "
    "Драка d10, Атлетика d8; Защита 7, Стойкость 8 (2); Бенни 3"
)
RUKIA = (
    "Рукия (Дикая) Ловкость d8, Смекалка d8, Дух d8, Сила d6, Выносливость d6; "
    "Драка d8, Стрельба d8, Атлетика d8; Защита 6, Стойкость 5; Бенни 2"
)
GRIMMJOW = (
    "Гриммджо (Дикий) Ловкость d10, Смекалка d6, Дух d8, Сила d12, Выносливость d10; "
    "Драка d12, Атлетика d10; Защита 8, Стойкость 9 (1); Бенни 1"
)
HOLLOWS = "Пустой (Статист, ×3) Дух d4, Сила d8; Драка d6; Защита 5, Стойкость 7"


async def make_fight(*, chase_too: bool = False, chat_id: int = -100777) -> GameInfo:
    game = await make_game("savage", chat_id=chat_id)
    await save_character(game.id, ICHIGO, actor_id=PLAYER_ID)
    await save_character(game.id, RUKIA, actor_id=OTHER_ID)
    await save_character(game.id, GRIMMJOW, actor_id=GM_ID)
    await save_character(game.id, HOLLOWS, actor_id=GM_ID)
    await start_encounter(game.id, actor_id=GM_ID)
    rng = random.Random(3)
    for name in ("Ичиго", "Рукия", "Гриммджо", "Пустой"):
        await add_to_encounter(game.id, name, actor_id=GM_ID, rng=rng)
    if chase_too:
        await start_chase(game.id, actor_id=GM_ID, rng=rng)
        for pid, side, pos in (("ichigo", "беглецы", 4), ("rukiya", "беглецы", 3)):
            await chase_command(
                game.id, chase.AddParticipant(pid, side, pos, die=8), actor_id=GM_ID, rng=rng
            )
        await chase_command(
            game.id,
            chase.AddParticipant("grimmdzho", "преследователи", 1, die=10),
            actor_id=GM_ID,
            rng=rng,
        )
    return game
