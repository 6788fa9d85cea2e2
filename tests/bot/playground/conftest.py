"""The playground as `python -m bot` runs it, in the test's event loop: the real runner
(database, dispatcher, web app, outbox, chat hooks) with the in-memory Bot API, on a free
port of 127.0.0.1 and a fresh SQLite file."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import translator
from bot.playground.play import Playground
from bot.playground.start import playground_settings
from bot.playground.web import setup_playground
from bot.playground.world import FORUM_ID, GROUP_ID, PlayChat, PlayMessage
from bot.render.errors import unexpected_error_text
from bot.runner import run
from bot.settings import Settings

GM, ANYA, BORIS, VERA = 10001, 10002, 10003, 10004


@dataclass
class Served:
    play: Playground
    url: str  # the page, "http://127.0.0.1:<port>/"
    events: list[dict[str, Any]] = field(default_factory=list)  # what the page was told

    @property
    def group(self) -> PlayChat:
        return self.play.world.chats[GROUP_ID]

    @property
    def forum(self) -> PlayChat:
        return self.play.world.chats[FORUM_ID]

    def chat(self, chat_id: int) -> PlayChat:
        return self.play.world.chats[chat_id]

    def bot_messages(self, chat_id: int, after: int = 0) -> list[PlayMessage]:
        bot_id = self.play.world.bot["id"]
        chat = self.chat(chat_id)
        return [m for m in chat.messages.values() if m.sender["id"] == bot_id and m.id > after]

    def last(self, chat_id: int) -> PlayMessage:
        return list(self.chat(chat_id).messages.values())[-1]

    def answers(self, chat_id: int) -> list[tuple[str, list[str]]]:
        """Each user's message in the chat, with the texts of the bot's replies to it."""
        bot_id = self.play.world.bot["id"]
        messages = self.chat(chat_id).messages.values()
        return [
            (m.text, [r.text for r in messages if r.reply_to == m.id and r.sender["id"] == bot_id])
            for m in messages
            if m.sender["id"] != bot_id and m.topic_created is None
        ]

    def failures(self) -> list[str]:
        """The bot's messages, in any chat, that tell an unexpected failure."""
        with translator("ru"):
            failed = unexpected_error_text()
        chats = self.play.world.chats.values()
        return [m.text for c in chats for m in c.messages.values() if failed in m.text]

    def alerts(self) -> list[str]:
        """The alerts the bot answered button presses with (a refusal is one)."""
        return [e["text"] for e in self.events if e["type"] == "toast" and e["alert"]]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def serve(tmp_path: Path) -> AsyncIterator[Served]:
    play = Playground()
    play.routes = lambda app: setup_playground(app, play)
    port = free_port()
    base = Settings(host="127.0.0.1", port=port, _env_file=None)  # type: ignore[call-arg]
    stop = asyncio.Event()
    task = asyncio.create_task(
        run(playground_settings(base, play.token, tmp_path), stop=stop, playground=play)
    )
    for _ in range(400):
        if play.bot is not None or task.done():
            break
        await asyncio.sleep(0.025)
    if task.done():
        task.result()  # start-up failed: show why
    assert play.bot is not None, "the playground did not start"
    served = Served(play, play.url)
    play.world.subscribe(served.events.append)
    try:
        yield served
    finally:
        stop.set()
        await asyncio.wait_for(task, 30)


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[Served]:
    async for value in serve(tmp_path):
        yield value
