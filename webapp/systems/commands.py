"""What a board command of any rule system is: JSON ``{"command": name, "seq", "stream",
...args}`` read into a pydantic model of its arguments (webapp/bodies.py: strict types and
bounds; a bad one is 400 ``bad_request`` with its field) and handed to a handler that calls
the system's services as the authenticated user. A `Spec` also says whether the command is
the GM's alone (refused with 403 ``forbidden`` before anything is read). A system's adapter
names its commands per scene kind (webapp/systems/registry.py); webapp/api/scenes.py runs
them. The commands every scene kind has — start, end, undo, and one engine command built
from its arguments — are made here for any kind (engine/services/scene_service.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from engine.dice.rng import Rng
from engine.services.scene_service import (
    end_scene,
    open_scene,
    scene_command,
    start_scene,
    undo_scene_step,
)
from webapp.bodies import B, Body, parse_body


@dataclass(frozen=True, slots=True)
class Ctx:
    game_id: int
    actor_id: int
    rng: Rng
    body: dict[str, Any]

    def parse(self, model: type[B]) -> B:
        """The body read as `model` (or 400 ``bad_request`` with the field)."""
        return parse_body(model, self.body)

    @property
    def seen(self) -> dict[str, Any]:
        """What the client saw (`seq`, `stream`; type-checked in webapp/api/scenes.py), as
        the services' `expected_seq` / `expected_stream`: they compare it inside the write."""
        return {"expected_seq": self.body.get("seq"), "expected_stream": self.body.get("stream")}


Events = tuple[object, ...]  # the engine events a command wrote


@dataclass(frozen=True, slots=True)
class Done:
    """What a command wrote: its events (the steps it caused elsewhere were stored with it,
    in the same transaction)."""

    events: Events = ()


@dataclass(frozen=True, slots=True)
class Spec(Generic[B]):
    """A command: the model of its arguments, what it does with them, and whether it is
    the GM's alone."""

    model: type[B]
    handler: Callable[[Ctx, B], Awaitable[Done]]
    gm_only: bool

    async def run(self, ctx: Ctx) -> Done:
        return await self.handler(ctx, ctx.parse(self.model))


class SceneArgs(Body):
    """A command's arguments; `scope`: which open scene of a kind with scopes it is for
    (engine/services/systems.py `SceneKind.scope`: a forum topic, say)."""

    @property
    def scope(self) -> object:
        return None  # the game's one open scene of the kind


class NoArgs(SceneArgs):
    pass


A = TypeVar("A", bound=SceneArgs)


def scene_spec(kind: str, model: type[B], build: Callable[[B], object], gm_only: bool) -> Spec[B]:
    """A command of a scene of `kind` that is one engine command built from its arguments."""

    async def run(ctx: Ctx, args: B) -> Done:
        out = await scene_command(
            kind, ctx.game_id, build(args), actor_id=ctx.actor_id, rng=ctx.rng, **ctx.seen
        )
        return Done(out.events)

    return Spec(model, run, gm_only)


def opening_spec(
    kind: str, model: type[A], opening: Callable[[Ctx, A], Awaitable[object]]
) -> Spec[A]:
    """The GM's start of a scene of `kind` that opens with a first step: the system's
    opening command made from the arguments (`opening`), decided by the scene service in
    the scope the arguments name."""

    async def start(ctx: Ctx, args: A) -> Done:
        command = await opening(ctx, args)
        out = await open_scene(
            kind, ctx.game_id, command, actor_id=ctx.actor_id, rng=ctx.rng, scope=args.scope
        )
        return Done(out.events)

    return Spec(model, start, True)


def scene_specs(kind: str, args: type[SceneArgs] = NoArgs) -> dict[str, Spec[SceneArgs]]:
    """The GM's start (an empty scene), end and undo (of the step the board showed: the
    scene's `seq` and `stream`, when the page sends them) of a scene of `kind`; `args`: the
    undo's, which name the scene of a kind with scopes."""

    async def start(ctx: Ctx, _: SceneArgs) -> Done:
        await start_scene(kind, ctx.game_id, actor_id=ctx.actor_id)
        return Done()

    async def end(ctx: Ctx, _: SceneArgs) -> Done:
        await end_scene(kind, ctx.game_id, actor_id=ctx.actor_id)
        return Done()

    async def undo(ctx: Ctx, sent: SceneArgs) -> Done:
        seen = ctx.seen
        await undo_scene_step(kind, ctx.game_id, actor_id=ctx.actor_id, scope=sent.scope, **seen)
        return Done()

    return {
        "start": Spec(NoArgs, start, True),
        "end": Spec(NoArgs, end, True),
        "undo": Spec(args, undo, True),
    }
