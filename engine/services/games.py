"""Games in a chat or forum topic: creation, membership, GM transfer, the private selection.

Every change to a game runs in one transaction that first locks the game row
(`select_for_update`; PostgreSQL serialises on it, SQLite serialises all transactions anyway)
and ends by appending an event to the game's log and, for the open boards, an outbox row
(engine/services/outbox.py: "game", the `change`), delivered once it is committed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from engine.services import outbox, systems
from engine.services.aggregates.sql import created_at_of, options_of, sql
from engine.services.errors import (
    BadSystem,
    GameEnded,
    GameExists,
    NoGame,
    NotGm,
    NotMember,
)
from engine.services.events import record_event
from engine.services.names import checked_name
from engine.services.types import GameInfo
from engine.services.users import require_user
from engine.store.models import ROLE_GM, ROLE_PLAYER, Chat, Game, PrivateSelection, Role
from engine.store.queries import first_value

T = TypeVar("T")


def active_slot(chat_id: int, topic_id: int | None) -> str:
    """The `games.active_slot` of the active game of (chat, topic)."""
    return f"{chat_id}:{topic_id or 0}"


async def _info(game: Game) -> GameInfo:
    roles = await Role.filter(game_id=game.id).order_by("id").values_list("user_id", "role")
    chat_id: int = game.chat_id
    title: str | None = await first_value(Chat.filter(id=chat_id), "title")
    return GameInfo(
        id=game.id,
        chat_id=chat_id,
        topic_id=game.topic_id or None,
        system=game.system,
        name=game.name,
        gm_id=next((uid for uid, role in roles if role == ROLE_GM), None),
        player_ids=tuple(uid for uid, role in roles if role == ROLE_PLAYER),
        created_at=game.created_at,
        chat_title=title,
        active=game.active,
        options=options_of(game.options),
    )


async def _locked_active_game(game_id: int) -> Game:
    """Inside a transaction: the game row, locked; NoGame / GameEnded otherwise."""
    game = await Game.filter(id=game_id).select_for_update().first()
    if game is None:
        raise NoGame(game_id=game_id)
    if not game.active:
        raise GameEnded(game_id=game_id)
    return game


async def _role_of(game_id: int, user_id: int) -> str | None:
    role: str | None = await first_value(Role.filter(game_id=game_id, user_id=user_id), "role")
    return role


async def _require_gm(game_id: int, actor_id: int) -> None:
    if await _role_of(game_id, actor_id) != ROLE_GM:
        raise NotGm(game_id=game_id, user_id=actor_id)


async def _upsert_chat(chat_id: int, title: str | None, chat_type: str, is_forum: bool) -> None:
    title = title[:255] if title else title
    chat = await Chat.get_or_none(id=chat_id)
    if chat is None:
        try:
            await Chat.create(id=chat_id, title=title, type=chat_type, is_forum=is_forum)
            return
        except IntegrityError:  # created concurrently
            chat = await Chat.get(id=chat_id)
    if (chat.title, chat.type, chat.is_forum) != (title, chat_type, is_forum):
        chat.title, chat.type, chat.is_forum = title, chat_type, is_forum
        await chat.save(update_fields=["title", "type", "is_forum"])


async def create_game(
    *,
    chat_id: int,
    topic_id: int | None,
    system: str,
    name: str,
    creator_id: int,
    chat_title: str | None = None,
    chat_type: str = "group",
    is_forum: bool = False,
) -> GameInfo:
    """A new active game in (chat, topic); the creator becomes its GM."""
    if system not in systems.codes():
        raise BadSystem(system=system, allowed=list(systems.codes()))
    name = checked_name(name)
    topic = topic_id or 0
    await require_user(creator_id)
    existing = await find_game(chat_id, topic)
    if existing is not None:
        raise GameExists(game_id=existing.id, name=existing.name)
    await _upsert_chat(chat_id, chat_title, chat_type, is_forum)
    try:
        async with in_transaction():
            game = await Game.create(
                chat_id=chat_id,
                topic_id=topic,
                system=system,
                name=name,
                created_by=creator_id,
                active_slot=active_slot(chat_id, topic),
                options=systems.system(system).new_game_options() or None,
            )
            await Role.create(game_id=game.id, user_id=creator_id, role=ROLE_GM)
            await record_event(
                game.id, "game_created", {"system": system, "name": name, "gm_id": creator_id}
            )
    except IntegrityError:
        # Caught outside the transaction: on PostgreSQL a failed statement aborts it.
        existing = await find_game(chat_id, topic)
        if existing is None:
            raise
        raise GameExists(game_id=existing.id, name=existing.name) from None
    return await _info(game)


_GAME_INFO = (
    "SELECT g.id, g.chat_id, g.topic_id, g.system, g.name, g.created_at, g.active, c.title,"
    " r.user_id, r.role, g.options{also} FROM games g LEFT JOIN chats c ON c.id = g.chat_id"
    " LEFT JOIN roles r ON r.game_id = g.id WHERE {where} ORDER BY r.id"
)
_BY_SLOT = _GAME_INFO.format(also="", where="g.active_slot = ?")
_BY_ID = _GAME_INFO.format(also="", where="g.id = ?")
_WITH_LANGUAGE = _GAME_INFO.format(
    also=", (SELECT language FROM users WHERE id = ?)", where="g.id = ?"
)


async def _read_info(text: str, *values: object) -> tuple[GameInfo, Any] | None:
    """A game with its members and its chat's title in one statement (a row per member),
    and the 12th column if the query has one."""
    conn = Game._meta.db
    _, rows = await conn.execute_query(sql(conn, text), list(values))
    if not rows:
        return None
    first = tuple(rows[0])
    return _info_of(first, rows), (first[11] if len(first) > 11 else None)


def _info_of(first: tuple[Any, ...], rows: Any) -> GameInfo:
    members = [(r[8], r[9]) for r in rows if r[8] is not None]
    return GameInfo(
        id=first[0],
        chat_id=first[1],
        topic_id=first[2] or None,
        system=first[3],
        name=first[4],
        gm_id=next((uid for uid, role in members if role == ROLE_GM), None),
        player_ids=tuple(uid for uid, role in members if role == ROLE_PLAYER),
        created_at=created_at_of(first[5]),
        chat_title=first[7],
        active=bool(first[6]),
        options=options_of(first[10]),
    )


async def find_game(chat_id: int, topic_id: int | None) -> GameInfo | None:
    """The active game of (chat, topic), if any."""
    found = await _read_info(_BY_SLOT, active_slot(chat_id, topic_id))
    return None if found is None else found[0]


async def get_game(game_id: int) -> GameInfo:
    """Any game by id, active or ended."""
    found = await _read_info(_BY_ID, game_id)
    if found is None:
        raise NoGame(game_id=game_id)
    return found[0]


async def get_game_and_language(game_id: int, user_id: int) -> tuple[GameInfo, str | None]:
    """Any game by id and the language a user chose (None: not chosen, or no such user), in
    one statement."""
    found = await _read_info(_WITH_LANGUAGE, user_id, game_id)
    if found is None:
        raise NoGame(game_id=game_id)
    return found


@dataclass(frozen=True)
class Told:
    """A change's outbox row and its notes: `deliver` once the change is committed."""

    game_id: int
    item_id: int | None
    notes: list[outbox.Note]

    async def deliver(self) -> None:
        await outbox.deliver(self.game_id, self.item_id, self.notes)


async def _tell(conn: BaseDBAsyncClient, game_id: int, change: str, actor_id: int) -> Told:
    """Inside the change's transaction: its outbox row for the open boards."""
    notes = [outbox.note("game", change=change, actor_id=actor_id)]
    return Told(game_id, await outbox.write(conn, game_id, notes), notes)


async def transfer_gm(game_id: int, *, actor_id: int, new_gm_id: int) -> GameInfo:
    """The GM hands the game over; they stay in it as a player."""
    await require_user(new_gm_id)
    told = None
    async with in_transaction() as conn:
        game = await _locked_active_game(game_id)
        await _require_gm(game_id, actor_id)
        if new_gm_id != actor_id:  # handing the game to oneself changes nobody's role
            await Role.filter(game_id=game_id, user_id=actor_id).update(role=ROLE_PLAYER)
            await Role.filter(game_id=game_id, user_id=new_gm_id).delete()
            await Role.create(game_id=game_id, user_id=new_gm_id, role=ROLE_GM)
            await record_event(game_id, "gm_changed", {"from": actor_id, "to": new_gm_id})
            told = await _tell(conn, game_id, "gm_changed", actor_id)
    if told is not None:
        await told.deliver()
    return await _info(game)


async def join_game(game_id: int, user_id: int) -> GameInfo:
    """Become a player; a member (GM included) keeps their role and nothing is recorded."""
    await require_user(user_id)
    told = None
    async with in_transaction() as conn:
        game = await _locked_active_game(game_id)
        if await _role_of(game_id, user_id) is None:
            await Role.create(game_id=game_id, user_id=user_id, role=ROLE_PLAYER)
            await record_event(game_id, "player_joined", {"user_id": user_id})
            told = await _tell(conn, game_id, "player_joined", user_id)
    if told is not None:
        await told.deliver()
    return await _info(game)


async def end_game(game_id: int, *, actor_id: int) -> GameInfo:
    """The GM ends the game; its chat/topic is free for a new one. The log stays."""
    async with in_transaction() as conn:
        game = await _locked_active_game(game_id)
        await _require_gm(game_id, actor_id)
        game.active, game.active_slot = False, None
        await game.save(update_fields=["active", "active_slot"])
        await record_event(game_id, "game_ended", {"by": actor_id})
        told = await _tell(conn, game_id, "game_ended", actor_id)
    await told.deliver()
    return await _info(game)


async def change_options(game_id: int, key: str, change: Callable[[Any], T], *, actor_id: int) -> T:
    """The GM changes a system's part of the game's `options` (under `key`): `change` gets
    the stored value (None when unset) and returns the new one (None drops the key). One
    transaction that locks the game row, so two changes at once both land; the open boards
    hear of it ("options_changed"). A player is refused with `not_gm`. Returns the new
    value."""
    async with in_transaction() as conn:
        game = await Game.filter(id=game_id).select_for_update().first()
        if game is None:
            raise NoGame(game_id=game_id)
        await _require_gm(game_id, actor_id)
        options = dict(game.options or {})
        value = change(options.pop(key, None))
        game.options = options if value is None else {**options, key: value}
        await game.save(update_fields=["options"])
        await record_event(game_id, "options_changed", {"key": key, "by": actor_id})
        told = await _tell(conn, game_id, "options_changed", actor_id)
    await told.deliver()
    return value


async def games_of_user(user_id: int) -> list[GameInfo]:
    """Active games the user is GM or player of, oldest first."""
    games = await Game.filter(active=True, roles__user_id=user_id).order_by("id").distinct()
    return [await _info(g) for g in games]


async def select_private_game(user_id: int, game_id: int) -> GameInfo:
    """Route the user's private-chat rolls to this game (they must be a member)."""
    game = await Game.get_or_none(id=game_id)
    if game is None:
        raise NoGame(game_id=game_id)
    if not game.active:
        raise GameEnded(game_id=game_id)
    if await _role_of(game_id, user_id) is None:
        raise NotMember(game_id=game_id, user_id=user_id)
    updated = await PrivateSelection.filter(user_id=user_id).update(game_id=game_id)
    if not updated:
        try:
            await PrivateSelection.create(user_id=user_id, game_id=game_id)
        except IntegrityError:  # a concurrent first selection: last writer wins
            await PrivateSelection.filter(user_id=user_id).update(game_id=game_id)
    return await _info(game)


async def clear_private_game(user_id: int) -> None:
    """Private-chat rolls go back to being ordinary open rolls."""
    await PrivateSelection.filter(user_id=user_id).delete()


async def selected_private_game(user_id: int) -> GameInfo | None:
    """The selected game while it is active and the user still belongs to it."""
    game_id = (
        await PrivateSelection.filter(user_id=user_id).first().values_list("game_id", flat=True)
    )
    if game_id is None:
        return None
    game = await Game.get_or_none(id=game_id, active=True)
    if game is None or await _role_of(game.id, user_id) is None:
        return None
    return await _info(game)
