"""Scenes of a game, whatever its rule system: roles, one open stream of a scene kind per
game, board messages, and the plain results the scene services return (their start, command
and undo: engine/services/scene_service.py). The kinds and their errors come from the
registry (engine/services/systems.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from tortoise import timezone
from tortoise.exceptions import IntegrityError

from engine.services import aggregates as agg
from engine.services import systems
from engine.services.aggregates import unit as agg_unit
from engine.services.aggregates.log import read_active_view
from engine.services.aggregates.streams import next_key
from engine.services.aggregates.unit import Unit
from engine.services.errors import (
    GameEnded,
    NoGame,
    NotGm,
    NotMember,
    ServiceError,
    WrongSystem,
)
from engine.store.models import ROLE_GM, BoardMessage, Game, Role, Stream
from engine.store.queries import first_value

S = TypeVar("S")
E = TypeVar("E")


@dataclass(frozen=True)
class CommandOutcome(Generic[S, E]):
    state: S  # after the command
    events: tuple[E, ...]  # empty: the command changed nothing and nothing was written
    step_id: int | None  # the stream step (pass it as expected_step to undo); None if empty
    seq: int
    stream: str  # "<kind>:3"
    # What other streams did because of this step, in the same transaction, in order (the
    # follow-up policies of the rule system: another scene following this one).
    followed: tuple[Caused, ...] = ()
    board_message_id: int | None = None  # the stream's board in the chat (as read in the step)
    before: S | None = None  # the state the command was decided on (names of the removed)
    # The scene kinds of the game with an open stream when the step was made (so an adapter
    # knows, without a read, whether there is another scene to show beside this one).
    open_kinds: frozenset[str] = frozenset()

    def view(self, game_id: int) -> SceneView[S]:
        """The stream as the step left it (what a board shows), without reading it again."""
        return SceneView(game_id, self.stream, self.state, self.seq, False, self.board_message_id)

    def followed_in(self, kind: str) -> Caused | None:
        """The last thing the step caused in the game's stream of `kind`."""
        found = [c for c in self.followed if c.stream.split(":", 1)[0] == kind]
        return found[-1] if found else None


@dataclass(frozen=True)
class UndoOutcome(Generic[S, E]):
    state: S  # without the undone step
    undone_step: int
    undone_events: tuple[E, ...]
    step_id: int  # the undo's own step
    seq: int
    stream: str
    caused_undone: int = 0  # the steps the undone step caused in other scenes, undone too


@dataclass(frozen=True)
class SceneView(Generic[S]):
    """A scene as read now: `state` after event `seq` of `stream`."""

    game_id: int
    stream: str
    state: S
    seq: int
    closed: bool = False
    board_message_id: int | None = None  # the chat message the bot keeps up to date


@dataclass(frozen=True)
class Caused:
    """What one stream did because of another stream's step (all of it, in order)."""

    stream: str
    state: object  # after the steps
    events: tuple[object, ...]
    seq: int
    steps: int = 0  # how many steps (undone ones, for an undo)
    board_message_id: int | None = None  # the stream's board in the chat

    def view(self, game_id: int) -> SceneView[Any]:
        """The stream as the step left it (what a board shows), without reading it again."""
        return SceneView(game_id, self.stream, self.state, self.seq, False, self.board_message_id)


# --- roles ------------------------------------------------------------------------------


async def role_of(game_id: int, user_id: int) -> str | None:
    """ "gm", "player" or None (not a member); NoGame if there is no such game."""
    role: str | None = await first_value(Role.filter(game_id=game_id, user_id=user_id), "role")
    if role is None and not await Game.exists(id=game_id):
        raise NoGame(game_id=game_id)
    return role


async def require_member(game_id: int, user_id: int) -> str:
    role = await role_of(game_id, user_id)
    if role is None:
        raise NotMember(game_id=game_id, user_id=user_id)
    return role


async def require_gm(game_id: int, user_id: int) -> None:
    if await require_member(game_id, user_id) != ROLE_GM:
        raise NotGm(game_id=game_id, user_id=user_id)


async def require_system(game_id: int, code: str) -> None:
    """The game is active and plays the rule system `code` (`wrong_system` otherwise)."""
    row = await Game.filter(id=game_id).first().values_list("system", "active")
    if row is None:
        raise NoGame(game_id=game_id)
    system, active = row
    if not active:
        raise GameEnded(game_id=game_id)
    if system != code:
        raise WrongSystem(game_id=game_id, system=system, expected=code)


def member_in(unit: Unit) -> str:
    """The actor's role in the unit's game (read with the game's lock); NotMember."""
    if unit.game.role is None:
        raise NotMember(game_id=unit.game.id, user_id=unit.actor_id)
    return unit.game.role


def gm_in(unit: Unit) -> None:
    if member_in(unit) != ROLE_GM:
        raise NotGm(game_id=unit.game.id, user_id=unit.actor_id)


async def active_in(unit: Unit, kind: str) -> str:
    """The key of the game's open scene of `kind`; the kind's `missing` error otherwise."""
    key = await unit.active_key(kind)
    if key is None:
        raise _missing(kind, unit.game.id)
    return key


# --- one active stream of a kind ----------------------------------------------------------


def _missing(kind: str, game_id: int) -> ServiceError:
    return systems.scene_kind(kind).missing(game_id=game_id)


async def active_of(game_id: int, kind: str) -> agg.StreamInfo | None:
    """As `aggregates.active_stream` (the newest open stream of the kind) in one query:
    this is on the path of every command."""
    row = (
        await Stream.filter(game_id=game_id, key__startswith=f"{kind}:", closed_at__isnull=True)
        .order_by("-id")
        .first()
    )
    if row is None:
        return None
    return agg.StreamInfo(
        game_id=game_id,
        key=row.key,
        aggregate=row.aggregate,
        seq=row.head_seq,
        step=row.head_step,
        created_at=row.created_at,
        updated_at=row.updated_at,
        closed_at=row.closed_at,
    )


async def require_active(game_id: int, kind: str) -> agg.StreamInfo:
    """The game's open scene of `kind`; the kind's `missing` error otherwise."""
    stream = await active_of(game_id, kind)
    if stream is None:
        raise _missing(kind, game_id)
    return stream


def system_in(unit: Unit, kind: str) -> None:
    """The unit's game plays the rule system of scene `kind` (`wrong_system` otherwise)."""
    expected = systems.system_of_scene(kind).code
    if unit.game.system != expected:
        raise WrongSystem(game_id=unit.game.id, system=unit.game.system, expected=expected)


def key_number(key: str) -> int:
    """The n of a scene's stream key ("<kind>:<n>", "<kind>:<scope>:<n>"; 0 for none)."""
    tail = key.rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def newest_open(unit: Unit, prefix: str) -> str | None:
    """The key of the game's newest open stream under `prefix` (read with the unit's lock)."""
    keys = [k for k, _ in unit.game.open_streams if k.startswith(prefix)]
    return max(keys, key=key_number) if keys else None


async def open_in(unit: Unit, aggregate: agg.Aggregate[Any, Any], scope: object = None) -> str:
    """In a unit: the key of a new scene of the aggregate's kind ("<kind>:<n>", the next
    free n; for a kind with a scope, under the scope's prefix) — the GM's alone, in a game of
    the kind's system with no open scene of the kind, or of the scope (its `active` error;
    one its `over` says has ended stays open to read, and the new one starts beside it).
    The game is locked with the unit, so two starts at once open one scene. The scene's
    first step recorded in the unit creates its row with the flush."""
    kind = aggregate.name
    gm_in(unit)
    system_in(unit, kind)
    scene = systems.scene_kind(kind)
    if scene.scope is None:
        prefix, current = f"{kind}:", await unit.active_key(kind)
    else:
        prefix = scene.scope(scope)
        current = newest_open(unit, prefix)
    if current is not None and not (
        scene.over is not None and scene.over(await unit.state(aggregate, current))
    ):
        raise scene.active(game_id=unit.game.id, stream=current)
    return await next_key(unit.game.id, prefix, unit.conn)


async def start_empty(
    aggregate: agg.Aggregate[S, Any],
    game_id: int,
    *,
    actor_id: int,
    params: Mapping[str, Any] | None = None,
) -> SceneView[S]:
    """The GM opens a new, empty scene of the aggregate's kind (`open_in`; `params`: the
    stream's, its initial state's); the boards hear of it through the outbox row written
    with it."""

    async def work(unit: Unit) -> str:
        key = await open_in(unit, aggregate)
        await Stream.create(
            game_id=game_id,
            key=key,
            aggregate=aggregate.name,
            params=dict(params or {}),
            using_db=unit.conn,
        )
        unit.note(aggregate.name, stream=key, seq=0, actor_id=actor_id)
        return key

    key = await agg_unit.run_unit(game_id, work, actor_id=actor_id)
    return SceneView(game_id, key, aggregate.initial(params or {}), 0)


async def close_scene(
    aggregate: agg.Aggregate[S, Any], game_id: int, *, actor_id: int
) -> SceneView[S]:
    """The GM closes the game's open scene of the aggregate's kind: read-only from now on
    (its log stays; a game already ended may still close its scenes); the boards hear of
    it through the outbox row written with it."""

    async def work(unit: Unit) -> str:
        gm_in(unit)
        key = await active_in(unit, aggregate.name)
        await (
            Stream.filter(game_id=game_id, key=key, closed_at__isnull=True)
            .using_db(unit.conn)
            .update(closed_at=timezone.now())
        )
        unit.note(aggregate.name, stream=key, closed=True, actor_id=actor_id)
        return key

    key = await agg_unit.run_unit(game_id, work, actor_id=actor_id, require_active=False)
    state, seq = await agg.load(aggregate, game_id, key)
    return SceneView(game_id, key, state, seq, True, await _board_of(game_id, key))


async def current_view(
    aggregate: agg.Aggregate[S, Any], game_id: int, kind: str
) -> SceneView[S] | None:
    """The open scene of `kind` as stored now (None: none is open), read in one statement
    with its board message."""
    found = await read_active_view(aggregate, game_id, kind)
    if found is None:
        return None
    view, board = found
    assert view.row is not None  # an open stream has a row
    return SceneView(game_id, view.row.key, view.state, view.seq, False, board)


async def view_of(
    aggregate: agg.Aggregate[S, Any], game_id: int, stream: agg.StreamInfo
) -> SceneView[S]:
    state, seq = await agg.load(aggregate, game_id, stream.key)
    board = await _board_of(game_id, stream.key)
    return SceneView(game_id, stream.key, state, seq, stream.closed, board)


# --- board messages -----------------------------------------------------------------------


def _check_kind(kind: str) -> None:
    systems.scene_kind(kind)  # UnknownScene for a kind no system has


async def _board_of(game_id: int, key: str) -> int | None:
    query = BoardMessage.filter(stream__game_id=game_id, stream__key=key)
    found: int | None = await first_value(query, "message_id")
    return found


async def set_board_message(game_id: int, kind: str, message_id: int) -> None:
    """Remember the chat message showing the active scene of `kind` (its board), so the
    bot edits it instead of sending a new one. A new scene starts without one; the kind's
    `missing` error if none is open. A negative id is a post still queued (its journal row,
    negated: bot/middlewares/flood.py), given its real id once sent
    (engine/services/outgoing.py); 0 (a post whose sender went on without any id) changes
    nothing: the next step posts it anew."""
    _check_kind(kind)
    if message_id == 0:
        return
    stream = await require_active(game_id, kind)
    stream_id = (
        await Stream.filter(game_id=game_id, key=stream.key).first().values_list("id", flat=True)
    )
    if await BoardMessage.filter(stream_id=stream_id).update(message_id=message_id):
        return
    try:
        await BoardMessage.create(stream_id=stream_id, message_id=message_id)
    except IntegrityError:  # a concurrent first set: the last writer wins
        await BoardMessage.filter(stream_id=stream_id).update(message_id=message_id)


async def board_message(game_id: int, kind: str) -> int | None:
    """The message id stored for the active scene of `kind`; None if none."""
    _check_kind(kind)
    stream = await agg.active_stream(game_id, kind)
    return None if stream is None else await _board_of(game_id, stream.key)
