from __future__ import annotations

import pytest

from engine import services

GM, ALICE, BOB, CAROL = 5_000_000_001, 101, 102, 103  # GM's id needs 64 bits
CHAT = -1_001_234_567_890


@pytest.fixture
async def users(db: object) -> None:
    await services.touch_user(GM, "Мастер", "gm")
    await services.touch_user(ALICE, "Алиса")
    await services.touch_user(BOB, "Боб", "bob")
    await services.touch_user(CAROL, "Carol")


@pytest.fixture
async def game(users: None) -> services.GameInfo:
    return await services.create_game(
        chat_id=CHAT,
        topic_id=None,
        system="savage",
        name="Bleach",
        creator_id=GM,
        chat_title="Ролевая",
        chat_type="supergroup",
    )
