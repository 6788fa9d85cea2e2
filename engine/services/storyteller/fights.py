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

import time
from collections.abc import Mapping
from functools import partial
from typing import Any

from engine.dice.rng import Rng, system_rng
from engine.services import scene_service
from engine.services.aggregates.unit import Unit
from engine.services.games import get_game
from engine.services.scenes import CommandOutcome, SceneView
from engine.services.storyteller.aggregates import FIGHT
from engine.services.storyteller.options import changed_fields, load_options
from engine.store.models import Stream
from engine.storyteller import commands as cmd
from engine.storyteller import events as ev
from engine.storyteller.decide import decide as decide_command
from engine.storyteller.decide import default_defense, overdue
from engine.storyteller.fight import Fight

FightView = SceneView[Fight]
FightOutcome = CommandOutcome[Fight, ev.Event]
KIND = FIGHT.name


async def start_params(game_id: int) -> Mapping[str, Any]:
    """A new fight's stream params: a copy of the game's options (replays and undo never see
    a later change of the game's)."""
    return {"options": changed_fields(await load_options(game_id))}


def reviewed(state: Fight, command: cmd.Command, now: float | None = None) -> cmd.Command:
    """An attack as the GM's proposal when the fight's options want a review (``now`` starts
    the defender's time to choose)."""
    if isinstance(command, cmd.Attack) and state.options.gm_review:
        return cmd.Propose(command, now=time.time() if now is None else now, by=command.by)
    return command


async def decide(turn: scene_service.Turn[Fight, cmd.Command]) -> tuple[tuple[ev.Event, ...], None]:
    """The engine's decision, an attack made the GM's proposal when the fight wants it."""
    command = reviewed(turn.state, turn.as_actor(turn.command))
    return decide_command(turn.state, command, turn.rng), None


# The GM opens a new, empty fight (`wrong_system` unless a storyteller game,
# `st_fight_active` if one is open, with a copy of the game's options: `start_params`),
# closes it (read-only, its log stays); the open one as stored now; a command decided on it
# as one step; the GM's undo of the last step (a published attack goes back to its
# proposal) — engine/services/scene_service.py.
start_fight = partial(scene_service.start_scene, KIND)
end_fight = partial(scene_service.end_scene, KIND)
current_fight = partial(scene_service.current_scene, KIND)
fight_command = partial(scene_service.scene_command, KIND)
undo_fight = partial(scene_service.undo_scene_step, KIND)


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
    for game_id in sorted({row.game_id for row in rows}):
        view = await current_fight(game_id)
        if view is not None and overdue(view.state, now):
            found.append(game_id)
    return found


async def record_step(unit: Unit, key: str, events: tuple[ev.Event, ...], rng: Rng) -> FightOutcome:
    """Keep a fight step in the unit and tell the boards (the projections keep a proposal
    the GM's)."""
    return await scene_service.record_scene_step(unit, KIND, key, events, rng)
