"""`/duel правила` through the fake Bot API: the GM sees the game's readings of the duel seed
as buttons and steps one by a tap (docs/rules/duel.md: «В случае ничьей защита > атака» is
the tied dodge's sentence); a player may neither open nor tap them; the next duel takes the
GM's reading."""

from __future__ import annotations

from engine.services import duel as duels
from engine.services import find_game
from tests.bot.conftest import ALICE, VERA
from tests.support.telegram import TelegramDriver

from .test_duel import FORUM, TOPIC, arena, topic_texts


async def test_the_gm_steps_a_reading_by_a_tap_and_the_next_duel_takes_it(
    tg: TelegramDriver,
) -> None:
    table = await arena(tg)
    refused = topic_texts(await table.say(ALICE, "/duel правила"))
    assert len(refused) == 1 and "ведущ" in refused[0] and "Ничья" not in refused[0]
    [shown] = [c for c in await table.say(VERA, "/duel правила") if c.method == "sendMessage"]
    # the message numbers the readings in full; the buttons are their numbers, five a row
    # (a reading's name and value were cut on a phone: issue 27)
    assert "\n1. Ничья при уклонении: за защитой\n" in shown.text
    assert f"\n{len(duels.NAMES)}. Истощение после перерасхода: " in shown.text
    labels = [b["text"] for b in shown.buttons()]
    assert labels == [str(n) for n in range(1, len(duels.NAMES) + 1)]
    assert [len(row) for row in shown.reply_markup["inline_keyboard"]] == [5, 5, 3]

    alert = (await tg.press(ALICE, shown, 0)).calls
    assert any(c.method == "answerCallbackQuery" and c.params.get("show_alert") for c in alert)
    game = await find_game(FORUM.id, None)
    assert game is not None and duels.game_rules(game).dodge_tie == "defense"

    calls = (await tg.press(VERA, shown, 0)).calls
    [edited] = [c for c in calls if c.method == "editMessageText"]
    assert "\n1. Ничья при уклонении: за атакой\n" in edited.text
    game = await find_game(FORUM.id, None)
    assert game is not None and duels.game_rules(game).dodge_tie == "attack"

    await table.say(VERA, "/duel Бьорн против Такеда")
    view = await duels.current_duel(game.id, TOPIC)
    assert view is not None and view.state.options.dodge_tie == "attack"
