"""What a step made in the Mini App tells the chat is as durable as a chat step's report
(issue 24, item 1), through a bot that journals its calls as the runner's does:

- a roll and its post (a hidden roll's receipt and copies) commit in one transaction — a
  failure after the calls leaves neither the roll nor a call;
- a scene step and what it tells the chat (the board's edit) commit in one transaction too
  (the bot's in-step teller, wired as the runner wires it): the page's answer comes with the
  call journaled and the row marked told, so a sweep of the row tells nothing again; a
  failure while telling leaves neither the step nor a call;
- a row written without being told (a step made outside the web app's chat step) is told
  after the commit, the row marked delivered in the transaction that journals its calls;
  delivered twice (two sweeps after a crash), it is told once."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from typing import Any

import pytest
from aiogram import Bot, Dispatcher

import bot.miniapp_hooks
from bot.miniapp_hooks import ChatHooks
from bot.settings import Settings
from bot.systems import registry
from engine.dice import ScriptedRng
from engine.services import find_game, outbox
from engine.services.aggregates.sql import load_json
from engine.services.notify import TOLD, Notification, Notifier, using
from engine.services.types import GameInfo
from engine.services.updates import holding_effects
from engine.store.models import OutboxItem, OutgoingCall, RollLog, StreamEvent
from tests.bot.conftest import ALICE, GROUP, VERA, Journaled

# pytest takes fixtures from the module: the example system installed, its dispatcher
from tests.support.coins.fixtures import coins_dispatcher, coins_installed  # noqa: F401
from tests.support.fake_botapi import BOT_TOKEN
from tests.support.telegram import TgUser, private
from webapp.app import create_app
from webapp.auth import sign_init_data
from webapp.links import startapp_token

Post = Callable[..., Awaitable[Any]]


@pytest.fixture
async def web(
    journaled: Journaled, dp: Dispatcher, settings: Settings, aiohttp_client: Any
) -> AsyncIterator[tuple[ChatHooks, Post]]:
    """The game (Alice the GM, Vera a player, both started the bot, a contest on the chat's
    board) and the Mini App wired to the journaling bot as the runner wires it."""
    tg = journaled.tg
    await tg.send(ALICE, GROUP, "/newgame монетки Турнир")
    await tg.send(VERA, GROUP, "/join")
    await tg.send(ALICE, private(ALICE), "/start")
    await tg.send(VERA, private(VERA), "/start")
    await tg.send(ALICE, GROUP, "/contest")
    await journaled.settled()
    game = await find_game(GROUP.id, None)
    assert game is not None
    hooks = ChatHooks.of(tg.bot, dp)
    notifier = Notifier()
    notifier.subscribe(hooks.on_change)
    notifier.tell_in_step(hooks.tell_in_step)
    app = create_app(
        settings,
        notifier=notifier,
        rng=ScriptedRng([2, 5, 3]),
        on_roll=hooks.on_roll,
        on_reveal=hooks.on_reveal,
        chat_step=hooks.chat_step,
    )
    client = await aiohttp_client(app)
    token = startapp_token(game.id, bot_token=BOT_TOKEN)

    async def post(user: TgUser, path: str, body: dict[str, Any]) -> Any:
        data = {"id": user.id, "first_name": user.first_name, "language_code": "ru"}
        auth = {"Authorization": "tma " + sign_init_data(BOT_TOKEN, data, int(time.time()))}
        return await client.post(f"/api/games/{token}/{path}", json=body, headers=auth)

    with using(notifier):
        yield hooks, post
    await hooks.wait_idle()


async def test_a_mini_app_roll_and_its_post_are_one_step(
    journaled: Journaled, web: tuple[ChatHooks, Post]
) -> None:
    _, post = web
    journaled.api.slow_down("sendMessage", 0.5)
    mark = journaled.api.mark()
    response = await post(VERA, "roll", {"command": "roll", "args": "2d6"})
    assert response.status == 200, await response.text()
    # The page has its answer before Telegram has the post, whose journal row is stored.
    assert journaled.api.sent(mark) == []
    assert await OutgoingCall.all().count() == 1
    await journaled.settled()
    [posted] = journaled.api.sent(mark)
    assert posted.chat_id == GROUP.id and "2d6 [2, 5] = <b>7</b>" in posted.text


async def test_a_failure_after_a_hidden_rolls_copies_leaves_no_roll_and_no_message(
    journaled: Journaled, web: tuple[ChatHooks, Post], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, post = web
    real = bot.miniapp_hooks.deliver_hidden_roll

    async def deliver_then_break(*args: Any, **kwargs: Any) -> None:
        await real(*args, **kwargs)
        raise RuntimeError("the hook broke after the copies")

    monkeypatch.setattr(bot.miniapp_hooks, "deliver_hidden_roll", deliver_then_break)
    mark = journaled.api.mark()
    response = await post(VERA, "roll", {"command": "roll", "args": "d20", "hidden": True})
    assert response.status == 500
    await journaled.settled()
    assert await RollLog.all().count() == 0
    assert await OutgoingCall.all().count() == 0
    assert [c.method for c in journaled.api.since(mark) if c.method != "getMe"] == []


async def test_a_scene_step_and_its_board_edit_are_one_transaction_told_once(
    journaled: Journaled, web: tuple[ChatHooks, Post]
) -> None:
    hooks, post = web
    api = journaled.api
    api.slow_down("editMessageText", 0.5)
    mark = api.mark()
    response = await post(VERA, "coin_toss", {"command": "toss"})
    assert response.status == 200, await response.text()
    # The page's answer comes once the step committed with the board's edit journaled.
    assert [c.method for c in await OutgoingCall.all()] == ["EditMessageText"]
    row = await OutboxItem.all().order_by("-id").first()
    assert row is not None
    assert [note["info"].get(TOLD) for note in load_json(row.notes)] == [True]
    async with asyncio.timeout(2):
        while not (asked := api.since(mark, "editMessageText")):
            await asyncio.sleep(0.01)
    assert asked[0].result is None  # queued after the commit, answered later
    await hooks.wait_idle()
    await journaled.settled()
    [edit] = api.since(mark, "editMessageText")
    assert "Вера: орлов 1 из 1" in edit.text

    # A sweep delivering the row again (a crash before its mark) tells nothing twice.
    await outbox.flush_marks()
    await OutboxItem.filter(id=row.id).update(delivered_at=None)
    mark = api.mark()
    assert await outbox.deliver_pending() == 1
    await hooks.wait_idle()
    await journaled.settled()
    assert api.since(mark, "editMessageText") == []


async def test_a_failure_while_telling_a_scene_step_leaves_no_step_and_no_call(
    journaled: Journaled, web: tuple[ChatHooks, Post], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, post = web
    adapter = registry.get("coins")
    assert adapter is not None and adapter.board_sync is not None
    real = adapter.board_sync

    async def edit_then_break(bot: Bot, game: GameInfo, note: Notification) -> None:
        await real(bot, game, note)
        raise RuntimeError("the board broke after its edit")

    monkeypatch.setitem(registry._SYSTEMS, "coins", replace(adapter, board_sync=edit_then_break))
    events, rows = await StreamEvent.all().count(), await OutboxItem.all().count()
    mark = journaled.api.mark()
    response = await post(VERA, "coin_toss", {"command": "toss"})
    assert response.status == 500
    await journaled.settled()
    assert await StreamEvent.all().count() == events
    assert await OutboxItem.all().count() == rows
    assert await OutgoingCall.all().count() == 0
    assert journaled.api.since(mark, "editMessageText") == []


async def test_a_row_told_after_its_commit_is_marked_with_its_calls_and_told_once(
    journaled: Journaled,
    web: tuple[ChatHooks, Post],
    dp: Dispatcher,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hooks, post = web
    api = journaled.api
    response = await post(VERA, "coin_toss", {"command": "toss"})
    assert response.status == 200, await response.text()
    await hooks.wait_idle()
    await journaled.settled()
    row = await OutboxItem.all().order_by("-id").first()
    assert row is not None

    # The row as a step made outside the web app's chat step writes it (nothing told in
    # it), undelivered, and two sweeps deliver it at once. A row may hold several notes (a
    # fight step the chase followed): told together, once, each in a step.
    notes = [outbox.Note.from_data(d) for d in load_json(row.notes)]
    assert len(notes) == 1
    untold = [replace(n, info={k: v for k, v in n.info.items() if k != TOLD}) for n in notes]
    await OutboxItem.filter(id=row.id).update(delivered_at=None)
    adapter = registry.get("coins")
    assert adapter is not None and adapter.board_sync is not None
    told: list[tuple[str, bool]] = []  # each note told: its topic, and in a step

    async def board_sync(bot: Bot, game: GameInfo, note: Notification) -> None:
        told.append((note.topic, holding_effects()))
        await adapter.board_sync(bot, game, note)  # type: ignore[misc]  # checked above

    monkeypatch.setitem(registry._SYSTEMS, "coins", replace(adapter, board_sync=board_sync))
    workers = [ChatHooks.of(journaled.tg.bot, dp) for _ in range(2)]  # two sweeps' hooks

    async def sweep(worker: ChatHooks) -> None:
        notifier = Notifier()
        notifier.subscribe(worker.on_change)
        with using(notifier):
            await outbox.deliver(row.game_id, row.id, untold * 2)
        await worker.wait_idle()

    api.slow_down("editMessageText", 0.5)
    mark = api.mark()
    await asyncio.gather(*(sweep(worker) for worker in workers))
    marked = await OutboxItem.get(id=row.id)
    assert marked.delivered_at is not None  # with the calls' journal rows
    await journaled.settled()
    assert told == [("coin_toss", True), ("coin_toss", True)]
    assert len(api.since(mark, "editMessageText")) == 1  # the second edit joined the first
