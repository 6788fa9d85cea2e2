"""SWADE encounters of a game: start, commands with role checks, undo, end.

One game has at most one active encounter: the newest open "encounter:<n>" stream
(`engine.services.aggregates`). Commands go to the pure engine (`engine.savage.decide`)
with `by` set from the actor's role: None for the GM (anything goes), the player's
Telegram id otherwise (the engine refuses GM-only commands with `gm_only`, other
people's characters with `not_your_character` and what only the GM sets, such as free
modifiers, with `gm_sets_*`: engine/savage/authority.py). Engine `RuleError`s pass through.
"""

from __future__ import annotations

from functools import partial

from engine import savage
from engine.dice.rng import Rng
from engine.services import scene_service
from engine.services.aggregates.unit import Unit
from engine.services.savage.aggregates import ENCOUNTER
from engine.services.savage.table import table_of
from engine.services.scenes import CommandOutcome, SceneView

EncounterView = SceneView[savage.Encounter]
EncounterOutcome = CommandOutcome[savage.Encounter, savage.Event]
KIND = ENCOUNTER.name


async def decide(
    turn: scene_service.Turn[savage.Encounter, savage.Command],
) -> tuple[tuple[savage.Event, ...], savage.Encounter]:
    """The engine's decision, with who may set what (engine/savage/authority.py): a player's
    game table."""
    info = turn.unit.game.info
    table = None if turn.by is None or info is None else table_of(info)
    return savage.decide_with_state(turn.state, turn.as_actor(turn.command), turn.rng, table=table)


# The GM opens a new, empty encounter (`wrong_system` unless a savage game,
# `encounter_active` if one is open); closes it (read-only, its log stays); the active one
# as stored now; a command decided on it as one step with the chase steps it causes; the
# GM's undo of the last step and the chase steps it caused — engine/services/scene_service.py.
start_encounter = partial(scene_service.start_scene, KIND)
end_encounter = partial(scene_service.end_scene, KIND)
current_encounter = partial(scene_service.current_scene, KIND)
encounter_command = partial(scene_service.scene_command, KIND)
undo_encounter = partial(scene_service.undo_scene_step, KIND)


async def record_step(
    unit: Unit, key: str, events: tuple[savage.Event, ...], rng: Rng
) -> EncounterOutcome:
    """Keep an encounter step in the unit, tell the boards, let the chase follow it."""
    return await scene_service.record_scene_step(unit, KIND, key, events, rng)
