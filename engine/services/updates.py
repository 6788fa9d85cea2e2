"""De-duplication of Telegram updates (webhook redeliveries, several workers)."""

from __future__ import annotations

from datetime import datetime, timedelta

from tortoise import timezone
from tortoise.exceptions import IntegrityError

from engine.store.models import ProcessedUpdate


async def claim_update(update_id: int) -> bool:
    """True the first time an update id is seen, False for a duplicate."""
    try:
        # Plain INSERT outside any transaction: the primary key decides, atomically.
        await ProcessedUpdate.create(update_id=update_id)
    except IntegrityError:
        return False
    return True


async def prune_updates(older_than: datetime | timedelta) -> int:
    """Forget update ids claimed before a moment (or longer ago than a duration)."""
    cutoff = timezone.now() - older_than if isinstance(older_than, timedelta) else older_than
    return await ProcessedUpdate.filter(created_at__lt=cutoff).delete()
