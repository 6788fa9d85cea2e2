"""The Mini App's Storyteller fight commands: JSON ``{"command": name, ...args}`` -> the
same engine.services.storyteller calls the chat commands make. Each is a `Spec`
(webapp/systems/commands.py): a pydantic model of its arguments and whether it is the GM's
alone; the rest is checked by the services and the engine exactly as for the chat."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from pydantic import AfterValidator, Field

from engine.names import NAME_MAX
from engine.services.storyteller import (
    FIGHT,
    add_to_fight,
    current_fight,
    fight_command,
)
from engine.storyteller import commands as cmd
from engine.storyteller.combat import BLOCK, DODGE, PARRY, Defense, Overrides
from engine.storyteller.decide import defense_choices
from engine.storyteller.errors import StorytellerError
from engine.storyteller.maneuvers import FLANK, REAR, Situation
from engine.storyteller.options import DAMAGE_TYPES
from webapp.bodies import BLANK_IS_NONE, B, Body, one_of, stripped
from webapp.systems.commands import Ctx, Done, NoArgs, Spec, scene_spec, scene_specs
from webapp.systems.storyteller.options import OptionsArgs, set_game_options

ID_MAX = 64
Id = Annotated[str, Field(max_length=ID_MAX), AfterValidator(stripped)]
MaybeId = Annotated[Id | None, BLANK_IS_NONE]
Name = Annotated[str, Field(max_length=NAME_MAX), AfterValidator(stripped)]
DefenseKind = Annotated[str, one_of((BLOCK, DODGE, PARRY))]
Difficulty = Annotated[int, Field(ge=2, le=10)]
Dice = Annotated[int, Field(ge=0, le=30)]


class ActorArgs(Body):
    actor: Id


class AddArgs(Body):
    name: Name
    count: int = Field(1, ge=1, le=20)


class PairArgs(Body):
    actor: Id
    target: Id


class DeclareArgs(Body):
    actor: Id
    count: int = Field(ge=1, le=5)


class AttackArgs(Body):
    actor: Id
    target: Id
    weapon: MaybeId = None
    defense: Annotated[str, one_of(("", BLOCK, DODGE, PARRY))] = ""
    interrupt: Annotated[str, one_of(("", cmd.INTERRUPT_ROLL, cmd.INTERRUPT_POINT))] = ""
    side: Annotated[str, one_of(("", FLANK, REAR))] = ""
    aim: Annotated[str, one_of(("", "medium", "small", "tiny"))] = ""
    blind: bool = False
    no_space: bool = False
    willpower: bool = False
    specialty: bool = False


class AdjustArgs(Body):
    """The GM's changes of the pending proposal (each replaces the rules' value; absent:
    the rules')."""

    difficulty: Difficulty | None = None
    dice: Dice | None = None
    defense: Annotated[str, one_of(("", "none", BLOCK, DODGE, PARRY))] = ""
    damage_type: Annotated[str, one_of(("", *DAMAGE_TYPES))] = ""


def fight(model: type[B], build: Callable[[B], cmd.Command], gm_only: bool) -> Spec[B]:
    return scene_spec(FIGHT.name, model, build, gm_only)


class DefendArgs(Body):
    """The attacked player's (or the GM's) choice: its place in the list the board showed."""

    index: int = Field(ge=0, le=30)


async def _defend(ctx: Ctx, a: DefendArgs) -> Done:
    view = await current_fight(ctx.game_id)
    p = None if view is None else view.state.proposal
    if view is None or p is None or not p.asking:
        raise StorytellerError("not_asking")
    choices = defense_choices(view.state)
    if a.index >= len(choices):
        raise StorytellerError("not_asking")
    command = choices[a.index].command()
    out = await fight_command(ctx.game_id, command, actor_id=ctx.actor_id, rng=ctx.rng, **ctx.seen)
    return Done(out.events)


async def _add(ctx: Ctx, a: AddArgs) -> Done:
    out = await add_to_fight(ctx.game_id, a.name, actor_id=ctx.actor_id, count=a.count, rng=ctx.rng)
    return Done(out.events)


def _attack(a: AttackArgs) -> cmd.Command:
    situation = Situation(
        side=a.side or None,
        blind=a.blind,
        aim=a.aim or None,
        space=not a.no_space,
        willpower=a.willpower,
        specialty=a.specialty,
    )
    return cmd.Attack(
        a.actor,
        a.target,
        a.weapon,
        defense=a.defense or None,
        interrupt=a.interrupt or None,
        situation=situation,
    )


def _adjust(a: AdjustArgs) -> cmd.Command:
    defense = None if a.defense in ("", "none") else Defense(a.defense)
    return cmd.Adjust(
        Overrides(
            difficulty=a.difficulty,
            dice=a.dice,
            defense=defense,
            no_defense=a.defense == "none",
            damage_type=a.damage_type or None,
        )
    )


def _actor(build: Callable[[str], cmd.Command]) -> Spec[ActorArgs]:
    return fight(ActorArgs, lambda a: build(a.actor), False)


FIGHT_COMMANDS: dict[str, Spec[Any]] = {
    **scene_specs(FIGHT.name),
    "add": Spec(AddArgs, _add, True),
    "remove": fight(ActorArgs, lambda a: cmd.RemoveFighter(a.actor), True),
    "initiative": fight(NoArgs, lambda a: cmd.StartTurn(), True),
    "ambush": fight(PairArgs, lambda a: cmd.Ambush(a.actor, a.target), True),
    "publish": fight(NoArgs, lambda a: cmd.Publish(), True),
    "drop": fight(NoArgs, lambda a: cmd.Drop(), True),
    "adjust": fight(AdjustArgs, _adjust, True),
    # the game's, for the fights it starts from now on (options.py)
    "options": Spec(OptionsArgs, set_game_options, True),
    # players too (the engine checks the turn and the owner)
    "delay": _actor(cmd.Delay),
    "yield": _actor(cmd.Yield),
    "done": _actor(cmd.EndAction),
    "full_defense": _actor(cmd.FullDefense),
    "declare": fight(DeclareArgs, lambda a: cmd.DeclareActions(a.actor, a.count), False),
    "attack": fight(AttackArgs, _attack, False),
    "defend": Spec(DefendArgs, _defend, False),
}
