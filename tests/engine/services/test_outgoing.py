"""The journal of chat calls (engine/services/outgoing.py): order, claims, the posts' real ids."""

from __future__ import annotations

from datetime import timedelta

from engine import services
from engine.services import outgoing
from engine.services.aggregates.sql import now
from engine.services.live import swap_live_message, take_live_messages
from engine.services.outgoing import Kept
from engine.services.savage import start_encounter
from engine.store.models import OutgoingCall, SentCall
from tests.engine.services.conftest import GM

LEASE = timedelta(minutes=1)


def calls() -> list[Kept]:
    return [
        Kept(chat, "SendMessage", {"chat_id": int(chat), "text": f"{chat}:{i}"})
        for i in range(3)
        for chat in ("-100", "7")
    ]


async def test_claimed_in_the_order_stored(db: object) -> None:
    assert await outgoing.store(calls()) == 6
    taken = await outgoing.claim()
    assert [c.payload["text"] for c in taken] == [c.payload["text"] for c in calls()]
    assert [c.id for c in taken] == sorted(c.id for c in taken if c.id is not None)


async def test_a_claimed_row_is_not_claimed_again_until_its_lease_ran_out(db: object) -> None:
    await outgoing.store(calls())
    first = await outgoing.claim(lease=LEASE)
    assert len(first) == 6
    assert await outgoing.claim(lease=LEASE) == []  # another worker sends them
    # that worker stopped: once the lease ran out, they are claimed anew
    await OutgoingCall.filter(id=first[0].id).update(claimed_at=now() - 2 * LEASE)
    [again] = await outgoing.claim(lease=LEASE)
    assert again.payload == first[0].payload
    # alone at start-up, every row is the last run's
    assert len(await outgoing.claim()) == 6


async def test_done_removes_the_row(db: object) -> None:
    await outgoing.store(calls()[:2])
    first, second = await outgoing.claim()
    await outgoing.done(first)
    assert [c.payload for c in await outgoing.claim()] == [second.payload]


async def test_nothing_stored_nothing_claimed(db: object) -> None:
    assert await outgoing.store([]) == 0
    assert await outgoing.claim() == []


async def test_a_sent_posts_real_id_is_kept_and_given_to_a_board_stored_before_it(
    game: services.GameInfo,
) -> None:
    """A handler that went on holds a post's row id, negated (bot/middlewares/flood.py): once
    the post is sent its real id answers `real_id`, and a board stored with the provisional
    id is given the real one — at once, or by the prune if the board came after the mark."""
    await start_encounter(game.id, actor_id=GM)
    await outgoing.store(calls()[:2])
    first, second = await outgoing.claim()
    assert first.id is not None and second.id is not None
    assert await outgoing.real_id(first.id) == outgoing.PENDING  # still queued
    await services.set_board_message(game.id, "encounter", -first.id)
    await outgoing.done(first, 4321)
    assert await outgoing.real_id(first.id) == 4321
    assert await services.board_message(game.id, "encounter") == 4321
    await outgoing.done(second)  # refused: it never gets an id
    assert await outgoing.real_id(second.id) is None
    # a board stored with the provisional id after the mark: the prune mends it
    await services.set_board_message(game.id, "encounter", -first.id)
    assert await outgoing.prune_sent() == 0  # younger than a day
    assert await services.board_message(game.id, "encounter") == 4321
    await SentCall.filter(id=first.id).update(created_at=now() - timedelta(days=2))
    assert await outgoing.prune_sent() == 1
    assert await outgoing.real_id(first.id) is None


async def test_a_live_form_stored_before_its_post_was_sent_is_given_the_real_id(
    game: services.GameInfo,
) -> None:
    """A duel's form sent within its step is stored with its provisional id
    (engine/services/live.py): once sent it holds the real one, so a later close edits the
    real message — at once, or by the prune for a form stored after the mark."""
    scene = await start_encounter(game.id, actor_id=GM)  # any stream holds live messages
    await outgoing.store(calls()[:1])
    [first] = await outgoing.claim()
    assert first.id is not None
    assert await swap_live_message(game.id, scene.stream, "a", (7, -first.id)) is None
    await outgoing.done(first, 4321)
    assert await take_live_messages(game.id, scene.stream) == {"a": (7, 4321)}
    await swap_live_message(game.id, scene.stream, "a", (7, -first.id))  # after the mark
    assert await outgoing.prune_sent() == 0
    assert await take_live_messages(game.id, scene.stream) == {"a": (7, 4321)}
