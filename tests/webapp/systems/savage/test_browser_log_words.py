"""The Mini App log says a fight's states as the chat does, with no gender to guess
(issue 12, item 8): «Рукия: состояние «Оглушён».», never «Рукия оглушён»."""

from __future__ import annotations

import random

from engine import savage
from engine.services.savage import (
    add_to_encounter,
    encounter_command,
    save_character,
    start_encounter,
)
from tests.webapp.conftest import GM_ID, OTHER_ID, PLAYER_ID, TOKEN, make_game
from tests.webapp.systems.savage.fight import ICHIGO, RUKIA
from tests.webapp.systems.savage.test_browser_boards import shoot
from tests.webapp.test_browser import browser, open_app, server  # noqa: F401 (fixtures)
from webapp.links import startapp_token


async def test_the_log_tells_states_without_a_gender(browser, server, db):  # noqa: F811
    game = await make_game("savage", chat_id=-100778)
    await save_character(game.id, ICHIGO, actor_id=PLAYER_ID)
    await save_character(game.id, RUKIA, actor_id=OTHER_ID)
    await start_encounter(game.id, actor_id=GM_ID)
    rng = random.Random(5)
    for name in ("Ичиго", "Рукия"):
        await add_to_encounter(game.id, name, actor_id=GM_ID, rng=rng)
    await encounter_command(game.id, savage.NextTurn(), actor_id=GM_ID, rng=rng)
    await encounter_command(
        game.id, savage.SetCondition("rukiya", "stunned"), actor_id=GM_ID, rng=rng
    )

    start = startapp_token(game.id, "initiative", bot_token=TOKEN)
    for dark in (False, True):
        page = await open_app(browser, server, GM_ID, start, dark=dark)
        log = page.get_by_test_id("encounter-log")
        await log.wait_for(timeout=5000)
        text = await log.inner_text()
        assert "Рукия: состояние «Оглушён»." in text
        assert "Рукия: состояние «Отвлечён»." in text  # Stunned brings Distracted along
        assert "оглушён." not in text and "теперь" not in text
        await shoot(page, f"log-words-gm-{'dark' if dark else 'light'}")
        assert page.problems == []  # type: ignore[attr-defined]
