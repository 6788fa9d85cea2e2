"""One scene service for every rule system: a scene kind's start (empty, or with a first
step: `open_scene`), end, current, command and undo, each one unit of work
(engine/services/aggregates/unit.py). What is the system's comes from the kind's
registration (engine/services/systems.py `SceneKind`): its aggregate (evolve, codecs), its
`decide` of a command on the state read in the unit, who may send what (`check`), the other
scenes' steps a step causes (`follow`, `follow_undo`), a new scene's params (`start_params`,
`opens`), its scope (one open scene per forum topic, say) and when a scene is over, and the
notes' extra fields. The system's modules name these for their callers
(``start_<scene> = partial(start_scene, KIND)``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from engine.dice.rng import Rng
from engine.services import scenes, systems
from engine.services.aggregates.unit import Unit, run_unit
from engine.services.errors import EventConflict, StaleState
from engine.services.scenes import Caused, CommandOutcome, SceneView, UndoOutcome
from engine.store.models import ROLE_GM

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

S = TypeVar("S")
C = TypeVar("C")
D = TypeVar("D", bound="DataclassInstance")  # an engine command (a dataclass with `by`)


@dataclass(frozen=True)
class Turn(Generic[S, C]):
    """A command as a scene kind's `decide` gets it: in the unit, on the state read there."""

    unit: Unit
    key: str
    state: S
    command: C
    role: str
    actor_id: int
    rng: Rng

    @property
    def by(self) -> int | None:
        return by_of(self.role, self.actor_id)

    def as_actor(self, command: D) -> D:
        """`command` with its `by` set for the engine."""
        return as_actor(command, self.role, self.actor_id)


def by_of(role: str, actor_id: int) -> int | None:
    """Who the engine is told sends a command: None for the GM (anything goes), the
    player's id otherwise (the engine checks what a player may do)."""
    return None if role == ROLE_GM else actor_id


def as_actor(command: D, role: str, actor_id: int) -> D:
    """`command` with its `by` set for the engine (`by_of`)."""
    return dataclasses.replace(command, by=by_of(role, actor_id))


async def start_scene(kind: str, game_id: int, *, actor_id: int) -> SceneView[Any]:
    """The GM opens a new, empty scene of `kind` (`wrong_system` in a game of another
    system, the kind's `active` error if one is open), with the kind's params for it."""
    scene = systems.scene_kind(kind)
    params = None if scene.start_params is None else await scene.start_params(game_id)
    return await scenes.start_empty(scene.aggregate, game_id, actor_id=actor_id, params=params)


async def open_scene(
    kind: str, game_id: int, command: object, *, actor_id: int, rng: Rng, scope: object = None
) -> CommandOutcome[Any, Any]:
    """The GM opens a new scene of `kind` (of `scope`, for a kind with a scope) and decides
    `command` as its first step, in one transaction: `wrong_system` in a game of another
    system, the kind's `active` error while one goes on (`scenes.open_in`); the new scene's
    params are the kind's `opens` of the command."""
    scene = systems.scene_kind(kind)
    decide = _decide_of(scene)

    async def work(unit: Unit) -> CommandOutcome[Any, Any]:
        key = await scenes.open_in(unit, scene.aggregate, scope)
        params = None if scene.opens is None else await scene.opens(unit, key, command)
        state = await unit.state(scene.aggregate, key, params=params)
        turn = Turn(unit, key, state, command, scenes.member_in(unit), actor_id, rng)
        events, after = await decide(turn)
        out = await record_scene_step(unit, kind, key, events, rng, before=state, after=after)
        return dataclasses.replace(out, before=state)

    return await run_unit(game_id, work, actor_id=actor_id)


async def end_scene(kind: str, game_id: int, *, actor_id: int) -> SceneView[Any]:
    """The GM closes the game's open scene of `kind`: read-only from now on (its log stays)."""
    return await scenes.close_scene(systems.scene_kind(kind).aggregate, game_id, actor_id=actor_id)


async def current_scene(kind: str, game_id: int) -> SceneView[Any] | None:
    """The game's open scene of `kind` as stored now, or None (one statement, usually)."""
    return await scenes.current_view(systems.scene_kind(kind).aggregate, game_id, kind)


async def scene_command(
    kind: str,
    game_id: int,
    command: object,
    *,
    actor_id: int,
    rng: Rng,
    expected_seq: int | None = None,
    expected_stream: str | None = None,
    scope: object = None,
) -> CommandOutcome[Any, Any]:
    """Decide `command` on the game's open scene of `kind` (of `scope`, for a kind with a
    scope) and keep its events as one step, with the steps it causes in other scenes, in one
    transaction. Non-members get `not_member`, a player what the kind's `check` refuses; the
    engine's refusal passes through. `expected_seq`: the scene's seq the user saw
    (`stale_state` if it moved)."""
    scene = systems.scene_kind(kind)
    decide = _decide_of(scene)
    if scene.commands is not None and not isinstance(command, scene.commands):
        raise TypeError(f"not a {kind} command: {command!r}")

    async def work(unit: Unit) -> CommandOutcome[Any, Any]:
        role = scenes.member_in(unit)
        key = await open_key(unit, kind, scope)
        if scene.check is not None and role != ROLE_GM:
            await scene.check(unit, command)
        state = await unit.state(
            scene.aggregate, key, expected_seq=expected_seq, expected_stream=expected_stream
        )
        events, after = await decide(Turn(unit, key, state, command, role, actor_id, rng))
        out = await record_scene_step(unit, kind, key, events, rng, before=state, after=after)
        return dataclasses.replace(out, before=state)

    return await run_unit(game_id, work, actor_id=actor_id)


def _decide_of(scene: systems.SceneKind[Any, Any, Any]) -> systems.Decide[Any, Any, Any]:
    if scene.decide is None:
        raise TypeError(f"the scene kind {scene.name!r} decides no commands here")
    return scene.decide


async def open_key(unit: Unit, kind: str, scope: object = None) -> str:
    """The key of the game's open scene of `kind`, read with the unit's lock — for a kind
    with a scope (`SceneKind.scope`), the newest open one of `scope`; the kind's `missing`
    error when there is none."""
    scene = systems.scene_kind(kind)
    if scene.scope is None:
        return await scenes.active_in(unit, kind)
    key = scenes.newest_open(unit, scene.scope(scope))
    if key is None:
        raise scene.missing(game_id=unit.game.id, scope=scope)
    return key


async def record_scene_step(
    unit: Unit,
    kind: str,
    key: str,
    events: tuple[Any, ...],
    rng: Rng,
    *,
    before: Any = None,
    after: Any = None,
) -> CommandOutcome[Any, Any]:
    """Keep a step of the scene `key` in the unit, tell the boards (the outbox note), and
    let the other scenes follow it (`follow`); `after`: the state after `events` when the
    caller has it (else they are folded), `before` it when known."""
    scene = systems.scene_kind(kind)
    aggregate = scene.aggregate
    step = unit.record(aggregate, key, events, state=after)
    board = unit.board(key)
    if not events:
        return CommandOutcome(
            await unit.state(aggregate, key), (), None, unit.seq(key), key, (), board
        )
    seq = unit.seq(key)
    note = scene.note(key)
    unit.note(kind, aggregate, stream=key, seq=seq, events=events, actor_id=unit.actor_id, **note)
    followed: tuple[Caused, ...] = ()
    if scene.follow is not None:
        state = await unit.state(aggregate, key)
        followed = await scene.follow(unit, key, step, events, state, rng, before)
    open_kinds = frozenset(k.split(":", 1)[0] for k, _ in unit.game.open_streams)
    state, seq = await unit.state(aggregate, key), unit.seq(key)  # as the followers left it
    return CommandOutcome(state, events, step, seq, key, followed, board, open_kinds=open_kinds)


async def undo_scene_step(
    kind: str,
    game_id: int,
    *,
    actor_id: int,
    expected_step: int | None = None,
    expected_seq: int | None = None,
    expected_stream: str | None = None,
    scope: object = None,
) -> UndoOutcome[Any, Any]:
    """The GM takes back the last step of the game's open scene of `kind` (of `scope`, for a
    kind with a scope) and what it caused in other scenes (`follow_undo`), in one
    transaction. `expected_step` (the step the GM saw as last: `event_conflict` if another
    step came since) or `expected_seq` (the board's seq: `stale_state`) keep two undo clicks
    from taking back two steps."""
    scene = systems.scene_kind(kind)
    aggregate = scene.aggregate

    async def work(unit: Unit) -> UndoOutcome[Any, Any]:
        scenes.gm_in(unit)
        key = await open_key(unit, kind, scope)
        await unit.state(aggregate, key, expected_seq=expected_seq, expected_stream=expected_stream)
        try:
            result = await unit.undo(aggregate, key, expected_step=expected_step)
        except StaleState as exc:
            raise EventConflict(**exc.params) from exc
        unit.note(
            kind,
            aggregate,
            stream=key,
            seq=result.seq,
            undone=result.undone_step,
            undone_events=result.undone_events,  # what the chat tells, as after its /undo
            actor_id=actor_id,
            **scene.note(key),
        )
        follow = scene.follow_undo
        followed = None if follow is None else await follow(unit, key, result.undone_step)
        return UndoOutcome(
            result.state,
            result.undone_step,
            result.undone_events,
            result.step_id,
            result.seq,
            key,
            0 if followed is None else followed.steps,
        )

    return await run_unit(game_id, work, actor_id=actor_id, max_retries=0)
