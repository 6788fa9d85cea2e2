"""The Mini App's chase commands (Savage Worlds): JSON ``{"command": name, ...args}`` -> the
same engine.services calls as the chat's /chase, /move, /back, /bump and /flee (arguments
read and bounded by pydantic models, as in webapp/systems/savage/commands.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from pydantic import Field, PlainValidator, ValidationInfo, field_validator

from engine.savage import chase
from engine.savage.chase.commands import ROW_SIZE
from engine.services.savage import (
    CHASE,
    chase_command,
    current_chase,
    end_chase,
    start_chase,
    start_chase_turn,
)
from webapp.bodies import B, Body
from webapp.systems.commands import Ctx, Done, NoArgs, Spec, scene_spec, scene_specs
from webapp.systems.savage.commands import Id, MaybeId


def _direction(value: object) -> int:
    if value == "forward" or (type(value) is int and value == 1):
        return 1
    if value == "back" or (type(value) is int and value == -1):
        return -1
    raise ValueError("forward or back (1 or -1)")


Direction = Annotated[int, PlainValidator(_direction)]
Position = Annotated[int, Field(ge=0, le=53)]  # a card of the row, 0-based


class StartArgs(Body):
    cards: int = Field(ROW_SIZE, ge=1, le=54)


class ParticipantArgs(Body):
    participant: Id


class TurnArgs(Body):
    participant: MaybeId = None


class AddArgs(Body):
    """``position`` unless the participant joins a ``leader``'s group."""

    leader: MaybeId = None
    participant: Id
    side: Id
    position: Position | None = Field(None, validate_default=True)
    movement: Id = "foot"
    die: int = Field(6, ge=4, le=12)
    extra: bool = False

    @field_validator("position")
    @classmethod
    def _placed(cls, position: int | None, info: ValidationInfo) -> int | None:
        if position is None and info.data.get("leader") is None:
            raise ValueError("a position or a leader")
        return position


class PlaceArgs(Body):
    participant: Id
    position: Position


class CardsArgs(Body):
    count: int = Field(ge=1, le=20)
    at: Id = "front"


class SideArgs(Body):
    side: Id


class CriticalArgs(Body):
    pending: Id
    choice: Id


class MoveArgs(Body):
    participant: Id
    direction: Direction
    as_action: bool = False
    modifier: int = Field(0, ge=-20, le=20)


class BackArgs(Body):
    participant: Id
    cards: int = Field(1, ge=1, le=20)


class BumpArgs(Body):
    attacker: Id
    target: Id
    direction: Direction


class ResolveArgs(Body):
    pending: Id
    direction: Direction
    cards: int = Field(1, ge=0, le=2)
    chooser: MaybeId = None


class DeclareArgs(Body):
    participant: Id
    count: int = Field(ge=1, le=3)


def ch(model: type[B], build: Callable[[B], chase.Command], gm_only: bool) -> Spec[B]:
    """A command that is one chase command built from its arguments."""
    return scene_spec(CHASE.name, model, build, gm_only)


async def _chase_start(ctx: Ctx, a: StartArgs) -> Done:
    out = await start_chase(ctx.game_id, actor_id=ctx.actor_id, rng=ctx.rng, cards=a.cards)
    return Done(out.events)


async def _chase_end(ctx: Ctx, _: NoArgs) -> Done:
    """As the chat's «/chase end»: record the end (goal reached) if it is still running,
    then close the chase."""
    view = await current_chase(ctx.game_id)
    if view is not None and view.state.ended is None and view.state.started:
        await chase_command(ctx.game_id, chase.EndChase(), actor_id=ctx.actor_id, rng=ctx.rng)
    await end_chase(ctx.game_id, actor_id=ctx.actor_id)
    return Done()


async def _chase_turn(ctx: Ctx, a: TurnArgs) -> Done:
    out = await start_chase_turn(
        ctx.game_id, actor_id=ctx.actor_id, rng=ctx.rng, participant=a.participant, **ctx.seen
    )
    return Done(out.events)


async def _critical(ctx: Ctx, a: CriticalArgs) -> Done:
    """The GM's choice after a critical failure; Fatigue reaches the linked fight character
    too, and the chase follows that fight step as it follows any — in the same step
    (engine/services/follow.py; the chat hooks tell it and refresh the fight board)."""
    command = chase.ResolveCriticalFailure(a.pending, a.choice)
    out = await chase_command(ctx.game_id, command, actor_id=ctx.actor_id, rng=ctx.rng, **ctx.seen)
    return Done(out.events)


def _chase_add(a: AddArgs) -> chase.Command:
    return chase.AddParticipant(
        a.participant,
        a.side,
        None if a.leader else a.position,
        movement=a.movement,
        die=a.die,
        wild_card=not a.extra,
        leader=a.leader,
    )


def _participant(command: Callable[[str], chase.Command], gm_only: bool) -> Spec[ParticipantArgs]:
    return ch(ParticipantArgs, lambda a: command(a.participant), gm_only)


CHASE_COMMANDS: dict[str, Spec[Any]] = {
    "start": Spec(StartArgs, _chase_start, True),
    "end": Spec(NoArgs, _chase_end, True),
    "undo": scene_specs(CHASE.name)["undo"],
    "add": ch(AddArgs, _chase_add, True),
    "place": ch(PlaceArgs, lambda a: chase.PlaceParticipant(a.participant, a.position), True),
    "cards": ch(CardsArgs, lambda a: chase.LayCards(a.count, a.at), True),
    "round": ch(NoArgs, lambda a: chase.StartRound(), True),
    "out": _participant(chase.TakeOutOfAction, True),
    "stop": ch(SideArgs, lambda a: chase.StopSide(a.side), True),
    "critical": Spec(CriticalArgs, _critical, True),
    # players too, for what they control (engine.services.savage.chases checks it)
    "turn": Spec(TurnArgs, _chase_turn, False),
    "end_turn": _participant(chase.EndTurn, False),
    "move": ch(
        MoveArgs,
        lambda a: chase.ChangePosition(
            a.participant, a.direction, as_action=a.as_action, modifier=a.modifier
        ),
        False,
    ),
    "back": ch(BackArgs, lambda a: chase.DropBack(a.participant, a.cards), False),
    "bump": ch(BumpArgs, lambda a: chase.Bump(a.attacker, a.target, a.direction), False),
    "resolve": ch(
        ResolveArgs,
        lambda a: chase.ResolveBump(a.pending, a.direction, a.cards, a.chooser),
        False,
    ),
    "flee": _participant(chase.Flee, False),
    "declare": ch(DeclareArgs, lambda a: chase.DeclareActions(a.participant, a.count), False),
}
