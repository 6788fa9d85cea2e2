"""Reads the services do not offer yet (a candidate for engine.services: `user_names`).
Read-only."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.store.models import RollLog, User


async def user_names(user_ids: Iterable[int]) -> dict[int, str]:
    ids = sorted({uid for uid in user_ids if uid is not None})
    if not ids:
        return {}
    rows = await User.filter(id__in=ids).values_list("id", "first_name")
    return {uid: name for uid, name in rows}


async def previous_roll(game_id: int, roll_id: int) -> int:
    """The id of the game's roll before `roll_id` (0: none), as the feed reads it."""
    ids: list[Any] = (
        await RollLog.filter(game_id=game_id, id__lt=roll_id)
        .order_by("-id")
        .limit(1)
        .values_list("id", flat=True)
    )
    return int(ids[0]) if ids else 0
