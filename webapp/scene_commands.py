"""The Mini App's encounter and chase commands: JSON ``{"command": name, ...args}`` -> the same
engine.services calls the chat commands make. Each entry says whether it is the GM's alone
(refused with 403 ``forbidden`` before anything is read); everything else is checked by the
services and engines exactly as for the chat (a player's own characters only, the rules)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from engine import savage
from engine.dice.rng import Rng
from engine.savage import chase
from engine.savage.chase.commands import ROW_SIZE
from engine.services import (
    add_to_encounter,
    chase_command,
    current_chase,
    encounter_command,
    end_chase,
    end_encounter,
    start_chase,
    start_chase_turn,
    start_encounter,
    undo_chase,
    undo_encounter,
)
from webapp.errors import ApiError

ID_MAX = 64
NAME_MAX = 255


@dataclass(frozen=True, slots=True)
class Ctx:
    game_id: int
    actor_id: int
    rng: Rng
    body: dict[str, Any]

    def text(self, key: str, *, limit: int = ID_MAX, default: str | None = None) -> str:
        value = self.body.get(key, default)
        if not isinstance(value, str) or not value.strip() or len(value) > limit:
            raise ApiError("bad_request", field=key)
        return value.strip()

    def maybe_text(self, key: str) -> str | None:
        return self.text(key) if self.body.get(key) not in (None, "") else None

    def int(self, key: str, default: int | None = None, *, lo: int = -99, hi: int = 99) -> int:
        value = self.body.get(key, default)
        if type(value) is not int or not lo <= value <= hi:
            raise ApiError("bad_request", field=key)
        return value

    def maybe_int(self, key: str, *, lo: int = -99, hi: int = 99) -> int | None:
        return None if self.body.get(key) is None else self.int(key, lo=lo, hi=hi)

    def flag(self, key: str) -> bool:
        value = self.body.get(key, False)
        if not isinstance(value, bool):
            raise ApiError("bad_request", field=key)
        return value

    def direction(self, key: str = "direction") -> int:
        value = self.body.get(key)
        if value in ("forward", 1):
            return 1
        if value in ("back", -1):
            return -1
        raise ApiError("bad_request", field=key)


Events = tuple[Any, ...]
Run = Callable[[Ctx], Awaitable[Events]]


@dataclass(frozen=True, slots=True)
class Spec:
    run: Run
    gm_only: bool


# --- encounter ------------------------------------------------------------------------------


def _enc(build: Callable[[Ctx], savage.Command]) -> Run:
    async def run(ctx: Ctx) -> Events:
        out = await encounter_command(ctx.game_id, build(ctx), actor_id=ctx.actor_id, rng=ctx.rng)
        return out.events

    return run


async def _start(ctx: Ctx) -> Events:
    await start_encounter(ctx.game_id, actor_id=ctx.actor_id)
    return ()


async def _end(ctx: Ctx) -> Events:
    await end_encounter(ctx.game_id, actor_id=ctx.actor_id)
    return ()


async def _undo(ctx: Ctx) -> Events:
    await undo_encounter(ctx.game_id, actor_id=ctx.actor_id)
    return ()


async def _add(ctx: Ctx) -> Events:
    name = ctx.text("name", limit=NAME_MAX)
    count = ctx.maybe_int("count", lo=1, hi=30)
    out = await add_to_encounter(ctx.game_id, name, actor_id=ctx.actor_id, count=count, rng=ctx.rng)
    return out.events


def _condition(ctx: Ctx) -> savage.Command:
    target, kind = ctx.text("target"), ctx.text("kind")
    if ctx.flag("clear"):
        return savage.ClearCondition(target, kind)
    duration = ctx.text("duration", default="manual")
    return savage.SetCondition(target, kind, duration)


def _damage(ctx: Ctx) -> savage.Command:
    amount = ctx.maybe_int("amount", lo=0, hi=200)
    dice = ctx.body.get("dice", "")
    if not isinstance(dice, str) or len(dice) > 40 or (amount is None and not dice.strip()):
        raise ApiError("bad_request", field="dice")
    return savage.ApplyDamage(
        ctx.text("target"), amount, dice.strip(), ctx.int("ap", 0, lo=0, hi=50)
    )


ENCOUNTER_COMMANDS: dict[str, Spec] = {
    "start": Spec(_start, True),
    "end": Spec(_end, True),
    "undo": Spec(_undo, True),
    "add": Spec(_add, True),
    "deal": Spec(_enc(lambda c: savage.DealRound()), True),
    "remove": Spec(_enc(lambda c: savage.RemoveCombatant(c.text("id"))), True),
    "damage": Spec(_enc(_damage), True),
    "condition": Spec(_enc(_condition), True),
    "fatigue": Spec(_enc(lambda c: savage.ChangeFatigue(c.text("target"), c.int("delta"))), True),
    "benny": Spec(
        _enc(lambda c: savage.GiveBennies(c.text("actor"), c.int("count", 1, lo=1, hi=10))), True
    ),
    # players too (the engine checks the turn and the owner)
    "next": Spec(_enc(lambda c: savage.NextTurn()), False),
    "hold": Spec(_enc(lambda c: savage.Hold(c.text("actor"))), False),
    "act": Spec(_enc(lambda c: savage.ActNow(c.text("actor"))), False),
    "interrupt": Spec(_enc(lambda c: savage.Interrupt(c.text("actor"))), False),
    "soak": Spec(_enc(lambda c: savage.Soak(c.text("actor"))), False),
    "take": Spec(_enc(lambda c: savage.AcceptDamage(c.text("actor"))), False),
    "unshake": Spec(_enc(lambda c: savage.Unshake(c.text("actor"))), False),
    "new_card": Spec(_enc(lambda c: savage.DrawNewCard(c.text("actor"))), False),
    "declare": Spec(
        _enc(lambda c: savage.DeclareActions(c.text("actor"), c.int("count", lo=1, hi=3))), False
    ),
}


# --- chase ----------------------------------------------------------------------------------


def _ch(build: Callable[[Ctx], Any]) -> Run:
    async def run(ctx: Ctx) -> Events:
        out = await chase_command(ctx.game_id, build(ctx), actor_id=ctx.actor_id, rng=ctx.rng)
        return out.events

    return run


async def _chase_start(ctx: Ctx) -> Events:
    cards = ctx.int("cards", ROW_SIZE, lo=1, hi=54)
    out = await start_chase(ctx.game_id, actor_id=ctx.actor_id, rng=ctx.rng, cards=cards)
    return out.events


async def _chase_end(ctx: Ctx) -> Events:
    """As the chat's «/chase end»: record the end (goal reached) if it is still running,
    then close the chase."""
    view = await current_chase(ctx.game_id)
    if view is not None and view.state.ended is None and view.state.started:
        await chase_command(ctx.game_id, chase.EndChase(), actor_id=ctx.actor_id, rng=ctx.rng)
    await end_chase(ctx.game_id, actor_id=ctx.actor_id)
    return ()


async def _chase_undo(ctx: Ctx) -> Events:
    await undo_chase(ctx.game_id, actor_id=ctx.actor_id)
    return ()


async def _chase_turn(ctx: Ctx) -> Events:
    out = await start_chase_turn(
        ctx.game_id, actor_id=ctx.actor_id, rng=ctx.rng, participant=ctx.maybe_text("participant")
    )
    return out.events


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
    "critical": Spec(
        _ch(lambda c: chase.ResolveCriticalFailure(c.text("pending"), c.text("choice"))), True
    ),
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
