"""One press seals once (issue 26 item 2): a double tap on «✉️ Отправить ход» leaves one 🔒
in the topic and one sealed turn; the change's form («✏️ Изменить ход») seals again."""

from __future__ import annotations

from engine.services import duel as duels
from engine.services import find_game
from tests.bot.conftest import ALICE, VERA
from tests.engine.duel.six_turns import BJORN, TURNS
from tests.support.telegram import TelegramDriver

from .test_duel import FORUM, TOPIC, arena, topic_texts


async def test_a_double_tap_on_send_seals_once(tg: TelegramDriver) -> None:
    table = await arena(tg)
    await table.say(VERA, "/duel Бьорн против Такеда")
    a, fa, _, _ = TURNS[0]
    await table.submit(ALICE, BJORN, a, fa)  # the first tap
    game = await find_game(FORUM.id, None)
    assert game is not None
    view = await duels.current_duel(game.id, TOPIC)
    assert view is not None and view.state.seals("a") == 1
    assert table.last_send is not None
    form, send = table.last_send  # the form the first tap pressed, its keyboard as it was
    before = tg.api.mark()
    answers = await table.press(ALICE, form, send)  # the second tap
    assert any(c.method == "answerCallbackQuery" for c in answers)
    assert topic_texts(tg.api.since(before)) == []  # no second 🔒
    view = await duels.current_duel(game.id, TOPIC)
    assert view is not None and view.state.seals("a") == 1 and view.state.replaced == ()
