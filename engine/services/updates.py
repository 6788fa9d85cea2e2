"""De-duplication of Telegram updates (webhook redeliveries, several workers)."""

from __future__ import annotations

from datetime import datetime, timedelta

from tortoise import timezone
from tortoise.exceptions import IntegrityError

from engine.services.aggregates.sql import sql
from engine.store.models import ProcessedUpdate

_CLAIM = "INSERT INTO processed_updates (update_id, created_at) VALUES (?, ?)"


async def claim_update(update_id: int) -> bool:
    """True the first time an update id is seen, False for a duplicate."""
    conn = ProcessedUpdate._meta.db
    try:
        # Plain INSERT outside any transaction: the primary key decides, atomically (raw:
        # the ORM's create asks SQLite for the row id it already has).
        await conn.execute_query(sql(conn, _CLAIM), [update_id, timezone.now()])
    except IntegrityError:
        return False
    return True


async def prune_updates(older_than: datetime | timedelta) -> int:
    """Forget update ids claimed before a moment (or longer ago than a duration)."""
    cutoff = timezone.now() - older_than if isinstance(older_than, timedelta) else older_than
    return await ProcessedUpdate.filter(created_at__lt=cutoff).delete()
