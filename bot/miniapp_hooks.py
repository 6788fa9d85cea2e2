"""What the Mini App does, shown in the chat.

Rolls (webapp.create_app's `on_roll` / `on_reveal`): the web app stores the roll, pushes it
to the open boards and then calls these hooks in the background. An open roll is posted to
the game's chat (or topic) like a chat roll, marked «from the Mini App»; a hidden roll goes
exactly the `/hr` way — private copies to the roller and the GM (kept pending when Telegram
refuses), the sealed receipt in the group; a reveal made by the GM in the app is published
like `/reveal`. Texts are in the roller's language (what a chat command of theirs gets).

Boards (`on_change`, an engine.services.notify subscriber): a scene step made in the
Mini App (origin "webapp") is told in the chat and its board message is brought up to date,
so the chat stays in step with the boards. Changes made in the chat are not touched: the
chat handlers already did that.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.utils.i18n import I18n

from bot.hidden_rolls import deliver_hidden_roll, first_name, post_reveal
from bot.i18n import translator
from bot.miniapp import MiniApp, using_miniapp
from bot.render.dice import app_roll_message
from bot.render.keyboards import reroll_keyboard
from bot.systems import registry
from engine.dice import result_from_dict
from engine.services import get_game, get_language, outbox, systems
from engine.services.notify import Notification
from engine.services.types import GameInfo, RollRecord

log = logging.getLogger(__name__)
FROM_APP = "webapp"


def scene_topics() -> frozenset[str]:
    """The notification topics of scenes (every installed system's scene kinds)."""
    return frozenset(kind.name for kind in systems.scene_kinds())


class ChatHooks:
    def __init__(self, bot: Bot, i18n: I18n, miniapp: MiniApp | None = None) -> None:
        self.bot = bot
        self.i18n = i18n
        self.miniapp = miniapp  # for the «Open the Mini App» button of refreshed boards
        self._tasks: set[asyncio.Task[None]] = set()
        self._board_lock = asyncio.Lock()  # board steps are told in the order they happened

    @classmethod
    def of(cls, bot: Bot, dispatcher: Dispatcher, miniapp: MiniApp | None = None) -> ChatHooks:
        """Hooks using the dispatcher's catalogs (`build_dispatcher` puts `i18n` there)."""
        return cls(bot, dispatcher["i18n"], miniapp)

    # -- rolls ---------------------------------------------------------------------------
    async def on_roll(self, record: RollRecord) -> None:
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
        """`record` is already revealed (the web app called engine.services.reveal_roll)."""
        with translator(await get_language(record.user_id), self.i18n), using_miniapp(self.miniapp):
            await post_reveal(self.bot, record)

    # -- boards --------------------------------------------------------------------------
    def on_change(self, note: Notification) -> None:
        """A notify subscriber: quick, the chat work runs in the background."""
        if note.origin == FROM_APP and note.topic in scene_topics():
            self._spawn(self.sync_board(note))

    async def sync_board(self, note: Notification) -> None:
        async with self._board_lock:
            game = note.info.get("game")  # as the step's own lock read it, when delivered live
            if not isinstance(game, GameInfo):
                game = await get_game(note.game_id)
            adapter = registry.get(game.system)
            if adapter is None or adapter.board_sync is None:
                return
            locale = await self._locale(game, note)
            with translator(locale, self.i18n), using_miniapp(self.miniapp):
                await adapter.board_sync(self.bot, game, note)

    async def _locale(self, game: GameInfo, note: Notification) -> str | None:
        """Board texts in the GM's language, as when the GM types the commands."""
        if "gm_language" in note.info:
            return str(note.info["gm_language"])
        return await get_language(game.gm_id) if game.gm_id is not None else None

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        async def guarded() -> None:
            try:
                await work
            except Exception:
                log.exception("keeping the chat in step with the Mini App failed")

        task = asyncio.get_running_loop().create_task(guarded())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        outbox.hold(task)  # the step counts as delivered once the chat has it

    async def wait_idle(self, timeout: float = 10.0) -> None:
        """Let pending chat updates finish (shutdown, tests)."""
        while self._tasks:
            await asyncio.wait(list(self._tasks), timeout=timeout)
