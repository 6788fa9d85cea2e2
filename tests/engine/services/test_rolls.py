from __future__ import annotations

import asyncio
import logging
from datetime import UTC

import pytest

from engine import services
from engine.receipt import make_receipt, short_code, verify
from engine.services import updates
from engine.services.rolls import OF_CHAT
from tests.engine.services.conftest import ALICE, BOB, CHAT, GM

RESULT = {"kind": "roll", "total": 9, "faces": [4, 5], "text": "2к6+1 удар мечом"}


async def _hidden(game: services.GameInfo, user: int = ALICE) -> services.RollRecord:
    return await services.create_hidden_roll(
        user_id=user,
        game_id=game.id,
        chat_id=user,
        topic_id=None,
        command="r",
        args="2к6+1 удар мечом",
        result=RESULT,
    )


async def test_log_roll_roundtrip(users: None) -> None:
    rec = await services.log_roll(
        user_id=ALICE,
        chat_id=CHAT,
        topic_id=7,
        game_id=None,
        command="r",
        args="d20",
        result={"total": 20, "nested": {"ж": [1, 2.5, None]}},
    )
    assert rec == await services.get_roll(rec.id)
    assert (rec.user_id, rec.chat_id, rec.topic_id, rec.game_id) == (ALICE, CHAT, 7, None)
    assert rec.result == {"total": 20, "nested": {"ж": [1, 2.5, None]}}
    assert not rec.hidden and rec.salt is None and rec.receipt is None
    assert rec.created_at.tzinfo is not None and rec.revealed_at is None
    with pytest.raises(services.NoRoll) as err:
        await services.get_roll(rec.id + 100)
    assert err.value.code == "no_roll"


async def test_hidden_roll_receipt_verifies(game: services.GameInfo) -> None:
    rec = await _hidden(game)
    assert rec.hidden and rec.salt and rec.receipt and rec.revealed_at is None
    content = services.receipt_content(rec)
    assert content == {
        "roll_id": rec.id,
        "user_id": ALICE,
        "game_id": game.id,
        "command": "r",
        "args": "2к6+1 удар мечом",
        "result": RESULT,
        "created_at": rec.created_at.astimezone(UTC).isoformat(timespec="microseconds"),
    }
    assert verify(rec.receipt, content, rec.salt)
    assert make_receipt(content, rec.salt) == rec.receipt
    # Reproducible later from the stored record alone (this is what a reveal publishes).
    stored = await services.get_roll(rec.id)
    assert stored == rec and services.verify_roll(stored)
    assert not verify(rec.receipt, {**content, "result": {**RESULT, "total": 10}}, rec.salt)
    other = await _hidden(game)
    assert other.salt != rec.salt and other.receipt != rec.receipt


async def test_reveal_by_the_gm_only(game: services.GameInfo) -> None:
    await services.join_game(game.id, ALICE)
    rec = await _hidden(game)
    with pytest.raises(services.NotGm):
        await services.reveal_roll(rec.id, actor_id=ALICE)  # the roller is not the GM
    with pytest.raises(services.NotGm):
        await services.reveal_roll(rec.id, actor_id=BOB)
    assert (await services.get_roll(rec.id)).revealed_at is None
    revealed = await services.reveal_roll(rec.id, actor_id=GM)
    assert revealed.revealed_at is not None and services.verify_roll(revealed)
    with pytest.raises(services.AlreadyRevealed) as err:
        await services.reveal_roll(rec.id, actor_id=GM)
    assert err.value.code == "already_revealed"


async def test_a_hidden_roll_is_found_by_the_code_the_group_saw(game: services.GameInfo) -> None:
    await services.join_game(game.id, ALICE)
    rec = await _hidden(game)
    assert rec.receipt is not None
    code = short_code(rec.receipt)
    assert await services.hidden_rolls_by_code(code, gm_id=GM) == [rec.id]
    assert await services.hidden_rolls_by_code(code.upper(), gm_id=GM) == [rec.id]
    assert await services.hidden_rolls_by_code(code, gm_id=ALICE) == []  # not her game to run
    await services.reveal_roll(rec.id, actor_id=GM)
    assert await services.hidden_rolls_by_code(code, gm_id=GM) == []  # no longer waiting


async def test_concurrent_reveals_exactly_one_succeeds(game: services.GameInfo) -> None:
    rec = await _hidden(game)
    results = await asyncio.gather(
        services.reveal_roll(rec.id, actor_id=GM),
        services.reveal_roll(rec.id, actor_id=GM),
        return_exceptions=True,
    )
    ok = [r for r in results if isinstance(r, services.RollRecord)]
    refused = [r for r in results if isinstance(r, services.AlreadyRevealed)]
    assert len(ok) == 1 and len(refused) == 1, results
    assert (await services.get_roll(rec.id)).revealed_at == ok[0].revealed_at


async def test_reveal_of_an_open_roll_is_refused(game: services.GameInfo) -> None:
    rec = await services.log_roll(
        user_id=ALICE,
        chat_id=CHAT,
        topic_id=None,
        game_id=game.id,
        command="r",
        args="d6",
        result={"total": 3},
    )
    with pytest.raises(services.NotHidden) as err:
        await services.reveal_roll(rec.id, actor_id=GM)
    assert err.value.code == "not_hidden"
    with pytest.raises(services.NoRoll):
        await services.reveal_roll(rec.id + 50, actor_id=GM)


async def test_hidden_roll_needs_an_active_game(game: services.GameInfo) -> None:
    with pytest.raises(services.NoGame):
        await services.create_hidden_roll(
            user_id=ALICE,
            game_id=999,
            chat_id=ALICE,
            topic_id=None,
            command="r",
            args="d6",
            result={},
        )
    await services.end_game(game.id, actor_id=GM)
    with pytest.raises(services.GameEnded):
        await _hidden(game)


async def test_pending_delivery_is_taken_once(game: services.GameInfo) -> None:
    first, second = await _hidden(game), await _hidden(game, BOB)
    await services.add_pending_delivery(first.id, GM)
    await services.add_pending_delivery(first.id, GM)  # idempotent
    await services.add_pending_delivery(second.id, GM)
    await services.add_pending_delivery(second.id, ALICE)
    taken = await services.take_pending_deliveries(GM)
    assert [r.id for r in taken] == [first.id, second.id]
    assert await services.take_pending_deliveries(GM) == []
    assert [r.id for r in await services.take_pending_deliveries(ALICE)] == [second.id]
    with pytest.raises(services.NoRoll):
        await services.add_pending_delivery(999_999, GM)


async def test_a_failed_redelivery_is_pending_again(game: services.GameInfo) -> None:
    """Taken after /start, then the send fails again: the roll waits once more, not lost."""
    roll = await _hidden(game)
    await services.add_pending_delivery(roll.id, GM)
    assert [r.id for r in await services.take_pending_deliveries(GM)] == [roll.id]
    await services.add_pending_delivery(roll.id, GM)  # the send after /start failed
    assert [r.id for r in await services.take_pending_deliveries(GM)] == [roll.id]
    assert await services.take_pending_deliveries(GM) == []


async def test_concurrent_takers_share_nothing(game: services.GameInfo) -> None:
    rolls = [await _hidden(game) for _ in range(5)]
    for r in rolls:
        await services.add_pending_delivery(r.id, GM)
    batches = await asyncio.gather(*(services.take_pending_deliveries(GM) for _ in range(3)))
    ids = [r.id for batch in batches for r in batch]
    assert sorted(ids) == [r.id for r in rolls]  # every roll exactly once


async def test_recent_rolls_are_the_newest_of_the_game_oldest_first(
    game: services.GameInfo,
) -> None:
    async def open_roll(args: str, game_id: int | None = game.id) -> services.RollRecord:
        return await services.log_roll(
            user_id=BOB, chat_id=CHAT, topic_id=None, game_id=game_id,
            command="p", args=args, result={"kind": "pool", "total": 1},
        )  # fmt: skip

    first = await open_roll("1")
    hidden = await _hidden(game)
    await open_roll("elsewhere", game_id=None)  # outside the game: never in its feed
    last = await open_roll("3")
    secret = await _hidden(game, BOB)  # stays hidden
    await services.reveal_roll(hidden.id, actor_id=GM)

    feed = await services.recent_rolls(game.id, 10)
    assert [r.id for r in feed] == [first.id, hidden.id, last.id, secret.id]
    assert feed[0] == first and feed[2] == last and feed[3] == secret
    assert feed[3].salt and feed[3].receipt and feed[3].revealed_at is None
    stored = feed[1]  # the raw record: the service never seals anything, projections do
    assert stored.hidden and stored.salt == hidden.salt and stored.receipt == hidden.receipt
    assert stored.args == "2к6+1 удар мечом" and stored.result == RESULT
    assert stored.revealed_at is not None and services.verify_roll(stored)
    assert stored == await services.get_roll(hidden.id)

    assert [r.id for r in await services.recent_rolls(game.id, 2)] == [last.id, secret.id]
    assert await services.recent_rolls(game.id, 0) == []
    assert await services.recent_rolls(game.id + 1, 10) == []


async def test_a_chat_roll_is_written_without_reading_around_it(
    game: services.GameInfo, caplog: pytest.LogCaptureFixture
) -> None:
    """The hot path of `/r` (bench/sql_steps.py): one transaction of two INSERTs — the
    update's claim and the roll, whose game is looked up inside it — and no read of the user
    before nor of the roll after."""
    with caplog.at_level(logging.DEBUG, logger="tortoise.db_client"), updates.claiming(777):
        record = await services.log_roll(
            user_id=ALICE,
            chat_id=CHAT,
            topic_id=None,
            game_id=OF_CHAT,
            command="r",
            args="2d6",
            result={"kind": "roll"},
        )
    shapes = [r.getMessage().split()[0].upper() for r in caplog.records]
    assert [s for s in shapes if s not in ("BEGIN", "COMMIT")] == ["INSERT", "INSERT"]
    assert record.game_id == game.id and record.user_id == ALICE
    assert not await services.claim_update(777)  # claimed with the roll
    elsewhere = await services.log_roll(
        user_id=ALICE,
        chat_id=CHAT + 1,
        topic_id=None,
        game_id=OF_CHAT,
        command="r",
        args="d6",
        result={"kind": "roll"},
    )
    assert elsewhere.game_id is None  # a chat with no game


async def test_a_roll_of_an_unknown_user_is_no_user(users: None) -> None:
    with pytest.raises(services.NoUser):
        await services.log_roll(
            user_id=999,
            chat_id=CHAT,
            topic_id=None,
            game_id=None,
            command="r",
            args="d6",
            result={"kind": "roll"},
        )
