"""Fixtures of the Mini App tests: a game with a GM, two players and a stranger, the app,
and signed initData for each of them."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from pydantic import SecretStr

from bot.settings import Settings
from engine.services import create_game, join_game, touch_user
from engine.services.notify import using
from engine.services.types import GameInfo, RollRecord
from webapp.app import create_app
from webapp.auth import sign_init_data
from webapp.config import WebAppConfig
from webapp.keys import NOTIFIER
from webapp.links import startapp_token

TOKEN = "123456:TEST-token-for-the-mini-app"
GM_ID, PLAYER_ID, OTHER_ID, STRANGER_ID = 1001, 1002, 1003, 2001
NAMES = {GM_ID: "Мастер", PLAYER_ID: "Аня", OTHER_ID: "Борис", STRANGER_ID: "Гость"}


def user(user_id: int, lang: str = "ru") -> dict[str, Any]:
    return {"id": user_id, "first_name": NAMES.get(user_id, "Кто-то"), "language_code": lang}


def init_for(
    user_id: int, *, token: str = TOKEN, auth_date: int | None = None, lang: str = "ru", **kw: Any
) -> str:
    return sign_init_data(token, user(user_id, lang), auth_date or int(time.time()), **kw)


def auth(user_id: int, **kw: Any) -> dict[str, str]:
    return {"Authorization": "tma " + init_for(user_id, **kw)}


@dataclass
class Hooks:
    rolls: list[RollRecord] = field(default_factory=list)
    reveals: list[RollRecord] = field(default_factory=list)

    async def on_roll(self, record: RollRecord) -> None:
        self.rolls.append(record)

    async def on_reveal(self, record: RollRecord) -> None:
        self.reveals.append(record)


@pytest.fixture
def hooks() -> Hooks:
    return Hooks()


@pytest.fixture
def make_app(hooks: Hooks) -> Callable[..., Any]:
    def build(**config: Any) -> Any:
        settings = Settings(bot_token=SecretStr(TOKEN))
        return create_app(
            settings,
            webapp_config=WebAppConfig(**config),
            on_roll=hooks.on_roll,
            on_reveal=hooks.on_reveal,
            rng=random.Random(7),
        )

    return build


@pytest.fixture
async def client(db, aiohttp_client, make_app):  # type: ignore[no-untyped-def]
    app = make_app()
    # The test body calls the services as the bot in the same process does: it tells the
    # app's notifier (the runner shares one between the bot and the app).
    with using(app[NOTIFIER]):
        yield await aiohttp_client(app)


async def make_game(system: str = "storyteller", chat_id: int = -100123) -> GameInfo:
    for uid, name in NAMES.items():
        await touch_user(uid, name)
    game = await create_game(
        chat_id=chat_id,
        topic_id=None,
        system=system,
        name="Тени Чикаго",
        creator_id=GM_ID,
        chat_title="Ночной клуб",
    )
    await join_game(game.id, PLAYER_ID)
    return await join_game(game.id, OTHER_ID)


@pytest.fixture
async def game(db) -> GameInfo:  # type: ignore[no-untyped-def]
    return await make_game()


@pytest.fixture
def gtoken(game: GameInfo) -> str:
    return startapp_token(game.id, bot_token=TOKEN)
