"""What the Mini App does, shown in the chat — durably, as a chat step's report is.

Rolls (webapp.create_app's `on_roll` / `on_reveal`, inside its `chat_step`): the web app
stores the roll and calls these hooks in the same transaction (`step_and_its_chat`), so the
roll and what it tells the chat — the post, or a hidden roll's receipt and copies — are
journaled together, and the flood control's queues deliver them (after a crash too). An open
roll is posted to the game's chat (or topic) like a chat roll, marked «from the Mini App»; a
hidden roll goes exactly the `/hr` way — private copies to the roller and the GM (kept
pending when Telegram refuses), the sealed receipt in the group; a reveal made by the GM in
the app is published like `/reveal`. Texts are in the roller's language.

Boards: a scene step made in the Mini App (origin "webapp") is told in the chat and its
board message brought up to date, so the chat stays in step with the boards. The web app runs
the step in `chat_step`, and `tell_in_step` (the notifier's in-step teller) tells it inside
the step's transaction, as a chat step's report is: the step and its calls' journal rows
commit together. A step left untold there — a row a crash left undelivered, a step made
outside `chat_step` — is told by `on_change` (an engine.services.notify subscriber) after
the commit, its outbox row marked delivered in the transaction that journals those calls
(`outbox.told_in_one_transaction`): a crash before it leaves the row to the sweep, one after
it leaves the calls to the journal — told once either way. Changes made in the chat are not
touched: the chat handlers already did that.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Coroutine
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.utils.i18n import I18n

from bot.hidden_rolls import deliver_hidden_roll, first_name, post_reveal_file, post_reveal_text
from bot.i18n import translator
from bot.middlewares.flood import step_and_its_chat
from bot.miniapp import MiniApp, using_miniapp
from bot.render.dice import app_roll_message
from bot.render.keyboards import reroll_keyboard
from bot.systems import registry
from engine.dice import result_from_dict
from engine.services import get_game, get_language, outbox, systems
from engine.services.after_commit import after_commit
from engine.services.notify import TOLD, Notification
from engine.services.types import GameInfo, RollRecord
from engine.services.updates import holding_effects
from engine.store.db import database_unreachable

log = logging.getLogger(__name__)
FROM_APP = "webapp"
RETRY_S = (1.0, 2.0, 4.0, 8.0)  # a Mini App step's chat report waiting for the database


def scene_topics() -> frozenset[str]:
    """The notification topics of scenes (every installed system's scene kinds)."""
    return frozenset(kind.name for kind in systems.scene_kinds())


@contextlib.asynccontextmanager
async def _once(item_id: int | None) -> AsyncIterator[bool]:
    """In a journaling step: the outbox row marked with the calls (False: told already).
    Without a journal the row stays held until the calls are answered, as before."""
    if not holding_effects():
        yield True
        return
    async with outbox.told_in_one_transaction(item_id) as new:
        yield new


def _ours(note: Notification) -> bool:
    """A scene step made in the Mini App: its chat is told here."""
    return note.origin == FROM_APP and note.topic in scene_topics()


class ChatHooks:
    def __init__(self, bot: Bot, i18n: I18n, miniapp: MiniApp | None = None) -> None:
        self.bot = bot
        self.i18n = i18n
        self.miniapp = miniapp  # for the «Open the Mini App» button of refreshed boards
        self._tasks: set[asyncio.Task[None]] = set()
        self._board_lock = asyncio.Lock()  # board steps are told in the order they happened
        self._batches: dict[int, list[Notification]] = {}  # an outbox row's notes so far

    @classmethod
    def of(cls, bot: Bot, dispatcher: Dispatcher, miniapp: MiniApp | None = None) -> ChatHooks:
        """Hooks using the dispatcher's catalogs (`build_dispatcher` puts `i18n` there)."""
        return cls(bot, dispatcher["i18n"], miniapp)

    @contextlib.asynccontextmanager
    async def chat_step(self) -> AsyncIterator[None]:
        """Around a Mini App roll or reveal and its hook: one transaction for the step and
        its chat calls' journal rows (nothing without a journal: the hook then goes on in
        the background, not holding the page's request behind a group's window)."""
        await self.bot.me()  # the start link's username, asked before the transaction
        async with step_and_its_chat(self.bot):
            yield

    # -- rolls ---------------------------------------------------------------------------
    async def on_roll(self, record: RollRecord) -> None:
        await self._tell(self._post_roll(record))

    async def _post_roll(self, record: RollRecord) -> None:
        if record.game_id is None:  # the Mini App only rolls inside games
            log.warning("roll %s from the Mini App has no game: not posted", record.id)
            return
        game = await get_game(record.game_id)
        roller_name = await first_name(record.user_id)
        with translator(await get_language(record.user_id), self.i18n):
            if record.hidden:
                await deliver_hidden_roll(
                    self.bot, self.i18n, record, game, roller_name=roller_name
                )
                return
            text = app_roll_message(roller_name, result_from_dict(record.result))
            markup = reroll_keyboard(record.id)
        await self.bot.send_message(
            record.chat_id, text, message_thread_id=record.topic_id, reply_markup=markup
        )

    async def on_reveal(self, record: RollRecord) -> None:
        """`record` is already revealed (the web app called engine.services.reveal_roll):
        its post in the step; the hashed text's file (an upload, waited for) after it."""
        language = await get_language(record.user_id)

        async def post(file: bool) -> None:
            with translator(language, self.i18n), using_miniapp(self.miniapp):
                if file:
                    await post_reveal_file(self.bot, record)
                else:
                    await post_reveal_text(self.bot, record, reply_to=None)

        await self._tell(post(file=False))

        async def then() -> None:
            self._spawn(post(file=True))

        if not after_commit(then):
            await then()

    async def _tell(self, work: Coroutine[Any, Any, None]) -> None:
        """Within a journaling step, at once (its calls return without waiting); else in
        the background, as Telegram's answers are waited for."""
        if holding_effects():
            await work
        else:
            self._spawn(work)

    # -- boards --------------------------------------------------------------------------
    async def tell_in_step(self, notes: list[Notification]) -> set[int]:
        """The in-step teller (engine.services.notify `Notifier.tell_in_step`): a Mini App
        scene step's notes told in the chat inside the step's own transaction (the web app
        runs it in `chat_step`), as a chat step's report is; their indexes."""
        mine = [i for i, n in enumerate(notes) if _ours(n)]
        if mine:
            await self._sync_board([notes[i] for i in mine], None)
        return set(mine)

    def on_change(self, note: Notification) -> None:
        """A notify subscriber: quick, the chat work runs in the background. The notes of
        one outbox row (a step that touched two scenes) are told together, in
        one transaction with the row's mark. Notes told in their step already are skipped."""
        if not _ours(note) or note.info.get(TOLD):
            return
        delivery = outbox.current_delivery()
        if delivery is None:
            self._spawn(self.sync_board([note]))
            return
        if (batch := self._batches.get(delivery.item_id)) is not None:
            batch.append(note)
            return
        batch = self._batches[delivery.item_id] = [note]

        async def when_all_notified() -> None:
            await delivery.notified
            del self._batches[delivery.item_id]
            await self.sync_board(batch, delivery.item_id)

        self._spawn(when_all_notified())

    async def sync_board(self, notes: list[Notification], item_id: int | None = None) -> None:
        """Tell a step's notes in the chat; `item_id`: the outbox row they come from, marked
        delivered with the calls' journal rows. A database out of reach is waited out
        (`RETRY_S`), then the row is left to the sweep."""
        async with self._board_lock:
            for pause in (*RETRY_S, None):
                try:
                    await self._sync_board(notes, item_id)
                    return
                except Exception as error:
                    if pause is None or not database_unreachable(error):
                        raise
                    log.warning("a Mini App step waits for the database: %s", error)
                    await asyncio.sleep(pause)

    async def _sync_board(self, notes: list[Notification], item_id: int | None) -> None:
        first = notes[0]
        game = first.info.get("game")  # as the step's own lock read it, when delivered live
        if not isinstance(game, GameInfo):
            game = await get_game(first.game_id)
        adapter = registry.get(game.system)
        if adapter is None or adapter.board_sync is None:
            return
        locale = await self._locale(game, first)
        await self.bot.me()  # asked before the transaction
        # In the step's own transaction (`tell_in_step`) no other is opened in it.
        step = contextlib.nullcontext() if holding_effects() else step_and_its_chat(self.bot)
        async with step, _once(item_id) as new:
            if not new:
                return  # told already
            with translator(locale, self.i18n), using_miniapp(self.miniapp):
                for note in notes:
                    await adapter.board_sync(self.bot, game, note)

    async def _locale(self, game: GameInfo, note: Notification) -> str | None:
        """Board texts in the GM's language, as when the GM types the commands."""
        if "gm_language" in note.info:
            return str(note.info["gm_language"])
        return await get_language(game.gm_id) if game.gm_id is not None else None

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        delivery = outbox.delivering()

        async def guarded() -> None:
            try:
                await work
            except Exception as error:
                if delivery and database_unreachable(error):
                    raise  # the row stays undelivered (`outbox.deliver`): the sweep's
                log.exception("keeping the chat in step with the Mini App failed")

        task = asyncio.get_running_loop().create_task(guarded())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        outbox.hold(task)  # the step counts as delivered once the chat has it

    async def wait_idle(self, timeout: float = 10.0) -> None:
        """Let pending chat updates finish (shutdown, tests)."""
        while self._tasks:
            await asyncio.wait(list(self._tasks), timeout=timeout)
