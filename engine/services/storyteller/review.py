"""The chat messages of the pending proposal: the GM's private copy and the group's notice,
sent once per proposal and edited in place on every adjustment (from the chat or the Mini
App). Kept with the fight's stream (its params, under "review"), keyed by the proposal's
`opened` step, so a later proposal of the same fight gets messages of its own."""

from __future__ import annotations

from dataclasses import dataclass

from tortoise.transactions import in_transaction

from engine.store.models import Stream

_KEY = "review"


@dataclass(frozen=True, slots=True)
class ReviewMessages:
    opened: int  # the proposal's first step
    dm: int | None  # the message in the GM's private chat (None: it could not be sent)
    notice: int | None  # the notice in the group


async def review_messages(game_id: int, stream: str, opened: int | None) -> ReviewMessages | None:
    """The messages of the proposal first made at step `opened`, if they were sent (None:
    the last proposal's, whichever it was — one just published, told without its state)."""
    params = (
        await Stream.filter(game_id=game_id, key=stream).first().values_list("params", flat=True)
    )
    found: object = (params or {}).get(_KEY) if isinstance(params, dict) else None
    if not isinstance(found, dict) or opened not in (None, found.get("opened")):
        return None
    return ReviewMessages(int(found["opened"]), found.get("dm"), found.get("notice"))


async def remember_review(game_id: int, stream: str, messages: ReviewMessages) -> None:
    async with in_transaction():
        row = await Stream.filter(game_id=game_id, key=stream).select_for_update().first()
        if row is None:
            return
        value = {"opened": messages.opened, "dm": messages.dm, "notice": messages.notice}
        row.params = {**(row.params or {}), _KEY: value}
        await row.save(update_fields=["params"])
