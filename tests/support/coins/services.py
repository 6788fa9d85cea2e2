"""The example system as a rule system of the services: its contest as an event-sourced
stream and a scene kind the one scene service serves (start, end, current, command, undo:
engine/services/scene_service.py), its roll command, and the `RuleSystem` that
engine/services/installed.py's line would register."""

from __future__ import annotations

import dataclasses
from functools import partial

from engine.services import scene_service
from engine.services.aggregates.model import Aggregate
from engine.services.systems import RuleSystem, SceneKind

from . import contest
from .engine import COIN

CONTEST: Aggregate[contest.Contest, contest.Event] = Aggregate(
    name=contest.KIND,
    initial=lambda params: contest.Contest(),
    evolve=contest.evolve,
    event_to_dict=contest.EVENTS.to_data,
    event_from_dict=contest.EVENTS.from_data,
    state_to_dict=contest.STATE.to_data,
    state_from_dict=contest.STATE.from_data,
)


async def decide(
    turn: scene_service.Turn[contest.Contest, contest.TossCoin],
) -> tuple[tuple[contest.Event, ...], None]:
    """The sender tosses, the GM as anyone else."""
    command = dataclasses.replace(turn.command, by=turn.actor_id)
    return contest.decide(turn.state, command, turn.rng), None


# no refusal of its own: a command with no contest open is the shared `no_scene`
CONTEST_KIND = SceneKind(CONTEST, decide=decide, commands=contest.TossCoin)
COINS = RuleSystem("coins", "Coins", (CONTEST_KIND,), rolls=(COIN,))

start_contest = partial(scene_service.start_scene, contest.KIND)
end_contest = partial(scene_service.end_scene, contest.KIND)
current_contest = partial(scene_service.current_scene, contest.KIND)
toss = partial(scene_service.scene_command, contest.KIND)
undo_toss = partial(scene_service.undo_scene_step, contest.KIND)
