"""A duel's deadline through the fake Bot API: the GM sets it in the topic (a command or a
button), the loop of the bot (bot/systems/duel/deadline.py) acts on it once with a fixed
clock — from what is stored only, as after a restart — the GM is told who is silent and
seals a default defense by a button, and the turn is published with it."""

from __future__ import annotations

import random
import time

import pytest

from bot.systems.duel import CHAT
from bot.systems.duel.callbacks import DuelReviewCallback
from bot.systems.duel.deadline import BadDeadline, deadlines_forever, parse_deadline, pass_due
from engine.duel import FullDefense
from engine.services import duel as duels
from engine.services import find_game
from tests.bot.conftest import ALICE, BORIS, VERA
from tests.engine.duel.six_turns import BJORN, TURNS
from tests.support.telegram import TelegramDriver

from .test_duel import FORUM, TOPIC, Table, arena, topic_texts

DAY = 24 * 3600.0


def test_the_deadline_words() -> None:
    assert parse_deadline("24ч") == (24, "ask")
    assert parse_deadline("2д защита") == (48, "defend")
    assert parse_deadline("12 ч ждать") == (12, "wait")
    assert parse_deadline("нет") == (None, "ask")
    for bad in ("скоро", "24 минуты", ""):
        with pytest.raises(BadDeadline):
            parse_deadline(bad)


def test_the_bot_runs_the_deadline_loop() -> None:
    assert CHAT.background is deadlines_forever


async def _duel(tg: TelegramDriver) -> Table:
    table = await arena(tg)
    await table.say(VERA, "/duel Бьорн против Такеда")
    return table


async def test_the_deadline_passes_once_and_the_gm_seals_a_default_defense(
    tg: TelegramDriver,
) -> None:
    table = await _duel(tg)
    refused = topic_texts(await table.say(ALICE, "/duel срок 24ч"))  # the GM's alone
    assert len(refused) == 1 and "⏰" not in refused[0] and "ведущ" in refused[0]
    start = time.time()
    set_ = topic_texts(await table.say(VERA, "/duel срок 24ч"))
    assert set_ == [
        "⏰ Теперь на каждый ход 24 часа; по истечении срока ведущий узнаёт, кто не прислал "
        "ход, и может запечатать за него защиту по умолчанию."
    ]
    a, fa, _, _ = TURNS[0]
    await table.submit(ALICE, BJORN, a, fa)
    assert "⏰ До конца срока хода: 23 ч 59 мин." in table.forms[ALICE.id].text
    game = await find_game(FORUM.id, None)
    assert game is not None

    mark = tg.api.mark()
    assert await pass_due(tg.bot, now=start + DAY - 120, rng=random.Random(1)) == 0
    assert await pass_due(tg.bot, now=start + DAY + 1, rng=random.Random(1)) == 1
    calls = tg.api.since(mark)
    assert topic_texts(calls) == ["⏰ <b>Такеда</b>: ход 1 не прислан в срок."]
    [to_gm] = [c for c in calls if c.chat_id == VERA.id]
    assert "Такеда" in to_gm.text and "Бьорн: ход" not in to_gm.text
    assert [b["text"] for b in to_gm.buttons()] == [
        "🛡 Защита по умолчанию: Такеда", "⏰ Напомнить бойцам",
    ]  # fmt: skip
    reminded = [c for c in calls if c.chat_id == BORIS.id and c.method == "sendMessage"]
    assert reminded and "Срок этого хода истёк" in reminded[0].text
    assert not [c for c in calls if c.chat_id == ALICE.id]  # Бьорн has sent the turn
    # once: the next pass (this process or a restarted one) finds nothing to do
    assert await pass_due(tg.bot, now=start + DAY + 120, rng=random.Random(1)) == 0

    tg.dp["rng"] = random.Random(4)
    default = table.button(to_gm, DuelReviewCallback, op="default", fighter="b")
    sealed = await table.press(VERA, to_gm, default)
    [notice] = topic_texts(sealed)
    assert notice.startswith("🔒 <b>Такеда</b>: срок вышел, на ход 1 запечатана защита")
    view = await duels.current_duel(game.id, TOPIC)
    assert view is not None
    taken = view.state.sealed("b")
    assert taken is not None and taken.default
    assert isinstance(taken.submission.actions[0], FullDefense)
    assert table.review is not None and "✅" in "".join(b["text"] for b in table.review.buttons())
    assert "🛡 Защита по умолчанию, запечатана после срока." in table.review.text
    posted = await table.press(
        VERA, table.review, table.button(table.review, DuelReviewCallback, op="publish")
    )
    post = topic_texts(posted)[0]
    assert post.startswith("⚔️ Ход 1")
    # the post says whose turn was the default defense, before that fighter's actions
    lines = post.split("\n")
    marked = "🛡 <b>Такеда</b>: ход не прислан в срок, запечатана защита по умолчанию."
    assert lines.count(marked) == 1 and lines[lines.index(marked) + 1].startswith(
        "<b>Такеда</b>: глухая оборона"
    )
    assert not any("Бьорн</b>: ход не прислан" in line for line in lines)
    after = await duels.current_duel(game.id, TOPIC)
    assert after is not None and after.state.turn == 2 and after.state.due is not None
    assert after.state.due >= start + DAY - 5  # the next turn's time runs from publication


async def test_the_gm_picks_a_deadline_by_button(tg: TelegramDriver) -> None:
    table = await _duel(tg)
    [reply] = [c for c in await table.say(VERA, "/duel срок") if c.chat_id == FORUM.id]
    assert "<code>/duel срок 24ч</code>" in reply.text
    assert [b["text"] for b in reply.buttons()] == ["12 ч", "24 ч", "48 ч", "72 ч", "Без срока"]
    feed = await tg.press(VERA, reply, 2)
    assert topic_texts(feed.calls)[0].startswith("⏰ Теперь на каждый ход 48 часов")
    game = await find_game(FORUM.id, None)
    assert game is not None
    view = await duels.current_duel(game.id, TOPIC)
    assert view is not None and view.state.deadline is not None
    assert view.state.deadline.hours == 48
    feed = await tg.press(VERA, reply, 4)
    assert topic_texts(feed.calls) == ["⏰ Срока на ход больше нет."]
