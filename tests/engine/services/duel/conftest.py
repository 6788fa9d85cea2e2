from __future__ import annotations

import pytest

from engine import services
from engine.duel import format_sheet
from engine.services import duel as duels
from tests.engine.duel.six_turns import BJORN, TAKEDA
from tests.engine.services.conftest import ALICE, BOB, CHAT, GM

TOPIC = 77  # the forum topic the duel runs in


@pytest.fixture
async def duel_game(users: None) -> services.GameInfo:
    game = await services.create_game(
        chat_id=CHAT,
        topic_id=None,
        system="duel",
        name="Арена",
        creator_id=GM,
        chat_title="Форум",
        chat_type="supergroup",
    )
    for player in (ALICE, BOB):
        await services.join_game(game.id, player)
    await duels.save_fighter(game.id, format_sheet(BJORN), actor_id=ALICE)
    await duels.save_fighter(game.id, format_sheet(TAKEDA), actor_id=BOB)
    return game
