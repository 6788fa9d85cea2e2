"""The intake (bot/intake.py) on a real database: updates stored before they are acknowledged,
handled chat by chat with the slots shared fairly, handled again after a database outage.

The handler is the test's own (what the dispatcher would run), so the lanes' order and
concurrency can be watched exactly; tests/bot/test_intake_runner.py drives the real process."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from aiogram import Bot
from aiogram.types import Update
from tortoise.exceptions import DBConnectionError

from bot.intake import PER_CHAT, Intake, Malformed, lane_of, parse
from engine.services.inbox import Inbox, Received, waiting
from engine.services.updates import claim_update
from engine.store.models import ReceivedUpdate
from tests.support.fake_botapi import BOT_TOKEN

BUSY, QUIET = -100501, -100502


def update(update_id: int, chat_id: int, text: str = "/r d6") -> Update:
    kind = "supergroup" if chat_id < 0 else "private"
    return Update.model_validate(
        {
            "update_id": update_id,
            "message": {
                "message_id": update_id,
                "date": int(time.time()),
                "chat": {"id": chat_id, "type": kind, "title": "Стол"},
                "from": {"id": 7, "is_bot": False, "first_name": "Игрок"},
                "text": text,
            },
        }
    )


class Recorder:
    """A handler that holds every update of the busy chat until `release`."""

    def __init__(self) -> None:
        self.started: list[int] = []
        self.running: dict[str, int] = {}
        self.most: dict[str, int] = {}
        self.gate = asyncio.Event()

    async def __call__(self, event: Update) -> None:
        lane = lane_of(event)
        self.started.append(event.update_id)
        self.running[lane] = self.running.get(lane, 0) + 1
        self.most[lane] = max(self.most.get(lane, 0), self.running[lane])
        try:
            if lane == f"chat:{BUSY}":
                await self.gate.wait()
        finally:
            self.running[lane] -= 1


def intake_of(handle: Any, slots: int = 4) -> Intake:
    bot = Bot(BOT_TOKEN)
    return Intake(None, bot, Inbox("test-worker"), slots=slots, handle=handle)  # type: ignore[arg-type]


async def until(predicate: Any, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


async def test_a_busy_chat_holds_a_few_slots_and_the_others_go_first(db: object) -> None:
    recorder = Recorder()
    intake = intake_of(recorder, slots=4)
    await intake.receive([update(i, BUSY) for i in range(1, 101)])
    await until(lambda: len(recorder.started) == PER_CHAT)
    await intake.receive([update(500, QUIET), update(501, 42, "/help")])
    # the quiet group and the private chat start at once, beside the busy group's few
    await until(lambda: {500, 501} <= set(recorder.started))
    assert recorder.most[f"chat:{BUSY}"] == PER_CHAT
    assert intake.queued == 100 - PER_CHAT
    recorder.gate.set()
    await until(lambda: len(recorder.started) == 102)
    busy = [i for i in recorder.started if i < 500]
    assert busy == list(range(1, 101))  # a chat's updates start in the order they came
    await until(lambda: intake.active == 0)
    await intake.inbox.flush()
    assert await waiting() == 0  # handled: forgotten


async def test_an_update_is_stored_before_it_is_queued_and_only_once(db: object) -> None:
    recorder = Recorder()
    intake = intake_of(recorder)
    assert await intake.receive([update(1, BUSY)]) == 1
    assert await waiting() == 1  # stored (the busy chat's handler holds it)
    assert await intake.receive([update(1, BUSY)]) == 0  # Telegram's resend: dropped
    await claim_update(2)  # an update handled already (its id claimed by its step)
    assert await intake.receive([update(2, QUIET)]) == 0
    recorder.gate.set()
    await until(lambda: intake.active == 0)
    assert recorder.started == [1]


async def test_an_update_that_met_a_database_outage_is_handled_again(db: object) -> None:
    tries: list[float] = []

    async def flaky(event: Update) -> None:
        tries.append(time.monotonic())
        if len(tries) < 3:
            raise DBConnectionError("connection refused")

    intake = intake_of(flaky)
    await intake.receive([update(1, QUIET)])
    await until(lambda: len(tries) == 3 and intake.active == 0, 10)
    assert tries[2] - tries[1] >= tries[1] - tries[0] > 0.3  # a growing pause
    await intake.inbox.flush()
    assert await waiting() == 0


async def test_another_failure_is_not_retried(db: object) -> None:
    tries = 0

    async def broken(event: Update) -> None:
        nonlocal tries
        tries += 1
        raise RuntimeError("a bug")

    intake = intake_of(broken)
    await intake.receive([update(1, QUIET)])
    await until(lambda: intake.active == 0)
    await asyncio.sleep(0.2)
    assert tries == 1


async def test_what_a_stopped_worker_left_is_taken_once_its_lease_ran_out(db: object) -> None:
    left = Inbox("stopped-worker")
    await left.store([Received(9, f"chat:{QUIET}", update(9, QUIET).model_dump_json())])
    recorder = Recorder()
    intake = intake_of(recorder)
    from datetime import timedelta

    assert await intake.resume(timedelta(seconds=60)) == 0  # its claim is fresh
    await ReceivedUpdate.filter(update_id=9).update(claimed_at=None)
    assert await intake.resume(timedelta(seconds=60)) == 1
    await until(lambda: recorder.started == [9])
    assert await intake.resume(timedelta(seconds=60)) == 0  # ours now


async def test_a_body_that_is_no_update_is_malformed() -> None:
    bot = Bot(BOT_TOKEN)
    for body in (b"{", b"", b"\xff\xfe", b"[]", b'{"update_id": "x"}', b"null"):
        try:
            parse(body, bot)
        except Malformed:
            continue
        raise AssertionError(f"{body!r} was read as an update")
    assert parse(b'{"update_id": 5}', bot).update_id == 5
