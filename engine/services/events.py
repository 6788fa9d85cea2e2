"""The per-game event log with optimistic sequencing.

A writer states the sequence number it last saw (`expected_seq`); the event gets
`expected_seq + 1`. The UNIQUE (game, seq) constraint rejects a racing second writer even
when both read the same state, so a step (e.g. a sealed turn) is applied exactly once.
"""

from __future__ import annotations

from typing import Any

from tortoise.exceptions import IntegrityError

from engine.services.errors import EventConflict, NoGame
from engine.services.types import EventInfo
from engine.store.models import Game, GameEvent


def _info(event: GameEvent) -> EventInfo:
    return EventInfo(
        game_id=event.game_id,
        seq=event.seq,
        type=event.type,
        payload=dict(event.payload or {}),
        created_at=event.created_at,
    )


async def last_event_seq(game_id: int) -> int:
    """The sequence number of the newest event (0 when the log is empty)."""
    seq: Any = (
        await GameEvent.filter(game_id=game_id)
        .order_by("-seq")
        .first()
        .values_list("seq", flat=True)
    )
    return int(seq or 0)


async def append_event(
    game_id: int, type: str, payload: dict[str, Any], *, expected_seq: int
) -> EventInfo:
    """Append after `expected_seq`; EventConflict if the log moved on meanwhile."""
    if not await Game.exists(id=game_id):
        raise NoGame(game_id=game_id)
    current = await last_event_seq(game_id)
    if current != expected_seq:
        raise EventConflict(game_id=game_id, expected_seq=expected_seq, current_seq=current)
    try:
        event = await GameEvent.create(
            game_id=game_id, seq=expected_seq + 1, type=type, payload=payload
        )
    except IntegrityError as exc:  # the racing writer won between our check and insert
        raise EventConflict(game_id=game_id, expected_seq=expected_seq) from exc
    return _info(event)


async def record_event(game_id: int, type: str, payload: dict[str, Any]) -> EventInfo:
    """Append at the end of the log. Call inside a transaction holding the game row."""
    return await append_event(game_id, type, payload, expected_seq=await last_event_seq(game_id))


async def game_events(game_id: int, *, after_seq: int = 0) -> list[EventInfo]:
    if not await Game.exists(id=game_id):
        raise NoGame(game_id=game_id)
    events = await GameEvent.filter(game_id=game_id, seq__gt=after_seq).order_by("seq")
    return [_info(e) for e in events]
