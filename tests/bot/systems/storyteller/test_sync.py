"""A Storyteller fight step made in the Mini App, told in the chat: a proposal reaches the GM
in private and the table learns only that the GM decides; its publication is posted with
the dice and the board message is edited in place."""

from __future__ import annotations

import time
from typing import Any

from aiogram import Bot, Dispatcher

from bot.miniapp_hooks import ChatHooks
from bot.settings import Settings
from engine.dice.rng import ScriptedRng
from engine.services import find_game
from engine.services.notify import Notifier, origin, using
from engine.services.storyteller import fight_command
from engine.storyteller import commands as cmd
from tests.bot.conftest import ALICE, GROUP, VERA
from tests.bot.systems.storyteller.test_fight import BOARD, Table, set_up, told
from tests.support.fake_botapi import BOT_TOKEN, ApiCall
from tests.support.telegram import TelegramDriver, TgUser
from webapp.app import create_app
from webapp.auth import sign_init_data
from webapp.links import startapp_token
from webapp.systems.commands import Ctx
from webapp.systems.storyteller.commands import FIGHT_COMMANDS


async def test_a_step_made_in_the_app_is_told_in_the_chat(
    tg: TelegramDriver, bot: Bot, dp: Dispatcher
) -> None:
    table = Table(tg)
    await set_up(table)
    await table.say(ALICE, "/init", [3, 6, 3, 5, 5, 2])  # Vera 10, Max 10, …
    board = table.board()
    game = await find_game(GROUP.id, None)
    assert game is not None
    hooks = ChatHooks.of(bot, dp)
    notifier = Notifier()
    notifier.subscribe(hooks.on_change)
    max_id = next(f.id for f in (await table.fight()).fighters if f.character.name == "Макс")
    thug = next(f.id for f in (await table.fight()).fighters if f.character.name == "Бандит 2")
    with using(notifier):
        mark = tg.api.mark()
        with origin("webapp"):
            await fight_command(
                game.id,
                cmd.Attack(max_id, thug, "Кулак"),
                actor_id=VERA.id,
                rng=ScriptedRng([9, 9, 2, 2, 2, 6, 6, 6, 2, 2, 2, 2, 2]),  # attack, damage, soak
            )
        await hooks.wait_idle()
        [review] = tg.api.sent(mark, chat_id=ALICE.id)
        assert "Предложение" in review.text and "[<b>9</b>, <b>9</b>, 2, 2, 2]" in review.text
        [notice] = tg.api.sent(mark, chat_id=GROUP.id)
        assert "ведущий" in notice.text and "[" not in notice.text
        mark = tg.api.mark()
        with origin("webapp"):
            await fight_command(game.id, cmd.Publish(), actor_id=ALICE.id, rng=ScriptedRng([]))
        await hooks.wait_idle()
        # the notice is edited into the result: one group message for the attack
        assert tg.api.sent(mark, chat_id=GROUP.id) == []
        [told] = [
            c
            for c in tg.api.since(mark, "editMessageText")
            if c.chat_id == GROUP.id and c.params["message_id"] == notice.result["message_id"]
        ]
        assert "⚔️ Атака: <b>Макс</b> → <b>Бандит 2</b>" in told.text
        edits = [c for c in tg.api.since(mark, "editMessageText") if c.text.startswith(BOARD)]
        assert edits and edits[-1].params["message_id"] == board.result["message_id"]


async def test_adjustments_in_the_app_edit_the_review_and_the_notice_in_place(
    tg: TelegramDriver, bot: Bot, dp: Dispatcher
) -> None:
    """«an automatic resolution is first shown to the GM as a proposal» (DESIGN.md decision
    5): one private copy and one group notice per proposal, whatever the GM then changes."""
    table = Table(tg)
    await set_up(table)
    await table.say(ALICE, "/init", [3, 6, 3, 5, 5, 2])
    game = await find_game(GROUP.id, None)
    assert game is not None
    hooks = ChatHooks.of(bot, dp)
    notifier = Notifier()
    notifier.subscribe(hooks.on_change)
    fighters = (await table.fight()).fighters
    max_id = next(f.id for f in fighters if f.character.name == "Макс")
    thug = next(f.id for f in fighters if f.character.name == "Бандит 2")

    async def app(user_id: int, faces: list[int], **body: object) -> None:
        ctx = Ctx(game.id, user_id, ScriptedRng(faces), dict(body))
        with origin("webapp"):
            await FIGHT_COMMANDS[str(body["command"])].run(ctx)
        await hooks.wait_idle()

    with using(notifier):
        mark = tg.api.mark()
        await app(
            VERA.id,
            [9, 9, 2, 2, 2, 6, 6, 6, 2, 2, 2, 2, 2],
            command="attack",
            actor=max_id,
            target=thug,
            weapon="Кулак",
        )
        [review] = tg.api.sent(mark, chat_id=ALICE.id)
        [notice] = tg.api.sent(mark, chat_id=GROUP.id)
        for difficulty in (9, 8):
            await app(ALICE.id, [], command="adjust", difficulty=difficulty)
        assert tg.api.sent(mark, chat_id=ALICE.id) == [review]  # no second copy
        assert tg.api.sent(mark, chat_id=GROUP.id) == [notice]  # nor a second notice
        edits = [
            c
            for c in tg.api.since(mark, "editMessageText")
            if c.chat_id == ALICE.id and c.params["message_id"] == review.result["message_id"]
        ]
        assert len(edits) == 2 and "сложность 8" in edits[-1].text.lower(), edits[-1].text
        # the copy's buttons carry the fight's new seq: pressing one works
        feed = await table.press(ALICE, edits[-1], "Опубликовать")
        assert "⚔️ Атака: <b>Макс</b> → <b>Бандит 2</b>" in told(feed)  # the notice, edited
        # undone in the app, the proposal is back: still no second copy in private
        mark = tg.api.mark()
        await app(ALICE.id, [], command="undo")
        assert (await table.fight()).proposal is not None
        assert tg.api.sent(mark, chat_id=ALICE.id) == []


class App:
    """The Mini App's HTTP API (the real aiohttp app), its notifier told to the chat."""

    def __init__(self, client: Any, game_id: int, hooks: ChatHooks, faces: Faces) -> None:
        self.client, self.hooks, self.faces = client, hooks, faces
        self.token = startapp_token(game_id, bot_token=BOT_TOKEN)

    async def send(self, user: TgUser, faces: list[int] | None = None, **body: object) -> None:
        self.faces.script = list(faces or [])
        data = {"id": user.id, "first_name": user.first_name, "language_code": "ru"}
        auth = {"Authorization": "tma " + sign_init_data(BOT_TOKEN, data, int(time.time()))}
        path = f"/api/games/{self.token}/st_fight"
        response = await self.client.post(path, json=body, headers=auth)
        assert response.status == 200, await response.text()
        await self.hooks.wait_idle()


class Faces:
    """The app's dice: each request's faces, given just before it."""

    def __init__(self) -> None:
        self.script: list[int] = []

    def randint(self, a: int, b: int) -> int:
        return self.script.pop(0)


async def test_an_undo_in_the_app_edits_the_review_and_the_notice_back(
    tg: TelegramDriver, bot: Bot, dp: Dispatcher, settings: Settings, aiohttp_client: Any
) -> None:
    """The GM's private copy of a proposal is sent once and edited; an undo made in the Mini
    App brings it back exactly as the chat's /undo does."""
    table = Table(tg)
    await set_up(table)
    await table.say(ALICE, "/init", [3, 6, 3, 5, 5, 2])
    game = await find_game(GROUP.id, None)
    assert game is not None
    hooks = ChatHooks.of(bot, dp)
    notifier = Notifier()
    notifier.subscribe(hooks.on_change)
    faces = Faces()
    client = await aiohttp_client(create_app(settings, notifier=notifier, rng=faces))
    app = App(client, game.id, hooks, faces)
    fighters = (await table.fight()).fighters
    max_id = next(f.id for f in fighters if f.character.name == "Макс")
    thug = next(f.id for f in fighters if f.character.name == "Бандит 2")
    with using(notifier):
        mark = tg.api.mark()
        await app.send(
            VERA,
            [9, 9, 2, 2, 2, 6, 6, 6, 2, 2, 2, 2, 2],
            command="attack",
            actor=max_id,
            target=thug,
            weapon="Кулак",
        )
        [review] = tg.api.sent(mark, chat_id=ALICE.id)
        [notice] = tg.api.sent(mark, chat_id=GROUP.id)
        dm = review.result["message_id"]

        def review_edits(since: int) -> list[ApiCall]:
            return [
                c
                for c in tg.api.since(since, "editMessageText")
                if c.chat_id == ALICE.id and c.params["message_id"] == dm
            ]

        await app.send(ALICE, command="adjust", difficulty=9)
        await app.send(ALICE, command="adjust", difficulty=8)
        assert "сложность 8" in review_edits(mark)[-1].text.lower()
        # an adjustment undone in the app: the copy shows the difficulty before it
        undo = tg.api.mark()
        await app.send(ALICE, command="undo")
        [back] = review_edits(undo)
        assert "сложность 9" in back.text.lower() and "Опубликовать" in str(back.buttons())
        assert tg.api.sent(undo, chat_id=ALICE.id) == []  # edited, not sent again
        assert tg.api.sent(undo, chat_id=GROUP.id) == []  # the notice is kept, not repeated
        # published from the copy (it says so), then undone in the app: the copy is back
        feed = await table.press(ALICE, back, "Опубликовать")
        assert "⚔️ Атака: <b>Макс</b> → <b>Бандит 2</b>" in told(feed)  # the notice, edited
        assert "Опубликовано" in review_edits(undo)[-1].text
        undo = tg.api.mark()
        await app.send(ALICE, command="undo")
        assert (await table.fight()).proposal is not None
        [again] = review_edits(undo)
        assert "Опубликовано" not in again.text and "сложность 9" in again.text.lower()
        assert tg.api.sent(undo, chat_id=ALICE.id) == []

        def notice_edits(since: int) -> list[ApiCall]:
            return [
                c
                for c in tg.api.since(since, "editMessageText")
                if c.chat_id == GROUP.id and c.params["message_id"] == notice.result["message_id"]
            ]

        # the published result struck through as the chat's /undo does, the notice under it
        [struck] = notice_edits(undo)
        assert tg.api.sent(undo, chat_id=GROUP.id) == []
        lines = struck.text.split("\n")
        assert struck.text.startswith("<s>⚔️ Атака: <b>Макс</b> → <b>Бандит 2</b>")
        assert "↩️ Отменено ведущим." in lines and lines[-1].startswith("⏳ Атака"), lines
        # published again from the app: the same message edited, no second one
        again_mark = tg.api.mark()
        await app.send(ALICE, command="publish")
        [republished] = notice_edits(again_mark)
        assert republished.text.startswith("⚔️ Атака: <b>Макс</b> → <b>Бандит 2</b>")
        assert tg.api.sent(again_mark, chat_id=GROUP.id) == []
        # undone in the app once more: the restored copy's buttons carry the fight's seq
        undo = tg.api.mark()
        await app.send(ALICE, command="undo")
        [again] = review_edits(undo)
        feed = await table.press(ALICE, again, "Опубликовать")
        assert "⚔️ Атака: <b>Макс</b> → <b>Бандит 2</b>" in told(feed)  # the notice, edited
        posts = tg.api.sent(mark, chat_id=GROUP.id)
        assert [c for c in posts if "Атака" in c.text] == [notice]  # one message, all along
        # the board's undo button in the chat does the same: the copy edited back, once
        undo = tg.api.mark()
        await table.press(ALICE, table.board(), "Отменить")
        assert (await table.fight()).proposal is not None
        [restored] = review_edits(undo)
        assert "Опубликовать" in str(restored.buttons())
        assert tg.api.sent(undo, chat_id=ALICE.id) == []
        # undone in the app down to before the attack (the adjustments, then the proposal):
        # its message struck through, «the GM dropped the attack», as the chat's /undo does
        undo = tg.api.mark()
        for _ in range(2):
            await app.send(ALICE, command="undo")
        assert (await table.fight()).proposal is None
        dropped = notice_edits(undo)[-1]
        assert dropped.text.startswith("<s>⏳ Атака") and "Ведущий отменил атаку" in dropped.text
        assert tg.api.sent(undo, chat_id=GROUP.id) == []
