"""Reads the services do not offer yet (a candidate for engine.services: `user_names`).
Read-only."""

from __future__ import annotations

from collections.abc import Iterable

from engine.store.models import User


async def user_names(user_ids: Iterable[int]) -> dict[int, str]:
    ids = sorted({uid for uid in user_ids if uid is not None})
    if not ids:
        return {}
    rows = await User.filter(id__in=ids).values_list("id", "first_name")
    return {uid: name for uid, name in rows}
