"""The Mini App's chase commands: JSON ``{"command": name, ...args}`` -> the same
engine.services calls as the chat's /chase, /move, /back, /bump and /flee (arguments read
and bounded by `webapp.scene_commands.Ctx`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.savage import chase
from engine.savage.chase.commands import ROW_SIZE
from engine.services import (
    chase_command,
    current_chase,
    end_chase,
    start_chase,
    start_chase_turn,
    undo_chase,
)
from webapp.scene_commands import Ctx, Done, Run, Spec


def _ch(build: Callable[[Ctx], Any]) -> Run:
    async def run(ctx: Ctx) -> Done:
        command = build(ctx)
        out = await chase_command(
            ctx.game_id, command, actor_id=ctx.actor_id, rng=ctx.rng, **ctx.seen
        )
        return Done(out.events)

    return run


async def _chase_start(ctx: Ctx) -> Done:
    cards = ctx.int("cards", ROW_SIZE, lo=1, hi=54)
    out = await start_chase(ctx.game_id, actor_id=ctx.actor_id, rng=ctx.rng, cards=cards)
    return Done(out.events)


async def _chase_end(ctx: Ctx) -> Done:
    """As the chat's «/chase end»: record the end (goal reached) if it is still running,
    then close the chase."""
    view = await current_chase(ctx.game_id)
    if view is not None and view.state.ended is None and view.state.started:
        await chase_command(ctx.game_id, chase.EndChase(), actor_id=ctx.actor_id, rng=ctx.rng)
    await end_chase(ctx.game_id, actor_id=ctx.actor_id)
    return Done()


async def _chase_undo(ctx: Ctx) -> Done:
    await undo_chase(ctx.game_id, actor_id=ctx.actor_id, **ctx.seen)
    return Done()


async def _chase_turn(ctx: Ctx) -> Done:
    out = await start_chase_turn(
        ctx.game_id,
        actor_id=ctx.actor_id,
        rng=ctx.rng,
        participant=ctx.maybe_text("participant"),
        **ctx.seen,
    )
    return Done(out.events)


async def _critical(ctx: Ctx) -> Done:
    """The GM's choice after a critical failure; Fatigue reaches the linked fight character
    too, and the chase follows that fight step as it follows any — in the same step
    (engine/services/follow.py; the chat hooks tell it and refresh the fight board)."""
    command = chase.ResolveCriticalFailure(ctx.text("pending"), ctx.text("choice"))
    out = await chase_command(ctx.game_id, command, actor_id=ctx.actor_id, rng=ctx.rng, **ctx.seen)
    return Done(out.events)


def _chase_add(c: Ctx) -> chase.Command:
    leader = c.maybe_text("leader")
    return chase.AddParticipant(
        c.text("participant"),
        c.text("side"),
        None if leader else c.int("position", lo=0, hi=53),
        movement=c.text("movement", default="foot"),
        die=c.int("die", 6, lo=4, hi=12),
        wild_card=not c.flag("extra"),
        leader=leader,
    )


def _move(c: Ctx) -> chase.Command:
    return chase.ChangePosition(
        c.text("participant"),
        c.direction(),
        as_action=c.flag("as_action"),
        modifier=c.int("modifier", 0, lo=-20, hi=20),
    )


CHASE_COMMANDS: dict[str, Spec] = {
    "start": Spec(_chase_start, True),
    "end": Spec(_chase_end, True),
    "undo": Spec(_chase_undo, True),
    "add": Spec(_ch(_chase_add), True),
    "place": Spec(
        _ch(
            lambda c: chase.PlaceParticipant(c.text("participant"), c.int("position", lo=0, hi=53))
        ),
        True,
    ),
    "cards": Spec(
        _ch(lambda c: chase.LayCards(c.int("count", lo=1, hi=20), c.text("at", default="front"))),
        True,
    ),
    "round": Spec(_ch(lambda c: chase.StartRound()), True),
    "out": Spec(_ch(lambda c: chase.TakeOutOfAction(c.text("participant"))), True),
    "stop": Spec(_ch(lambda c: chase.StopSide(c.text("side"))), True),
    "critical": Spec(_critical, True),
    # players too, for what they control (engine.services.chases checks it)
    "turn": Spec(_chase_turn, False),
    "end_turn": Spec(_ch(lambda c: chase.EndTurn(c.text("participant"))), False),
    "move": Spec(_ch(_move), False),
    "back": Spec(
        _ch(lambda c: chase.DropBack(c.text("participant"), c.int("cards", 1, lo=1, hi=20))), False
    ),
    "bump": Spec(
        _ch(lambda c: chase.Bump(c.text("attacker"), c.text("target"), c.direction())), False
    ),
    "resolve": Spec(
        _ch(
            lambda c: chase.ResolveBump(
                c.text("pending"),
                c.direction(),
                c.int("cards", 1, lo=0, hi=2),
                c.maybe_text("chooser"),
            )
        ),
        False,
    ),
    "flee": Spec(_ch(lambda c: chase.Flee(c.text("participant"))), False),
    "declare": Spec(
        _ch(lambda c: chase.DeclareActions(c.text("participant"), c.int("count", lo=1, hi=3))),
        False,
    ),
}
