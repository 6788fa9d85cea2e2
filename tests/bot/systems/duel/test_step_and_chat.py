"""A duel step and what it tells the chat are one transaction (issue 24, item 1): with the
outgoing journal on, a sealed turn and a published turn keep their step and their chat
calls' journal rows together — a failure after the chat calls leaves neither the step, nor
a row, nor a call at the Bot API, and nothing is queued before the commit; once it
committed, the topic and the DMs get it all (a DM refused is logged, the rest goes on)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from aiogram import Bot

from bot.app import create_bot, flood_control
from bot.middlewares.flood import FloodControl
from bot.settings import Settings
from bot.systems.duel import form as form_screen
from bot.systems.duel import review as review_screen
from bot.systems.duel.callbacks import DuelReviewCallback
from engine.dice.rng import ScriptedRng
from engine.services import duel as duels
from engine.services import find_game
from engine.services.outgoing import Journal
from engine.store.models import LiveMessage, OutgoingCall
from tests.bot.conftest import ALICE, BORIS, VERA
from tests.engine.duel.six_turns import BJORN, TAKEDA, TURNS
from tests.support.fake_botapi import ApiCall, FakeBotAPI
from tests.support.telegram import TelegramDriver

from .test_duel import FORUM, TOPIC, arena, topic_texts

SENT = "✅ Отправлено. Квитанция"  # the form once its turn is sealed
CHAT_METHODS = ("sendMessage", "editMessageText", "editMessageReplyMarkup")


class Journaled:
    """A bot whose chat calls are journaled (as the runner's), and its flood control."""

    def __init__(self, settings: Settings) -> None:
        self.journal = Journal("test-worker")
        self.flood: FloodControl = flood_control(settings, journal=self.journal)
        self.bot: Bot = create_bot(settings, flood=self.flood)


@pytest.fixture
async def journaled(settings: Settings) -> AsyncIterator[Journaled]:
    made = Journaled(settings)
    try:
        yield made
    finally:
        await made.bot.session.close()


def told(calls: list[ApiCall]) -> list[ApiCall]:
    """The posts and edits among `calls` (a button's answer is none)."""
    return [c for c in calls if c.method in CHAT_METHODS]


class TellThenFail:
    """The screen's `tell`, then what the queue and the Bot API held at that moment (within the
    step's transaction); `fail`: then the handler breaks."""

    def __init__(self, api: FakeBotAPI, flood: FloodControl, real: Callable[..., Any]) -> None:
        self.api, self.flood, self.fail = api, flood, True
        self.real = real
        self.seen: list[tuple[int, int]] = []  # (chats queued, chat calls made) after tell

    async def __call__(self, *args: Any, **kwargs: Any) -> None:
        mark = self.api.mark()
        await self.real(*args, **kwargs)
        self.seen.append((len(self.flood.chats), len(told(self.api.since(mark)))))
        if self.fail:
            raise RuntimeError("the handler broke after telling the chat")


async def arrived(api: FakeBotAPI, mark: int, wanted: Callable[[list[ApiCall]], bool]) -> None:
    async with asyncio.timeout(5):
        while not wanted([c for c in api.since(mark) if c.result is not None]):
            await asyncio.sleep(0.02)


async def test_a_seal_that_fails_after_telling_the_chat_leaves_nothing(
    tg: TelegramDriver, journaled: Journaled, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await arena(tg)
    await table.say(VERA, "/duel Бьорн против Такеда")
    game = await find_game(FORUM.id, None)
    assert game is not None
    spy = TellThenFail(tg.api, journaled.flood, form_screen.tell)
    monkeypatch.setattr(form_screen, "tell", spy)
    tg.bot = journaled.bot
    a, fa, _, _ = TURNS[0]
    before = tg.api.mark()
    await table.submit(ALICE, BJORN, a, fa)  # «✉️ Send»: the step, its form's edit, the 🔒
    await asyncio.sleep(0.2)
    assert spy.seen == [(0, 0)]  # told, and nothing queued, nothing sent within the step
    view = await duels.current_duel(game.id, TOPIC)
    assert view is not None and view.state.seals("a") == 0 and view.state.pending == ()
    assert await OutgoingCall.all().count() == 0
    sent = told(tg.api.since(before))
    assert [c for c in sent if c.chat_id == FORUM.id] == []  # no 🔒 in the topic
    assert not [c for c in sent if SENT in c.text]  # the form shows no receipt
    [alert] = [c for c in tg.api.since(before) if c.method == "answerCallbackQuery"][-1:]
    assert "пошло не так" in alert.params.get("text", "")

    spy.fail = False  # the same press once more: the step commits, then its calls go
    assert table.last_send is not None
    mark = tg.api.mark()
    tg.dp["rng"] = ScriptedRng(fa)
    await table.press(ALICE, *table.last_send)
    assert spy.seen[-1] == (0, 0)
    await arrived(tg.api, mark, lambda calls: bool(topic_texts(calls)) and ALICE.id in chats(calls))
    [seal] = topic_texts(tg.api.since(mark))
    assert "🔒" in seal and "Бьорн" in seal
    [form] = [c for c in told(tg.api.since(mark)) if c.chat_id == ALICE.id]
    assert SENT in form.text and form.params["message_id"] > 0
    view = await duels.current_duel(game.id, TOPIC)
    assert view is not None and view.state.seals("a") == 1


async def test_a_publication_that_fails_after_telling_the_chat_leaves_nothing(
    tg: TelegramDriver,
    journaled: Journaled,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    table = await arena(tg)
    await table.say(VERA, "/duel Бьорн против Такеда")
    game = await find_game(FORUM.id, None)
    assert game is not None
    a, fa, b, fb = TURNS[0]
    await table.submit(ALICE, BJORN, a, fa)
    await table.submit(BORIS, TAKEDA, b, fb)
    assert table.review is not None
    spy = TellThenFail(tg.api, journaled.flood, review_screen.tell)
    monkeypatch.setattr(review_screen, "tell", spy)
    tg.bot = journaled.bot
    review = table.review
    publish = table.button(review, DuelReviewCallback, op="publish")
    before = tg.api.mark()
    await table.press(VERA, review, publish)
    await asyncio.sleep(0.2)
    assert spy.seen == [(0, 0)]
    view = await duels.current_duel(game.id, TOPIC)
    assert view is not None and view.state.turn == 1 and view.state.history == ()
    assert await OutgoingCall.all().count() == 0
    assert told(tg.api.since(before)) == []  # no post, no review edit, no new forms

    spy.fail = False  # published once more; Алиса's DM now refuses the bot
    tg.api.forbid(ALICE.id)
    mark = tg.api.mark()
    with caplog.at_level(logging.INFO, logger="bot.systems.duel.tell"):
        await table.press(VERA, review, publish)
        assert spy.seen[-1] == (0, 0)
        await arrived(
            tg.api, mark, lambda calls: bool(topic_texts(calls)) and BORIS.id in chats(calls)
        )
        await asyncio.sleep(0.1)  # the refused form's answer
    [post] = topic_texts(tg.api.since(mark))
    assert "⚔️ Ход 1" in post
    assert f"the form of fighter a could not reach user {ALICE.id}" in caplog.text
    view = await duels.current_duel(game.id, TOPIC)
    assert view is not None and view.state.turn == 2 and len(view.state.history) == 1
    # Борис's new form was stored by its provisional id, and given the real one once sent
    [form] = [c for c in tg.api.since(mark) if c.method == "sendMessage" and c.chat_id == BORIS.id]
    await journaled.journal.flush()
    live = await LiveMessage.filter(key="b", chat_id=BORIS.id).values_list("message_id", flat=True)
    assert live == [form.result["message_id"]]


def chats(calls: list[ApiCall]) -> set[int | None]:
    return {c.chat_id for c in calls}
