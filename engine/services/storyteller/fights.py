"""Storyteller fights of a game: start, commands as units of work, the GM's review of an
attack, undo, end.

One game has at most one open fight: the newest open "st_fight:<n>" stream. Commands go to
the pure engine (`engine.storyteller.decide`) with `by` set from the actor's role: None for
the GM, the player's Telegram id otherwise (the engine refuses set-up with `gm_only` and
other people's fighters with `not_your_character`). With `options.gm_review` (the default,
DESIGN.md decision 5) an `Attack` becomes a `Propose`: rolled, kept for the GM, published
by `Publish` as exactly that roll. The engine's `StorytellerError` passes through.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

from engine.dice.rng import Rng, system_rng
from engine.services.aggregates.unit import Unit, run_unit
from engine.services.games import get_game
from engine.services.scenes import (
    CommandOutcome,
    SceneView,
    UndoOutcome,
    active_in,
    close_scene,
    current_view,
    member_in,
    start_empty,
    undo_scene,
)
from engine.services.storyteller.aggregates import FIGHT
from engine.services.storyteller.options import changed_fields, load_options
from engine.store.models import ROLE_GM, Stream
from engine.storyteller import commands as cmd
from engine.storyteller import events as ev
from engine.storyteller.decide import decide, default_defense, overdue
from engine.storyteller.fight import Fight

FightView = SceneView[Fight]
FightOutcome = CommandOutcome[Fight, ev.Event]
KIND = FIGHT.name


async def start_fight(game_id: int, *, actor_id: int) -> FightView:
    """The GM opens a new, empty fight (`wrong_system` unless a storyteller game,
    `st_fight_active` if one is open) with a copy of the game's options (its stream's
    params: replays and undo never see a later change of the game's)."""
    options = changed_fields(await load_options(game_id))
    return await start_empty(FIGHT, game_id, actor_id=actor_id, params={"options": options})


async def end_fight(game_id: int, *, actor_id: int) -> FightView:
    """The GM closes the open fight: it becomes read-only (its log stays)."""
    return await close_scene(FIGHT, game_id, actor_id=actor_id)


async def current_fight(game_id: int) -> FightView | None:
    """The open fight as stored now, or None."""
    return await current_view(FIGHT, game_id, KIND)


def as_actor(command: cmd.Command, role: str, actor_id: int) -> cmd.Command:
    """The command with `by` set for the engine: None for the GM, the player's id."""
    return dataclasses.replace(command, by=None if role == ROLE_GM else actor_id)  # type: ignore[call-arg]


def reviewed(state: Fight, command: cmd.Command, now: float | None = None) -> cmd.Command:
    """An attack as the GM's proposal when the fight's options want a review (``now`` starts
    the defender's time to choose)."""
    if isinstance(command, cmd.Attack) and state.options.gm_review:
        return cmd.Propose(command, now=time.time() if now is None else now, by=command.by)
    return command


async def fight_command(
    game_id: int,
    command: cmd.Command,
    *,
    actor_id: int,
    rng: Rng,
    expected_seq: int | None = None,
    expected_stream: str | None = None,
) -> FightOutcome:
    """Decide `command` on the open fight and persist its events as one step. Non-members
    get `not_member`; `expected_seq`: the fight seq the user saw (`stale_state` if it moved
    since)."""
    if not isinstance(command, cmd.Command):
        raise TypeError(f"not a Storyteller fight command: {command!r}")

    async def work(unit: Unit) -> FightOutcome:
        role = member_in(unit)
        key = await active_in(unit, KIND)
        state = await unit.state(
            FIGHT, key, expected_seq=expected_seq, expected_stream=expected_stream
        )
        command_ = reviewed(state, as_actor(command, role, actor_id))
        out = await record_step(unit, key, decide(state, command_, rng))
        return dataclasses.replace(out, before=state)

    return await run_unit(game_id, work, actor_id=actor_id)


async def pass_defense_time(game_id: int, *, now: float | None = None) -> FightOutcome | None:
    """The pending attack's time for its defender ran out: the game's default defense is
    made on the GM's behalf, once (None: nothing is overdue, or the game has no GM)."""
    now = time.time() if now is None else now
    gm = (await get_game(game_id)).gm_id
    view = await current_fight(game_id)
    if gm is None or view is None or not overdue(view.state, now):
        return None
    choice = default_defense(view.state)
    return await fight_command(
        game_id, choice.command(), actor_id=gm, rng=system_rng(), expected_seq=view.seq
    )


async def overdue_fights(now: float | None = None) -> list[int]:
    """The games whose open fight's attack waits for a defender past its time."""
    now = time.time() if now is None else now
    found = []
    rows = await Stream.filter(key__startswith=f"{KIND}:", closed_at__isnull=True)
    for game_id in sorted({row.game_id for row in rows}):  # type: ignore[attr-defined]
        view = await current_fight(game_id)
        if view is not None and overdue(view.state, now):
            found.append(game_id)
    return found


async def record_step(unit: Unit, key: str, events: tuple[ev.Event, ...]) -> FightOutcome:
    """Keep a fight step in the unit and tell the boards (the projections keep a proposal
    the GM's)."""
    step = unit.record(FIGHT, key, events)
    state = await unit.state(FIGHT, key)
    board = unit.board(key)
    if not events:
        return CommandOutcome(state, (), None, unit.seq(key), key, (), board)
    info: dict[str, Any] = {"stream": key, "seq": unit.seq(key), "events": events}
    unit.note(KIND, FIGHT, actor_id=unit.actor_id, **info)
    return CommandOutcome(state, events, step, unit.seq(key), key, (), board)


async def undo_fight(
    game_id: int,
    *,
    actor_id: int,
    expected_step: int | None = None,
    expected_seq: int | None = None,
    expected_stream: str | None = None,
) -> UndoOutcome[Fight, ev.Event]:
    """The GM takes back the last step (a published attack goes back to its proposal)."""
    return await undo_scene(
        FIGHT,
        KIND,
        game_id,
        actor_id=actor_id,
        expected_step=expected_step,
        expected_seq=expected_seq,
        expected_stream=expected_stream,
    )
