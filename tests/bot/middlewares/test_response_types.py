"""aiogram's `Response[...]` models survive the garbage collector once used
(bot/middlewares/response_types.py)."""

from __future__ import annotations

import gc
import weakref

import pytest
from aiogram import Bot
from aiogram.methods import Response
from aiogram.types import Message
from pydantic import BaseModel

from bot.middlewares.response_types import KEPT
from tests.bot.conftest import GROUP
from tests.support.fake_botapi import FakeBotAPI


class _Probe(BaseModel):
    value: int


@pytest.fixture(autouse=True)
def collectable() -> None:
    """A bot run earlier in this process (the playground's tests run it in-process) froze
    the heap of its start-up (bot/runner.py), Response[Message] with it: frozen objects are
    never collected."""
    gc.unfreeze()


def test_pydantic_frees_a_parametrised_model_nobody_holds() -> None:
    """Why the middleware exists (if pydantic ever holds them, it can go)."""
    model = weakref.ref(Response[_Probe])
    gc.collect()
    assert model() is None


async def test_the_answer_model_of_a_sent_message_is_built_once(bot: Bot, api: FakeBotAPI) -> None:
    await bot.send_message(GROUP.id, "раз")
    model = weakref.ref(Response[Message])
    gc.collect()
    assert model() is not None and model() is KEPT[Message]
    await bot.send_message(GROUP.id, "два")
    assert Response[Message] is model()  # the same model read the second answer

    del KEPT[Message]  # without the holder it goes with the next collection
    gc.collect()
    assert model() is None
    await bot.send_message(GROUP.id, "три")
    assert Message in KEPT
