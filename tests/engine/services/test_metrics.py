"""The delivery backlogs /metrics shows (engine/services/metrics.py): rows and the oldest's age
per table, read by the runner's sweep — on SQLite and, in the PostgreSQL run, on PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

from engine.services.aggregates.sql import now
from engine.services.metrics import BACKLOG, BACKLOG_AGE, read_backlogs
from engine.store.models import OutgoingCall, ReceivedUpdate


def gauge(metric: object, table: str) -> float:
    [value] = [
        s.value
        for family in metric.collect()  # type: ignore[attr-defined]
        for s in family.samples
        if s.labels == {"table": table}
    ]
    return float(value)


async def test_backlogs_count_the_rows_and_age_the_oldest(db: object) -> None:
    old = await OutgoingCall.create(chat="1", method="SendMessage", payload={})
    await OutgoingCall.filter(id=old.id).update(created_at=now() - timedelta(seconds=90))
    await OutgoingCall.create(chat="1", method="SendMessage", payload={})
    await ReceivedUpdate.create(update_id=7, lane="1", payload="{}", received_at=now())

    await read_backlogs()

    assert gauge(BACKLOG, "outgoing_call") == 2
    assert 89 <= gauge(BACKLOG_AGE, "outgoing_call") < 120
    assert gauge(BACKLOG, "received_update") == 1
    assert gauge(BACKLOG, "outbox") == 0 and gauge(BACKLOG_AGE, "outbox") == 0
