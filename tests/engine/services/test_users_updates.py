from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

import pytest
from tortoise import timezone

from engine import services
from engine.services import users
from engine.store.models import ProcessedUpdate, User
from tests.engine.services.conftest import GM


async def test_touch_user_creates_then_updates(db: object) -> None:
    first = await services.touch_user(GM, "Мастер")
    assert first == services.UserInfo(GM, "Мастер", None, None, False)
    second = await services.touch_user(GM, "Мастер Игры", "master")
    assert second == services.UserInfo(GM, "Мастер Игры", "master", None, False)
    assert await services.get_user(GM) == second


async def test_concurrent_touch_of_a_new_user(db: object) -> None:
    infos = await asyncio.gather(*(services.touch_user(GM, "Мастер") for _ in range(5)))
    assert {i.id for i in infos} == {GM}


async def test_bot_started_and_language(db: object) -> None:
    await services.touch_user(GM, "Мастер")
    assert await services.get_language(GM) is None
    await services.mark_bot_started(GM)
    await services.set_language(GM, "en")
    assert await services.get_language(GM) == "en"
    info = await services.get_user(GM)
    assert info is not None and info.bot_started and info.language == "en"
    assert await services.get_language(404) is None


async def test_unknown_user_is_refused(db: object) -> None:
    with pytest.raises(services.NoUser) as err:
        await services.mark_bot_started(404)
    assert err.value.code == "no_user" and err.value.params == {"user_id": 404}
    with pytest.raises(services.NoUser):
        await services.set_language(404, "ru")


async def test_claim_update_once(db: object) -> None:
    big = 2**40 + 7
    assert await services.claim_update(big) is True
    assert await services.claim_update(big) is False
    assert await services.claim_update(big + 1) is True


async def test_concurrent_claims_of_one_update(db: object) -> None:
    results = await asyncio.gather(*(services.claim_update(77) for _ in range(6)))
    assert sorted(results) == [False] * 5 + [True]


async def test_prune_updates(db: object) -> None:
    await services.claim_update(1)
    await services.claim_update(2)
    await ProcessedUpdate.filter(update_id=1).update(created_at=timezone.now() - timedelta(days=3))
    assert await services.prune_updates(timedelta(days=1)) == 1
    assert await services.claim_update(1) is True  # forgotten, so claimable again
    assert await services.claim_update(2) is False


async def test_a_known_sender_with_the_same_name_costs_no_statement(
    db: object, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    await services.touch_user(GM, "Мастер")
    with caplog.at_level(logging.DEBUG, logger="tortoise.db_client"):
        caplog.clear()
        again = await services.touch_user(GM, "Мастер")
        assert caplog.records == []  # from this process's memory
        renamed = await services.touch_user(GM, "Мастер Игры")
        assert caplog.records  # a new name: read and written
    assert again.first_name == "Мастер" and renamed.first_name == "Мастер Игры"
    assert (await services.get_user(GM)).first_name == "Мастер Игры"  # type: ignore[union-attr]
    await services.set_language(GM, "en")
    assert (await services.touch_user(GM, "Мастер Игры")).language == "en"  # own write: at once
    await User.filter(id=GM).update(language="ru")  # another worker's write …
    assert (await services.touch_user(GM, "Мастер Игры")).language == "en"
    monkeypatch.setattr(users, "FRESH_S", 0.0)  # … is seen once the memory is old
    assert (await services.touch_user(GM, "Мастер Игры")).language == "ru"
