"""The outbox: a step's notifications are written in its own transaction and delivered
after the commit; what a crash leaves undelivered is delivered at the next start, once."""

from __future__ import annotations

import random

import pytest

from engine import services
from engine.savage import NextTurn
from engine.savage.events import RoundStarted
from engine.services import outbox
from engine.services import savage as swade
from engine.services.aggregates import unit as agg_unit
from engine.services.notify import Notification, Notifier, using
from engine.store.models import OutboxItem
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
    assert rows and rows[0].delivered_at is not None
    stored = [outbox.Note.from_data(d) for d in rows[0].notes]
    assert [(n.topic, n.info["seq"]) for n in stored] == [("encounter", dealt.seq)]
    assert stored[0].info["events"] == dealt.events  # decoded by the encounter's aggregate
    assert [(n.topic, n.info["seq"], n.info["events"]) for n in heard] == [
        ("encounter", dealt.seq, dealt.events)
    ]


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
