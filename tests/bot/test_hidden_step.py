"""A hidden roll is one step with all it tells the chats (issue 24, item 1): the roll and the
journal rows of its receipt and copies commit in one transaction, the calls are queued only
after it, a failure after them leaves none of it, and the handler never waits for Telegram —
a copy Telegram refuses is kept pending and named in the receipt once Telegram says so."""

from __future__ import annotations

import time
from typing import Any

import pytest
from aiogram import Dispatcher

import bot.hidden_rolls
from engine.dice import ScriptedRng
from engine.store.models import OutgoingCall, PendingDelivery, RollLog
from tests.bot.conftest import ALICE, BORIS, GROUP, Journaled
from tests.bot.test_hidden import receipt_names_alice
from tests.support.telegram import private


async def game_with_player(journaled: Journaled) -> None:
    """Alice is the GM of the group's game, Boris a player; both started the bot."""
    tg = journaled.tg
    await tg.send(ALICE, GROUP, "/newgame дикий Тени")
    await tg.send(BORIS, GROUP, "/join")
    await tg.send(ALICE, private(ALICE), "/start")
    await tg.send(BORIS, private(BORIS), "/start")
    await journaled.settled()


async def test_the_roll_and_its_messages_commit_together_and_leave_after_it(
    journaled: Journaled, dp: Dispatcher, monkeypatch: pytest.MonkeyPatch
) -> None:
    await game_with_player(journaled)
    api, real_copy = journaled.api, bot.hidden_rolls.send_private_copy
    seen: list[tuple[int, bool]] = []  # at each copy: messages sent so far, any queued

    async def copy_then_look(*args: Any, **kwargs: Any) -> Any:
        answer = await real_copy(*args, **kwargs)
        sent = len([c for c in api.calls[mark:] if c.method == "sendMessage"])
        seen.append((sent, bool(journaled.flood.chats)))
        return answer

    monkeypatch.setattr(bot.hidden_rolls, "send_private_copy", copy_then_look)
    dp["rng"] = ScriptedRng([4, 2])
    mark = api.mark()
    await journaled.tg.send(BORIS, GROUP, "/hr 2d6+1")
    # Both copies were made with nothing sent, nothing queued: they wait for the commit.
    assert seen == [(0, False), (0, False)]
    await journaled.settled()
    sent = api.sent(mark)
    assert {c.chat_id for c in sent} == {GROUP.id, BORIS.id, ALICE.id}
    assert "[4, 2]" not in sent[0].text and sent[0].chat_id == GROUP.id  # the receipt first
    assert await RollLog.filter(hidden=True).count() == 1
    assert await OutgoingCall.all().count() == 0  # every row forgotten once Telegram took it


async def test_a_failure_after_the_copies_leaves_no_roll_no_row_and_no_message(
    journaled: Journaled, dp: Dispatcher, monkeypatch: pytest.MonkeyPatch
) -> None:
    await game_with_player(journaled)
    api, real_copy = journaled.api, bot.hidden_rolls.send_private_copy

    async def copy_then_break(*args: Any, **kwargs: Any) -> Any:
        await real_copy(*args, **kwargs)
        raise RuntimeError("the handler broke after a copy")

    monkeypatch.setattr(bot.hidden_rolls, "send_private_copy", copy_then_break)
    mark = api.mark()
    await journaled.tg.send(BORIS, GROUP, "/hr 2d6+1")
    await journaled.settled()
    # Only the error's own answer reached Telegram: no receipt, no copy.
    assert await RollLog.filter(hidden=True).count() == 0
    reads = {"getMe", "getChatMember"}  # asked before the step (the start link, the rights)
    [error] = [c for c in api.since(mark) if c.method not in reads]
    assert error.chat_id == GROUP.id and error.text.startswith("Что-то пошло не так.")
    assert await PendingDelivery.all().count() == 0
    assert await OutgoingCall.all().count() == 0


async def test_a_refused_copy_is_kept_and_named_in_the_receipt_without_waiting(
    journaled: Journaled, dp: Dispatcher
) -> None:
    """The GM blocked the bot since /start: the handler does not wait for the copies (the
    Bot API answers after a second here); once Telegram refuses the GM's copy, it is kept
    pending and the receipt is edited to name the GM, with the start link — what the chat
    saw when the handler read the refusal itself."""
    await game_with_player(journaled)
    api = journaled.api
    api.forbid(ALICE.id)
    api.slow_down("sendMessage", 1.0)
    dp["rng"] = ScriptedRng([4, 2])
    mark = api.mark()
    started = time.monotonic()
    await journaled.tg.send(BORIS, GROUP, "/hr 2d6+1")
    assert time.monotonic() - started < 0.7  # not the second a copy's answer takes
    await journaled.settled(10)
    receipt = next(c for c in api.sent(mark) if c.chat_id == GROUP.id)
    assert "не могу написать" not in receipt.text
    assert [c.chat_id for c in api.sent(mark) if c.chat_id != GROUP.id] == [BORIS.id]
    receipt_names_alice(api.since(mark, "editMessageText"), receipt)
    [pending] = await PendingDelivery.all()
    assert pending.user_id == ALICE.id and pending.delivered_at is None  # type: ignore[attr-defined]
