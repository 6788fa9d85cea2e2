"""The demo table: the commands a newcomer would send, through the real dispatcher, leave a
Savage Worlds game with a GM, two players, characters, NPC templates and a fight to deal."""

from __future__ import annotations

import aiohttp

from bot.playground.demo import demo_script, lay_out
from tests.bot.playground.conftest import ANYA, BORIS, GM, Served


async def test_the_demo_table_is_laid_out_by_commands(served: Served):
    group = await lay_out(served.play)
    assert served.play.fed == len(demo_script())  # every step was an update, nothing else was
    texts = [m.text for m in served.bot_messages(group.id)]
    assert any("Новая игра Пустые земли" in t for t in texts)
    assert sum("вступает в игру" in t for t in texts) == 2
    for name in ("Ичиго", "Рукия", "Гриммджо", "Пустой"):
        assert any(t.startswith(f"💾 Сохранено: {name}.") for t in texts), name
    [board] = [m for m in served.bot_messages(group.id) if "карты ещё не розданы" in m.text]
    for fighter in ("Ичиго", "Рукия", "Гриммджо", "Пустой 3"):
        assert fighter in board.text
    assert served.chat(GM).started and not served.chat(ANYA).started
    assert not served.chat(BORIS).started  # a player's hidden roll shows the start link

    # Ready to deal: the board's first button deals round 1.
    await served.play.press(GM, group.id, board.id, 0, 0)
    assert "раунд 1" in served.chat(group.id).messages[board.id].text


async def test_the_demo_button_lays_it_out_once(served: Served):
    async with aiohttp.ClientSession() as http:
        for _ in range(2):
            async with http.post(served.url + "playground/api/demo", json={}) as response:
                answer = await response.json()
    assert answer == {"ok": True, "chat": served.group.id, "title": "Игровой стол"}
    assert served.play.fed == len(demo_script())
