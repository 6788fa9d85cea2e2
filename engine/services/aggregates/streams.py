"""The streams of a game: listing, opening a numbered one ("<kind>:4"), closing.

Keys are "<kind>:<suffix>". The game's current scene of a kind is `active_stream(game, kind)`:
the newest stream of that kind not closed yet.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tortoise import timezone
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.exceptions import IntegrityError

from engine.services.aggregates.log import check_aggregate, find_stream, require_game
from engine.services.aggregates.model import Aggregate, StreamInfo, check_key
from engine.services.errors import EventConflict, GameEnded, NoGame
from engine.store.models import Game, Stream


def _info(row: Stream) -> StreamInfo:
    return StreamInfo(
        game_id=row.game_id,
        key=row.key,
        aggregate=row.aggregate,
        seq=row.head_seq,
        step=row.head_step,
        created_at=row.created_at,
        updated_at=row.updated_at,
        closed_at=row.closed_at,
    )


async def list_streams(
    game_id: int, kind: str | None = None, *, include_closed: bool = True
) -> list[StreamInfo]:
    """The game's streams (of one kind if given), oldest first."""
    await require_game(game_id)
    query = Stream.filter(game_id=game_id)
    if kind is not None:
        query = query.filter(key__startswith=f"{kind}:")
    if not include_closed:
        query = query.filter(closed_at__isnull=True)
    return [_info(r) for r in await query.order_by("id")]


async def active_stream(game_id: int, kind: str) -> StreamInfo | None:
    """The newest open stream of a kind: the game's current scene of that kind."""
    streams = await list_streams(game_id, kind, include_closed=False)
    return streams[-1] if streams else None


async def next_key(game_id: int, prefix: str, conn: BaseDBAsyncClient | None = None) -> str:
    """`prefix` and the next free number among the game's stream keys that start with it
    ("<kind>:" → "<kind>:3", a topic's "<kind>:9:" → "<kind>:9:2"); `conn`: a transaction's."""
    query = Stream.filter(game_id=game_id, key__startswith=prefix)
    keys: list[str] = await (query if conn is None else query.using_db(conn)).values_list(
        "key", flat=True
    )  # type: ignore[assignment]  # flat=True: strings
    numbers = [int(tail) for key in keys if (tail := key[len(prefix) :]).isdigit()]
    return f"{prefix}{max(numbers, default=0) + 1}"


async def open_stream(
    aggregate: Aggregate[Any, Any],
    game_id: int,
    *,
    kind: str | None = None,
    params: Mapping[str, Any] | None = None,
    attempts: int = 5,
) -> StreamInfo:
    """Create "<kind>:<n>" with the next free n (kind defaults to the aggregate's name)."""
    kind = kind or aggregate.name
    active = await Game.filter(id=game_id).first().values_list("active", flat=True)
    if active is None:
        raise NoGame(game_id=game_id)
    if not active:
        raise GameEnded(game_id=game_id)
    for _ in range(attempts):
        key = await next_key(game_id, f"{kind}:")
        check_key(key)
        try:  # plain INSERT, no transaction: UNIQUE (game, key) picks the winner of a race
            row = await Stream.create(
                game_id=game_id, key=key, aggregate=aggregate.name, params=dict(params or {})
            )
        except IntegrityError:
            continue
        return _info(row)
    raise EventConflict(game_id=game_id, kind=kind)


async def close_stream(
    aggregate: Aggregate[Any, Any], game_id: int, stream: str
) -> StreamInfo | None:
    """Make a stream read-only (execute and undo then raise StreamClosed); idempotent.
    None if the stream was never written to (there is nothing to close)."""
    row = await find_stream(game_id, stream)
    if row is None:
        await require_game(game_id)
        return None
    check_aggregate(row, aggregate)
    await Stream.filter(id=row.id, closed_at__isnull=True).update(closed_at=timezone.now())
    await row.refresh_from_db()
    return _info(row)
