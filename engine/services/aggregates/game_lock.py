"""The game's lock, taken first by every step (engine/services/aggregates/unit.py), and what
the step and its subscribers read with it: the game, its members and its open streams."""

from __future__ import annotations

from dataclasses import dataclass

from tortoise.backends.base.client import BaseDBAsyncClient

from engine.services.aggregates.sql import created_at_of, load_json, options_of, sql
from engine.services.errors import NoGame
from engine.services.types import GameInfo
from engine.store.models import ROLE_GM, ROLE_PLAYER


@dataclass(frozen=True, slots=True)
class GameRow:
    """The game as the unit locked it, and the actor's role in it (None: not a member)."""

    id: int
    active: bool
    system: str
    gm_id: int | None
    role: str | None
    open_streams: tuple[tuple[str, int | None], ...] = ()  # (key, board message), oldest first
    info: GameInfo | None = None  # the game as the services describe it
    gm_language: str | None = None


_GAME_COLUMNS = (
    "active, system, chat_id, topic_id, name, created_at, options,"
    " (SELECT title FROM chats WHERE id = games.chat_id) AS chat_title,"
    " (SELECT {agg}({array}(r.id, r.user_id, r.role, u.language)) FROM roles r"
    " JOIN users u ON u.id = r.user_id WHERE r.game_id = games.id) AS members,"
    ' (SELECT {agg}({array}(s.id, s."key", b.message_id)) FROM streams s'
    " LEFT JOIN board_messages b ON b.stream_id = s.id"
    " WHERE s.game_id = games.id AND s.closed_at IS NULL) AS open_streams"
)
_GAME = "UPDATE games SET active = active WHERE id = ? RETURNING " + _GAME_COLUMNS
# PostgreSQL: the lock, then the read. A statement that waited for the row lock re-reads the
# locked row but sees every other table as it was when the statement began (READ COMMITTED),
# so the open streams and members a step committed meanwhile would be missing from it.
_LOCK = "SELECT id FROM games WHERE id = ? FOR UPDATE"
_READ_GAME = "SELECT " + _GAME_COLUMNS + " FROM games WHERE id = ?"
# rows as one JSON array of arrays, in each dialect
_JSON_ROWS = {"postgres": ("json_agg", "json_build_array")}
_SQLITE_JSON_ROWS = ("json_group_array", "json_array")


def _game_sql(conn: BaseDBAsyncClient, text: str = _GAME) -> str:
    agg, array = _JSON_ROWS.get(conn.capabilities.dialect, _SQLITE_JSON_ROWS)
    return sql(conn, text.format(agg=agg, array=array))


async def lock_game(conn: BaseDBAsyncClient, game_id: int, actor_id: int | None) -> GameRow:
    """The game's lock and what a step and its subscribers need — the game with its members
    (and their languages) and the open streams with their board messages. SQLite: one
    statement, an UPDATE that changes nothing (the write lock is the whole database's, so
    nothing commits between the lock and the read). PostgreSQL: the row lock, then the read
    (`_LOCK`)."""
    if conn.capabilities.dialect == "postgres":
        await conn.execute_query(sql(conn, _LOCK), [game_id])
        rows = await conn.execute_query_dict(_game_sql(conn, _READ_GAME), [game_id])
    else:  # execute_query_dict: the asyncpg client drops the rows of an UPDATE otherwise
        rows = await conn.execute_query_dict(_game_sql(conn), [game_id])
    if not rows:
        raise NoGame(game_id=game_id)
    row = rows[0]
    members = [tuple(m[1:]) for m in sorted(load_json(row["members"]) or ())]  # by role id
    gm = next(((uid, lang) for uid, role, lang in members if role == ROLE_GM), None)
    info = GameInfo(
        id=game_id,
        chat_id=row["chat_id"],
        topic_id=row["topic_id"] or None,
        system=row["system"],
        name=row["name"],
        gm_id=None if gm is None else gm[0],
        player_ids=tuple(uid for uid, role, _ in members if role == ROLE_PLAYER),
        created_at=created_at_of(row["created_at"]),
        chat_title=row["chat_title"],
        active=bool(row["active"]),
        options=options_of(row["options"]),
    )
    streams = sorted(tuple(s) for s in load_json(row["open_streams"]) or ())
    return GameRow(
        game_id,
        bool(row["active"]),
        row["system"],
        info.gm_id,
        next((role for uid, role, _ in members if uid == actor_id), None),
        tuple((str(key), board) for _, key, board in streams),
        info,
        None if gm is None else gm[1],
    )
