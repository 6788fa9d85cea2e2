"""The playground as `python -m bot` runs it, in the test's event loop: the real runner
(database, dispatcher, web app, outbox, chat hooks) with the in-memory Bot API, on a free
port of 127.0.0.1 and a fresh SQLite file."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.playground.play import Playground
from bot.playground.start import playground_settings
from bot.playground.web import setup_playground
from bot.playground.world import FORUM_ID, GROUP_ID, PlayChat, PlayMessage
from bot.runner import run
from bot.settings import Settings

GM, ANYA, BORIS, VERA = 10001, 10002, 10003, 10004


@dataclass
class Served:
    play: Playground
    url: str  # the page, "http://127.0.0.1:<port>/"

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
    try:
        yield Served(play, play.url)
    finally:
        stop.set()
        await asyncio.wait_for(task, 30)


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[Served]:
    async for value in serve(tmp_path):
        yield value
