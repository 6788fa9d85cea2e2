"""Forms end with their turn, and the GM can stop a running duel (issue 26 item 5): `/turn` and
`/remind` send one live form and close the old copy; once both turns are in, every form is
closed and «✏️ Изменить ход» changes nothing; `/duel стоп` posts where the fighters stand,
closes the forms and offers the export, and a new duel may start in the topic."""

from __future__ import annotations

from bot.systems.duel.callbacks import DuelFormCallback
from bot.systems.duel.tell import board_sync
from engine.dice.rng import ScriptedRng
from engine.services import duel as duels
from engine.services import find_game
from engine.services.notify import Notification
from tests.bot.conftest import ALICE, BORIS, VERA
from tests.engine.duel.six_turns import BJORN, TAKEDA, TURNS
from tests.support.telegram import TelegramDriver, private

from .test_duel import FORUM, TOPIC, arena, closed, topic_texts


async def test_forms_end_with_the_turn_and_the_gm_stops_the_duel(tg: TelegramDriver) -> None:
    table = await arena(tg)
    await table.say(VERA, "/duel Бьорн против Такеда")
    first = table.forms[ALICE.id]
    # /turn in the DM: a new form, the old one closed (one live form per player per turn)
    feed = await tg.send(ALICE, private(ALICE), "/turn")
    table._track(feed.calls)
    assert table.forms[ALICE.id] is not first
    assert "новая — ниже" in closed(feed.calls, first).text
    # /remind by the GM: the same for both players' forms
    latest = {user: table.forms[user] for user in (ALICE.id, BORIS.id)}
    calls = await table.say(VERA, "/remind")
    for form in latest.values():
        closed(calls, form)
    a, fa, b, fb = TURNS[0]
    await table.submit(ALICE, BJORN, a, fa)
    sent = table.forms[ALICE.id]  # «✅ Отправлено» with «✏️ Изменить ход»
    borises = table.forms[BORIS.id]
    before = tg.api.mark()
    await table.submit(BORIS, TAKEDA, b, fb)
    # both turns are in: both forms are closed, the receipt stays in each
    for form in (sent, borises):
        edit = closed(tg.api.since(before), form)
        assert "оба хода на месте" in edit.text and "Квитанция" in edit.text
    change = table.button(sent, DuelFormCallback, op="reset")
    calls = await table.press(ALICE, sent, change)
    assert not [c for c in calls if c.method == "editMessageText"]  # no editable form again
    answer = next(c for c in calls if c.method == "answerCallbackQuery")
    assert "ждёт ведущего" in answer.params.get("text", "")

    refused = await table.say(ALICE, "/duel стоп")
    assert "ведущ" in " ".join(c.text for c in refused).lower()
    before = tg.api.mark()
    await table.say(VERA, "/duel стоп")
    (post,) = topic_texts(tg.api.since(before))
    assert "🏁 Ведущий остановил дуэль на ходу 1" in post and "/export" in post
    assert "<b>Бьорн</b>: ХП 24" in post and "<b>Такеда</b>: ХП 16" in post
    game = await find_game(FORUM.id, None)
    assert game is not None
    view = await duels.current_duel(game.id, TOPIC)
    assert view is not None and view.state.over and view.state.history == ()
    # the topic is free for the next duel
    again = await table.say(VERA, "/duel Такеда против Бьорн")
    assert not any("уже идёт" in c.text for c in again)


async def test_a_stop_from_the_mini_app_is_told_in_the_chat(tg: TelegramDriver) -> None:
    """The Mini App's «⏹ Остановить дуэль» is the same service; its step reaches the chat
    through the duel's board sync as `/duel стоп`'s does: the post, the forms closed."""
    table = await arena(tg)
    await table.say(VERA, "/duel Бьорн против Такеда")
    forms = [table.forms[u] for u in (ALICE.id, BORIS.id)]
    game = await find_game(FORUM.id, None)
    assert game is not None
    out = await duels.stop_duel(game.id, TOPIC, actor_id=VERA.id, rng=ScriptedRng([]))
    before = tg.api.mark()
    info = {"thread": TOPIC, "stream": out.stream, "state": out.state, "events": out.events}
    await board_sync(tg.bot, game, Notification(game.id, "duel", info))
    (post,) = topic_texts(tg.api.since(before))
    assert "🏁 Ведущий остановил дуэль на ходу 1" in post
    for form in forms:
        assert "ведущий остановил дуэль" in closed(tg.api.since(before), form).text
