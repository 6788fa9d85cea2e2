"""The forum duel's demo table in the playground: laid out by commands in a topic of the
forum group and by the form's buttons in a player's private chat, it ends with the player's
first turn sealed (the receipt in the topic, nothing of the turn) and the GM's fighter
waiting, its form in the GM's private chat."""

from __future__ import annotations

import re

from bot.playground.demo import lay_out
from bot.playground.world import FORUM_ID
from engine.duel.actions import Attack, Block
from engine.receipt import short_code
from engine.services import duel as duels
from engine.services import find_game
from tests.bot.playground.conftest import GM, VERA, Served
from tests.bot.playground.conftest import served as served  # the fixture

CODE = re.compile(r"\b[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}\b")  # the receipt's short code
REPLIES = (  # each command of the demo, and the start of the bot's reply to it
    ("/newgame", "🎲 Новая игра Мост — Форумная дуэль"),
    ("/join", "Вера вступает в игру Мост"),
    ("/fighter", "Боец сохранён:\nИнгрид"),
    ("/fighter", "Боец сохранён:\nКэндзи"),
)


async def test_the_demo_ends_with_one_turn_sealed_and_the_other_waiting(served: Served):
    chat, thread = await lay_out(served.play, "duel")
    assert chat.id == FORUM_ID and thread is not None and chat.topics[thread] == "Дуэль на мосту"
    answers = served.answers(chat.id)
    assert [text.split()[0] for text, _ in answers] == [c for c, _ in REPLIES] + ["/duel"]
    for (text, replies), (_command, reply) in zip(answers, REPLIES, strict=False):
        assert len(replies) == 1 and replies[0].startswith(reply), (text, replies)
    in_topic = [m for m in chat.messages.values() if m.thread_id == thread]
    assert any(m.text.startswith("⚔️ Дуэль: Ингрид — Кэндзи") for m in in_topic)
    assert all(m.thread_id == thread for m in chat.messages.values() if m.id > thread)

    game = await find_game(FORUM_ID, thread)
    assert game is not None and game.system == "duel"
    view = await duels.current_duel(game.id, thread)
    assert view is not None
    state = view.state
    ingrid, kenji = state.fighters
    assert (ingrid.fighter.name, ingrid.owner) == ("Ингрид", VERA)
    assert (kenji.fighter.name, kenji.owner) == ("Кэндзи", None)  # the GM plays it
    sealed = state.sealed(ingrid.id)
    assert sealed is not None and state.sealed(kenji.id) is None and state.turn == 1
    actions = sealed.submission.actions
    assert [type(a) for a in actions] == [Attack, Block] and actions[0].ap == 1

    # The topic shows the receipt and who sealed, nothing of the turn.
    bot_id = served.play.world.bot["id"]
    [receipt] = [m for m in in_topic if m.sender["id"] == bot_id and "🔒" in m.text]
    assert CODE.findall(receipt.text) == [short_code(sealed.receipt)]
    assert "Ингрид" in receipt.text and "блок" not in receipt.text.lower()
    # The player's form says sent; the GM's waits for the first action.
    assert f"Квитанция: {short_code(sealed.receipt)}." in served.last(VERA).text
    form = served.last(GM)
    assert "заявка: Кэндзи" in form.text and "Выберите первое действие." in form.text
    assert "Ингрид:" not in form.text  # nothing of the sealed turn before both are in
    assert served.failures() == []
    assert served.alerts() == []
