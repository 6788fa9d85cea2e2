"""The outbox: a step's notifications are written in its own transaction and delivered
after the commit; what a crash leaves undelivered is delivered at the next start, once."""

from __future__ import annotations

import asyncio
import json
import random
from datetime import timedelta

import pytest

from engine import services
from engine.savage import NextTurn
from engine.savage.events import RoundStarted
from engine.services import outbox
from engine.services import savage as swade
from engine.services.aggregates import unit as agg_unit
from engine.services.notify import Notification, Notifier, using
from engine.services.storyteller.aggregates import FIGHT
from engine.store.models import OutboxItem
from engine.storyteller.events import ProposalPublished
from tests.engine.services.conftest import ALICE, GM
from tests.engine.services.test_races import fight


@pytest.fixture
def heard() -> list[Notification]:
    notes: list[Notification] = []
    notifier = Notifier()
    notifier.subscribe(notes.append)
    with using(notifier):
        yield notes


async def test_a_step_and_its_notifications_are_one_row_delivered_after_the_commit(
    game: services.GameInfo, heard: list[Notification]
) -> None:
    await fight(game)
    heard.clear()
    dealt = await swade.encounter_command(game.id, NextTurn(), actor_id=GM, rng=random.Random(1))
    rows = await OutboxItem.filter(game_id=game.id).order_by("-id").limit(1)
    assert rows  # delivered; marked with the next write (below)
    stored = [outbox.Note.from_data(d) for d in rows[0].notes]
    assert [(n.topic, n.info["seq"]) for n in stored] == [("encounter", dealt.seq)]
    assert stored[0].info["events"] == dealt.events  # decoded by the encounter's aggregate
    assert [(n.topic, n.info["seq"], n.info["events"]) for n in heard] == [
        ("encounter", dealt.seq, dealt.events)
    ]


async def test_delivered_rows_are_marked_together_within_a_second_not_by_the_steps(
    game: services.GameInfo, heard: list[Notification], monkeypatch: pytest.MonkeyPatch
) -> None:
    await fight(game)
    await outbox.flush_marks()
    monkeypatch.setattr(outbox, "MARK_AFTER_S", 0.2)
    for seed in (1, 2, 3):
        await swade.encounter_command(game.id, NextTurn(), actor_id=GM, rng=random.Random(seed))
    rows = await OutboxItem.filter(game_id=game.id).order_by("-id").limit(3)
    assert len(rows) == 3 and all(r.delivered_at is None for r in rows)  # told, not marked
    assert await outbox.deliver_pending() == 0  # this process told them: nothing again
    for _ in range(100):
        await asyncio.sleep(0.02)
        marks = [(await OutboxItem.get(id=r.id)).delivered_at for r in rows]
        if all(m is not None for m in marks):
            break
    assert len(set(marks)) == 1 and None not in marks  # one UPDATE for the three


async def test_shutdown_marks_what_was_delivered(
    game: services.GameInfo, heard: list[Notification]
) -> None:
    await fight(game)
    await swade.encounter_command(game.id, NextTurn(), actor_id=GM, rng=random.Random(1))
    [row] = await OutboxItem.filter(game_id=game.id).order_by("-id").limit(1)
    assert row.delivered_at is None
    await outbox.flush_marks()  # what bot/runner.py does before closing the database
    await row.refresh_from_db()
    assert row.delivered_at is not None


async def test_a_refused_step_writes_nothing(
    game: services.GameInfo, heard: list[Notification]
) -> None:
    await fight(game)
    before = await OutboxItem.filter(game_id=game.id).count()
    heard.clear()
    with pytest.raises(services.NotMember):
        await swade.encounter_command(game.id, NextTurn(), actor_id=ALICE, rng=random.Random())
    assert await OutboxItem.filter(game_id=game.id).count() == before
    assert heard == []


async def test_a_crash_between_commit_and_delivery_loses_and_repeats_nothing(
    game: services.GameInfo, heard: list[Notification], monkeypatch: pytest.MonkeyPatch
) -> None:
    await fight(game)
    await outbox.deliver_pending()
    heard.clear()

    async def crash(*args: object) -> None:
        raise SystemExit("the process died after the commit")

    monkeypatch.setattr(agg_unit.outbox, "deliver", crash)
    with pytest.raises(SystemExit):
        await swade.encounter_command(game.id, NextTurn(), actor_id=GM, rng=random.Random(2))
    monkeypatch.undo()
    view = await swade.current_encounter(game.id)
    assert view is not None and view.state.round == 1  # the step itself is committed
    assert heard == []  # … and nobody was told

    assert await outbox.deliver_pending() == 1  # the next start
    assert [(n.topic, n.info["seq"], n.origin) for n in heard] == [("encounter", view.seq, "chat")]
    assert any(isinstance(e, RoundStarted) for e in heard[0].info["events"])  # decoded
    assert await outbox.deliver_pending() == 0  # delivered once
    assert len(heard) == 1


async def _crashed_step(game: services.GameInfo, monkeypatch: pytest.MonkeyPatch) -> None:
    """A step committed by a worker that died before delivering it."""

    async def crash(*args: object) -> None:
        raise SystemExit("the worker died after the commit")

    monkeypatch.setattr(agg_unit.outbox, "deliver", crash)
    with pytest.raises(SystemExit):
        await swade.encounter_command(game.id, NextTurn(), actor_id=GM, rng=random.Random(2))
    monkeypatch.undo()


async def test_another_worker_takes_a_stopped_workers_row_only_after_its_lease(
    game: services.GameInfo, heard: list[Notification], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Several workers: a row its writer may still be delivering is not another's to take."""
    await fight(game)
    await outbox.deliver_pending()
    await _crashed_step(game, monkeypatch)
    heard.clear()
    lease = timedelta(seconds=30)
    assert await outbox.deliver_pending(lease=lease) == 0  # claimed by its writer just now
    [row] = await OutboxItem.filter(game_id=game.id, delivered_at__isnull=True)
    await OutboxItem.filter(id=row.id).update(claimed_at=row.claimed_at - timedelta(seconds=31))
    assert await outbox.deliver_pending(lease=lease) == 1
    assert [n.topic for n in heard] == ["encounter"]
    assert await outbox.deliver_pending(lease=lease) == 0


async def test_two_workers_sweeping_at_once_deliver_a_row_once(
    game: services.GameInfo, heard: list[Notification], monkeypatch: pytest.MonkeyPatch
) -> None:
    await fight(game)
    await outbox.deliver_pending()
    await _crashed_step(game, monkeypatch)
    await OutboxItem.filter(delivered_at__isnull=True).update(claimed_at=None)  # long stopped
    heard.clear()
    lease = timedelta(seconds=30)
    counts = await asyncio.gather(*(outbox.deliver_pending(lease=lease) for _ in range(4)))
    assert sorted(counts) == [0, 0, 0, 1]
    assert len(heard) == 1


async def test_a_row_whose_chat_work_is_held_stays_undelivered_until_it_is_done(
    game: services.GameInfo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A subscriber that queued a chat post holds the row (`outbox.hold`): a worker killed
    before the post went out leaves the row to another worker instead of losing it."""
    await fight(game)
    await outbox.deliver_pending()
    posted = asyncio.Event()
    notifier = Notifier()

    def chat_post(note: Notification) -> None:
        outbox.hold(asyncio.ensure_future(posted.wait()))

    notifier.subscribe(chat_post)
    with using(notifier):
        await swade.encounter_command(game.id, NextTurn(), actor_id=GM, rng=random.Random(1))
    await outbox.flush_marks()
    [row] = await OutboxItem.filter(game_id=game.id).order_by("-id").limit(1)
    assert row.delivered_at is None  # the post is still on its way
    posted.set()
    assert await outbox.wait_held(5) == 0
    await outbox.flush_marks()
    await row.refresh_from_db()
    assert row.delivered_at is not None


async def test_a_change_to_the_game_is_told_through_the_outbox_once_committed(
    game: services.GameInfo, heard: list[Notification]
) -> None:
    """Membership, the GM, the options: one row in the change's transaction, then told."""
    await services.join_game(game.id, ALICE)
    await swade.set_quiet_mode(game.id, True, actor_id=GM)
    await services.transfer_gm(game.id, actor_id=GM, new_gm_id=ALICE)
    changes = ["player_joined", "options_changed", "gm_changed"]
    assert [(n.topic, n.info["change"]) for n in heard] == [("game", c) for c in changes]
    rows = await OutboxItem.filter(game_id=game.id).order_by("id")
    assert [outbox.Note.from_data(d).info["change"] for r in rows for d in r.notes] == changes
    assert await outbox.deliver_pending() == 0  # told once, nothing again at a restart
    # a refused change writes and tells nothing
    with pytest.raises(services.NotGm):
        await swade.set_quiet_mode(game.id, False, actor_id=GM)  # no longer the GM
    assert len(heard) == 3 and await OutboxItem.filter(game_id=game.id).count() == 3


@pytest.mark.parametrize("crashed", ["start_encounter", "start_chase", "end_encounter"])
async def test_a_scene_opened_or_closed_is_told_once_even_after_a_crash(
    game: services.GameInfo,
    heard: list[Notification],
    monkeypatch: pytest.MonkeyPatch,
    crashed: str,
) -> None:
    """Opening and closing a scene is one transaction with its outbox row, as a step is:
    the boards (and a Mini App start's chat board) are told after a crash too, once."""
    if crashed == "end_encounter":
        await swade.start_encounter(game.id, actor_id=GM)
    await outbox.deliver_pending()
    heard.clear()

    async def crash(*args: object) -> None:
        raise SystemExit("the process died after the commit")

    calls = {
        "start_encounter": lambda: swade.start_encounter(game.id, actor_id=GM),
        "start_chase": lambda: swade.start_chase(game.id, actor_id=GM, rng=random.Random(1)),
        "end_encounter": lambda: swade.end_encounter(game.id, actor_id=GM),
    }
    monkeypatch.setattr(agg_unit.outbox, "deliver", crash)
    with pytest.raises(SystemExit):
        await calls[crashed]()
    monkeypatch.undo()
    assert heard == []
    kind = "chase" if crashed == "start_chase" else "encounter"
    opened = kind == "chase" or crashed == "start_encounter"
    view = await (swade.current_chase if kind == "chase" else swade.current_encounter)(game.id)
    assert (view is not None) is opened  # committed: open, or closed
    assert await outbox.deliver_pending() == 1  # the next start
    assert [n.topic for n in heard] == [kind]
    info = heard[0].info
    if kind == "chase":  # the start's one step: its events, and the stream made with it
        assert view is not None and info["seq"] == view.seq > 0 and info["events"]
    elif opened:
        assert view is not None and (info["stream"], info["seq"]) == (view.stream, 0)
    else:
        assert info["closed"] is True
    assert await outbox.deliver_pending() == 0 and len(heard) == 1


async def test_two_scenes_of_a_kind_started_at_once_open_one(game: services.GameInfo) -> None:
    results = await asyncio.gather(
        *(swade.start_encounter(game.id, actor_id=GM) for _ in range(3)), return_exceptions=True
    )
    opened = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, services.ServiceError)]
    assert len(opened) == 1 and len(refused) == 2
    assert {r.code for r in refused} == {"encounter_active"}


def test_an_undos_events_survive_a_redelivery() -> None:
    """A redelivered row (from the outbox) tells an undo as the first delivery did: the
    events it took back come back as engine events (the chat strikes a publication through)."""
    undone = (ProposalPublished(4, "f1", "f2"),)
    note = outbox.Note("storyteller_fight", {"undone": 4, "undone_events": undone}, FIGHT)
    back = outbox.Note.from_data(json.loads(json.dumps(note.to_data())))
    assert back.info["undone_events"] == undone and back.info["undone"] == 4
