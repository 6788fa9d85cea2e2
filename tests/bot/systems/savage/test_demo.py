"""The Savage Worlds demo table in the playground: the commands a newcomer would send,
through the real dispatcher, leave a game in the main group with a GM, two players,
characters, NPC templates and a fight to deal."""

from __future__ import annotations

from bot.playground.demo import lay_out
from bot.playground.world import GROUP_ID
from bot.systems.savage.demo import DEMO
from tests.bot.playground.conftest import ANYA, BORIS, GM, Served
from tests.bot.playground.conftest import served as served  # the fixture


async def test_the_demo_table_is_laid_out_by_commands(served: Served):
    group, thread = await lay_out(served.play, "savage")
    assert (group.id, thread) == (GROUP_ID, None)
    assert served.play.fed == len(DEMO)  # every step was an update, nothing else was
    texts = [m.text for m in served.bot_messages(group.id)]
    assert any("Новая игра Пустые земли" in t for t in texts)
    assert sum("вступает в игру" in t for t in texts) == 2
    for name in ("Ичиго", "Рукия"):
        assert any(t.startswith(f"💾 Сохранено: {name}.") for t in texts), name
    for name in ("Гриммджо", "Пустой"):  # NPC templates: their sheets go to the GM's DM
        assert any(t.startswith(f"💾 Шаблон NPC сохранён: {name}.") for t in texts), name
        assert not any(t.startswith(f"💾 Сохранено: {name}.") for t in texts), name
    [board] = [m for m in served.bot_messages(group.id) if "карты ещё не розданы" in m.text]
    for fighter in ("Ичиго", "Рукия", "Гриммджо", "Пустой 3"):
        assert fighter in board.text
    assert served.chat(GM).started and not served.chat(ANYA).started
    assert not served.chat(BORIS).started  # a player's hidden roll shows the start link

    # Ready to deal: the board's first button deals round 1.
    await served.play.press(GM, group.id, board.id, 0, 0)
    assert "раунд 1" in served.chat(group.id).messages[board.id].text
    assert served.alerts() == [] and served.failures() == []
