"""The roll log, hidden rolls with commit–reveal receipts, and pending private deliveries."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import AsyncIterator
from contextlib import suppress
from datetime import UTC
from typing import Any, Final, Literal

from tortoise import timezone
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.exceptions import IntegrityError
from tortoise.expressions import Subquery

from engine import receipt as receipts
from engine.services import updates
from engine.services.aggregates.sql import dump_json, sql
from engine.services.errors import (
    AlreadyRevealed,
    GameEnded,
    NoGame,
    NoRoll,
    NotGm,
    NotHidden,
    ServiceError,
)
from engine.services.games import active_slot
from engine.services.notify import notify
from engine.services.types import RollRecord
from engine.services.users import require_user
from engine.store.models import ROLE_GM, Game, PendingDelivery, Role, RollLog


def _record(row: RollLog) -> RollRecord:
    return RollRecord(
        id=row.id,
        user_id=row.user_id,
        chat_id=row.chat_id,
        topic_id=row.topic_id or None,
        game_id=row.game_id,
        command=row.command,
        args=row.args,
        result=row.result,
        hidden=row.hidden,
        salt=row.salt,
        receipt=row.receipt,
        created_at=row.created_at,
        revealed_at=row.revealed_at,
    )


def receipt_content(record: RollRecord) -> dict[str, Any]:
    """What a hidden roll's receipt commits to, rebuilt from the stored record."""
    return {
        "roll_id": record.id,
        "user_id": record.user_id,
        "game_id": record.game_id,
        "command": record.command,
        "args": record.args,
        "result": record.result,
        "created_at": record.created_at.astimezone(UTC).isoformat(timespec="microseconds"),
    }


def verify_roll(record: RollRecord) -> bool:
    """Does the stored receipt match the stored content and salt?"""
    if record.receipt is None or record.salt is None:
        return False
    return receipts.verify(record.receipt, receipt_content(record), record.salt)


_INSERT_ROLL = (
    "INSERT INTO roll_log (user_id, chat_id, topic_id, game_id, command, args, result,"
    " hidden, created_at) VALUES (?, ?, ?, {game}, ?, ?, ?, ?, ?) RETURNING id, game_id"
)
_GIVEN_GAME = _INSERT_ROLL.format(game="?")
_GAME_OF_CHAT = _INSERT_ROLL.format(game="(SELECT id FROM games WHERE active_slot = ?)")
OF_CHAT: Final = "of_chat"  # `game_id` of a roll in the chat's active game, if it has one


async def log_roll(
    *,
    user_id: int,
    chat_id: int,
    topic_id: int | None,
    game_id: int | Literal["of_chat"] | None,
    command: str,
    args: str,
    result: dict[str, Any],
) -> RollRecord:
    """Record an open roll (shown in the chat at once), with the chat update's claim
    (engine.services.updates) in the same transaction. One INSERT: `game_id=OF_CHAT` looks
    up the active game of (chat, topic) inside it, and an unknown user is `no_user` (the
    foreign key decides: no read before the write, none after it)."""
    created_at = timezone.now()
    text = _GAME_OF_CHAT if game_id == OF_CHAT else _GIVEN_GAME
    game = active_slot(chat_id, topic_id) if game_id == OF_CHAT else game_id
    values: list[object] = [user_id, chat_id, topic_id or 0, game, command, args]
    values += [dump_json(result), False, created_at]
    try:
        # execute_query_dict: the asyncpg client drops the rows of an INSERT otherwise
        if updates.unclaimed():
            async with updates.step_transaction() as tx:
                rows = await tx.execute_query_dict(sql(tx, text), values)
        else:  # nothing to claim with it (the Mini App): the INSERT is its transaction
            conn = RollLog._meta.db
            rows = await conn.execute_query_dict(sql(conn, text), values)
    except IntegrityError:
        await require_user(user_id)  # NoUser; otherwise the error was another one
        raise
    stored_game = rows[0]["game_id"]
    record = RollRecord(
        id=int(rows[0]["id"]),
        user_id=user_id,
        chat_id=chat_id,
        topic_id=topic_id or None,
        game_id=None if stored_game is None else int(stored_game),
        command=command,
        args=args,
        result=result,
        hidden=False,
        salt=None,
        receipt=None,
        created_at=created_at,
        revealed_at=None,
    )
    await notify(record.game_id, "roll", record=record)
    return record


async def get_roll(roll_id: int) -> RollRecord:
    row = await RollLog.get_or_none(id=roll_id)
    if row is None:
        raise NoRoll(roll_id=roll_id)
    return _record(row)


async def recent_rolls(game_id: int, limit: int) -> list[RollRecord]:
    """The game's `limit` newest rolls (open and hidden, as stored), oldest first."""
    if limit <= 0:
        return []
    rows = await RollLog.filter(game_id=game_id).order_by("-id").limit(limit)
    return [_record(row) for row in reversed(rows)]


_INSERT_HIDDEN = (
    "INSERT INTO roll_log (user_id, chat_id, topic_id, game_id, command, args, result,"
    " hidden, salt, created_at) SELECT ?, ?, ?, id, ?, ?, ?, ?, ?, ? FROM games"
    " WHERE id = ? AND active RETURNING id"
)
_SET_RECEIPT = "UPDATE roll_log SET receipt = ? WHERE id = ?"


async def create_hidden_roll(
    *,
    user_id: int,
    game_id: int,
    chat_id: int,
    topic_id: int | None,
    command: str,
    args: str,
    result: dict[str, Any],
) -> RollRecord:
    """Store a hidden roll with a fresh salt and its receipt (the group sees only the
    receipt), with the chat update's claim, in one transaction: the INSERT takes the game
    only while it is active (else nothing is written: NoGame or GameEnded), the receipt is
    made of what was written — the id the INSERT returns and the time given to it."""
    created_at = timezone.now()
    salt = receipts.new_salt()
    values: list[object] = [user_id, chat_id, topic_id or 0, command, args, dump_json(result)]
    values += [True, salt, created_at, game_id]
    try:
        async with _within_step() as tx:
            rows = await tx.execute_query_dict(sql(tx, _INSERT_HIDDEN), values)
            if not rows:
                raise await _no_active_game(game_id)
            record = RollRecord(
                id=int(rows[0]["id"]),
                user_id=user_id,
                chat_id=chat_id,
                topic_id=topic_id or None,
                game_id=game_id,
                command=command,
                args=args,
                result=result,
                hidden=True,
                salt=salt,
                receipt=None,
                created_at=created_at,
                revealed_at=None,
            )
            digest = receipts.make_receipt(receipt_content(record), salt)
            await tx.execute_query(sql(tx, _SET_RECEIPT), [digest, record.id])
    except IntegrityError:
        await require_user(user_id)  # NoUser; otherwise the error was another one
        raise
    record = dataclasses.replace(record, receipt=digest)
    await notify(game_id, "roll", record=record)
    return record


@contextlib.asynccontextmanager
async def _within_step() -> AsyncIterator[BaseDBAsyncClient]:
    """The handler's transaction when it holds the step and its chat calls (a failure rolls
    all of it back: no savepoint of its own is needed, two statements saved), else a step
    transaction of its own."""
    if updates.holding_effects() and not updates.unclaimed():
        yield RollLog._meta.db
        return
    async with updates.step_transaction() as tx:
        yield tx


async def _no_active_game(game_id: int) -> ServiceError:
    """Why a roll found no active game: NoGame or GameEnded (read on this path only)."""
    exists = await Game.exists(id=game_id)
    return GameEnded(game_id=game_id) if exists else NoGame(game_id=game_id)


async def hidden_rolls_by_code(code: str, *, gm_id: int) -> list[int]:
    """The hidden rolls, not yet revealed, whose receipt begins with `code` (the code the
    group saw, dashes left out) in the games `gm_id` runs; oldest first. Two rolls share a
    code only by a 48-bit chance."""
    prefix = code.replace("-", "").lower()
    games = Subquery(Role.filter(user_id=gm_id, role=ROLE_GM).values("game_id"))
    rows = RollLog.filter(
        hidden=True, revealed_at__isnull=True, receipt__startswith=prefix, game_id__in=games
    )
    found: list[int] = await rows.order_by("id").values_list("id", flat=True)  # type: ignore[assignment]  # flat: ids
    return found


async def reveal_roll(roll_id: int, *, actor_id: int) -> RollRecord:
    """The GM publishes a hidden roll; exactly one of concurrent reveals succeeds."""
    record = await get_roll(roll_id)
    if not record.hidden:
        raise NotHidden(roll_id=roll_id)
    is_gm = record.game_id is not None and await Role.exists(
        game_id=record.game_id, user_id=actor_id, role=ROLE_GM
    )
    if not is_gm:
        raise NotGm(game_id=record.game_id, user_id=actor_id)
    # Conditional UPDATE: the row count tells whether this call is the one that revealed it.
    changed = await RollLog.filter(id=roll_id, revealed_at__isnull=True).update(
        revealed_at=timezone.now()
    )
    if not changed:
        raise AlreadyRevealed(roll_id=roll_id)
    record = await get_roll(roll_id)
    await notify(record.game_id, "roll", record=record, revealed=True)
    return record


async def add_pending_delivery(roll_id: int, user_id: int) -> None:
    """Remember to send this roll privately once the user can be written to (idempotent).

    A row that was already taken is armed again: the delivery after /start can fail too
    (the user blocked the bot in between), and the roll must not be lost then."""
    if not await RollLog.exists(id=roll_id):
        raise NoRoll(roll_id=roll_id)
    await require_user(user_id)
    existing = PendingDelivery.filter(roll_id=roll_id, user_id=user_id)
    if await existing.exists():
        await existing.update(delivered_at=None)
        return
    with suppress(IntegrityError):  # added concurrently: already pending
        await PendingDelivery.create(roll_id=roll_id, user_id=user_id)


async def take_pending_deliveries(user_id: int) -> list[RollRecord]:
    """The user's undelivered rolls, each marked delivered and returned exactly once."""
    pending = await PendingDelivery.filter(user_id=user_id, delivered_at__isnull=True).order_by(
        "id"
    )
    taken: list[RollRecord] = []
    for item in pending:
        # Claim each row with a conditional UPDATE so a concurrent taker cannot get it too.
        claimed = await PendingDelivery.filter(id=item.id, delivered_at__isnull=True).update(
            delivered_at=timezone.now()
        )
        if claimed:
            taken.append(await get_roll(item.roll_id))
    return taken
