"""A duel game for the Mini App tests: the GM, Аня (Бьорн) and Борис (Такеда), one duel in a
forum topic; the six scripted turns as API bodies."""

from __future__ import annotations

import random

from engine import codec
from engine.dice.rng import ScriptedRng
from engine.duel import format_sheet
from engine.services import duel as duels
from engine.services.types import GameInfo
from tests.engine.duel.six_turns import BJORN, TAKEDA, use_the_scripts_readings
from tests.webapp.conftest import GM_ID, OTHER_ID, PLAYER_ID, make_game

TOPIC = 9


async def make_duel(seeded: bool = False, chat_id: int = -100123) -> GameInfo:
    """The duel runs the readings the scripted turns were written for; its first turn's dice
    come from the rng a test scripts (`seeded`: from a committed seed, as in production)."""
    game = await make_game("duel", chat_id=chat_id)
    await use_the_scripts_readings(game.id, GM_ID)
    await duels.save_fighter(game.id, format_sheet(BJORN), actor_id=PLAYER_ID)
    await duels.save_fighter(game.id, format_sheet(TAKEDA), actor_id=OTHER_ID)
    rng = random.Random(26) if seeded else ScriptedRng([])
    await duels.start_duel(game.id, thread=TOPIC, a="Бьорн", b="Такеда", actor_id=GM_ID, rng=rng)
    return game


def actions_json(actions: list) -> list:  # type: ignore[type-arg]
    return [codec.to_data(a) for a in actions]
