"""A duel game for the Mini App tests: the GM, Аня (Бьорн) and Борис (Такеда), one duel in a
forum topic; the six scripted turns as API bodies."""

from __future__ import annotations

from engine import codec
from engine.dice.rng import ScriptedRng
from engine.duel import format_sheet
from engine.services import duel as duels
from engine.services.types import GameInfo
from tests.engine.duel.six_turns import BJORN, TAKEDA
from tests.webapp.conftest import GM_ID, OTHER_ID, PLAYER_ID, make_game

TOPIC = 9


async def make_duel(chat_id: int = -100123) -> GameInfo:
    game = await make_game("duel", chat_id=chat_id)
    await duels.save_fighter(game.id, format_sheet(BJORN), actor_id=PLAYER_ID)
    await duels.save_fighter(game.id, format_sheet(TAKEDA), actor_id=OTHER_ID)
    await duels.start_duel(
        game.id, thread=TOPIC, a="Бьорн", b="Такеда", actor_id=GM_ID, rng=ScriptedRng([])
    )
    return game


def actions_json(actions: list) -> list:  # type: ignore[type-arg]
    return [codec.to_data(a) for a in actions]
