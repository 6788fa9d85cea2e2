"""Private messages whose buttons act on a stream, one live copy per stream and key (a
fighter's form in a private chat): storing a new one hands back the old, which the caller
closes; a stream's whole set is taken when its turn ends. Nothing here talks to the chat."""

from __future__ import annotations

from tortoise.exceptions import IntegrityError

from engine.store.models import LiveMessage, Stream
from engine.store.queries import first_value

Ref = tuple[int, int]  # (chat id, message id)


async def _stream_id(game_id: int, stream: str) -> int | None:
    found: int | None = await first_value(Stream.filter(game_id=game_id, key=stream), "id")
    return found


async def swap_live_message(game_id: int, stream: str, key: str, ref: Ref) -> Ref | None:
    """Store `ref` as the live message of (`stream`, `key`); the one stored before, if it is
    another message, for the caller to close. A negative id is a send still queued (its
    journal row, negated: bot/middlewares/flood.py), given the real one once sent
    (engine/services/outgoing.py); 0 (a send whose caller went on without any id) is not
    stored: the old one stays live until a later send replaces it."""
    stream_id = await _stream_id(game_id, stream)
    if stream_id is None or ref[1] == 0:
        return None
    row = await LiveMessage.filter(stream_id=stream_id, key=key).first()
    if row is None:
        try:
            await LiveMessage.create(
                stream_id=stream_id, key=key, chat_id=ref[0], message_id=ref[1]
            )
            return None
        except IntegrityError:  # a concurrent first send: close the one stored there
            row = await LiveMessage.filter(stream_id=stream_id, key=key).first()
            if row is None:
                return None
    old = (row.chat_id, row.message_id)
    await LiveMessage.filter(id=row.id).update(chat_id=ref[0], message_id=ref[1])
    return None if old == ref else old


async def take_live_messages(game_id: int, stream: str) -> dict[str, Ref]:
    """Every live message of `stream` by key, forgotten: the caller closes them."""
    stream_id = await _stream_id(game_id, stream)
    if stream_id is None:
        return {}
    rows = await LiveMessage.filter(stream_id=stream_id)
    await LiveMessage.filter(id__in=[r.id for r in rows]).delete()
    return {r.key: (r.chat_id, r.message_id) for r in rows}
