"""Reads the services do not offer yet (candidates for engine.services: `recent_rolls`,
`user_names`). Read-only; they return the services' own dataclasses."""

from __future__ import annotations

from collections.abc import Iterable

from engine.services.types import RollRecord
from engine.store.models import RollLog, User


async def recent_rolls(game_id: int, limit: int) -> list[RollRecord]:
    """The game's newest rolls, oldest first."""
    rows = await RollLog.filter(game_id=game_id).order_by("-id").limit(limit)
    return [
        RollRecord(
            id=row.id,
            user_id=row.user_id,  # type: ignore[attr-defined]
            chat_id=row.chat_id,
            topic_id=row.topic_id or None,
            game_id=row.game_id,  # type: ignore[attr-defined]
            command=row.command,
            args=row.args,
            result=row.result,
            hidden=row.hidden,
            salt=row.salt,
            receipt=row.receipt,
            created_at=row.created_at,
            revealed_at=row.revealed_at,
        )
        for row in reversed(rows)
    ]


async def user_names(user_ids: Iterable[int]) -> dict[int, str]:
    ids = sorted({uid for uid in user_ids if uid is not None})
    if not ids:
        return {}
    rows = await User.filter(id__in=ids).values_list("id", "first_name")
    return {uid: name for uid, name in rows}
