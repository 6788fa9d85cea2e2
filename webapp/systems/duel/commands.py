"""The Mini App's duel commands: JSON ``{"command": name, "thread": <topic>, ...}`` -> the
same engine.services.duel calls the chat's buttons make; the GM's alone are marked so."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, field_validator

from engine import codec, duel
from engine.services.duel import (
    DUEL,
    OpenDuel,
    adjust_turn,
    default_turn,
    duel_opening,
    publish_turn,
    set_deadline,
    stop_duel,
    submit_turn,
)
from webapp.bodies import Body
from webapp.systems.commands import Ctx, Done, SceneArgs, Spec, opening_spec, scene_specs

Thread = Annotated[int, Field(ge=0, le=2**53)]
Turn = Annotated[int, Field(ge=1, le=10_000)]
Name = Annotated[str, Field(min_length=1, max_length=64)]
_ACTIONS = codec.codec(tuple[duel.Action, ...])


class StartBody(SceneArgs):
    thread: Thread = 0
    a: Name
    b: Name

    @property
    def scope(self) -> int:
        return self.thread  # the topic the duel starts in


class SubmitBody(Body):
    thread: Thread = 0
    fighter: Annotated[str, Field(min_length=1, max_length=24)]
    turn: Turn
    actions: Annotated[list[dict[str, Any]], Field(max_length=4)]
    comment: Annotated[str, Field(max_length=500)] = ""
    # the fighter's seals this turn the page saw (GET …/duel ``fighters[].seals``): a double
    # tap, or a request sent again, finds one more and is refused (``already_sent``)
    seals: Annotated[int, Field(ge=0, le=1000)] | None = None

    @field_validator("actions")
    @classmethod
    def _actions(cls, value: list[dict[str, Any]]) -> list[dict[str, Any]]:
        _ACTIONS.from_data(value)  # a ValueError is 400 with the field
        return value

    def parsed(self) -> tuple[duel.Action, ...]:
        return tuple(_ACTIONS.from_data(self.actions))


class AdjustBody(Body):
    thread: Thread = 0
    turn: Turn
    fighter: Annotated[str, Field(min_length=1, max_length=24)]
    field: Annotated[str, Field(min_length=1, max_length=24)]
    value: Annotated[int, Field(ge=-1000, le=1000)]
    reason: Annotated[str, Field(min_length=1, max_length=200)]
    action: Annotated[int, Field(ge=0, le=3)] = 0
    check: Annotated[int, Field(ge=0, le=1)] = 0


class DeadlineBody(Body):
    """``hours``: each turn's time (None: no deadline); ``policy``: what happens then."""

    thread: Thread = 0
    hours: Annotated[int, Field(ge=1, le=duel.MAX_DEADLINE_HOURS)] | None
    policy: duel.Policy = "ask"


class DefaultBody(Body):
    thread: Thread = 0
    turn: Turn
    fighter: Annotated[str, Field(min_length=1, max_length=24)]


class TurnBody(Body):
    thread: Thread = 0
    turn: Turn


class ThreadBody(SceneArgs):
    thread: Thread = 0

    @property
    def scope(self) -> int:
        return self.thread  # the topic's duel


async def _opening(ctx: Ctx, body: StartBody) -> OpenDuel:
    return await duel_opening(ctx.game_id, body.a, body.b)


async def _submit(ctx: Ctx, body: SubmitBody) -> Done:
    out = await submit_turn(
        ctx.game_id, body.thread, fighter=body.fighter, actions=body.parsed(), turn=body.turn,
        actor_id=ctx.actor_id, rng=ctx.rng, comment=body.comment, seals=body.seals,
    )  # fmt: skip
    return Done(out.events)


async def _adjust(ctx: Ctx, body: AdjustBody) -> Done:
    # a yes/no field (standing up) comes as 0 or 1
    value: int | bool = bool(body.value) if body.field == "standing_up" else body.value
    out = await adjust_turn(
        ctx.game_id, body.thread, turn=body.turn, fighter=body.fighter, field=body.field,
        value=value, reason=body.reason, actor_id=ctx.actor_id, rng=ctx.rng,
        action=body.action, check=body.check,
    )  # fmt: skip
    return Done(out.events)


async def _publish(ctx: Ctx, body: TurnBody) -> Done:
    out = await publish_turn(
        ctx.game_id, body.thread, turn=body.turn, actor_id=ctx.actor_id, rng=ctx.rng
    )
    return Done(out.events)


async def _deadline(ctx: Ctx, body: DeadlineBody) -> Done:
    out = await set_deadline(
        ctx.game_id, body.thread, hours=body.hours, policy=body.policy,
        actor_id=ctx.actor_id, rng=ctx.rng,
    )  # fmt: skip
    return Done(out.events)


async def _default(ctx: Ctx, body: DefaultBody) -> Done:
    out = await default_turn(
        ctx.game_id, body.thread, turn=body.turn, fighter=body.fighter,
        actor_id=ctx.actor_id, rng=ctx.rng,
    )  # fmt: skip
    return Done(out.events)


async def _stop(ctx: Ctx, body: ThreadBody) -> Done:
    """The GM stops the topic's running duel, as `/duel стоп` does: the chat gets the result
    so far and the export's hint (the board's sync), the forms close."""
    out = await stop_duel(ctx.game_id, body.thread, actor_id=ctx.actor_id, rng=ctx.rng)
    return Done(out.events)


DUEL_COMMANDS: dict[str, Spec[Any]] = {
    "start": opening_spec(DUEL.name, StartBody, _opening),
    "submit": Spec(SubmitBody, _submit, gm_only=False),
    "adjust": Spec(AdjustBody, _adjust, gm_only=True),
    "publish": Spec(TurnBody, _publish, gm_only=True),
    "deadline": Spec(DeadlineBody, _deadline, gm_only=True),
    "default": Spec(DefaultBody, _default, gm_only=True),
    # the scene service's undo of the topic's duel; the page sends that duel's own `seq` and
    # `stream` (its answer's are over all the game's duels: webapp/systems/duel/scene.py)
    "undo": scene_specs(DUEL.name, ThreadBody)["undo"],
    "stop": Spec(ThreadBody, _stop, gm_only=True),
}
