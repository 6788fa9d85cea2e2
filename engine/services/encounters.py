"""SWADE encounters of a game: start, commands with role checks, undo, end.

One game has at most one active encounter: the newest open "encounter:<n>" stream
(`engine.services.aggregates`). Commands go to the pure engine (`engine.savage.decide`)
with `by` set from the actor's role: None for the GM (anything goes), the player's
Telegram id otherwise (the engine refuses GM-only commands with `gm_only` and other
people's characters with `not_your_character`). Engine `RuleError`s pass through.
"""

from __future__ import annotations

import dataclasses

from engine import savage
from engine.dice.rng import Rng
from engine.services import aggregates as agg
from engine.services.encounters_aggregate import ENCOUNTER
from engine.services.encounters_common import (
    CommandOutcome,
    SceneView,
    UndoOutcome,
    open_exclusive,
    require_active,
    require_gm,
    require_member,
    undo_scene,
    view_of,
)
from engine.services.notify import notify
from engine.store.models import ROLE_GM

EncounterView = SceneView[savage.Encounter]
EncounterOutcome = CommandOutcome[savage.Encounter, savage.Event]
KIND = ENCOUNTER.name


async def start_encounter(game_id: int, *, actor_id: int) -> EncounterView:
    """The GM opens a new, empty encounter (`wrong_system` unless a savage game,
    `encounter_active` if one is open)."""
    stream = await open_exclusive(ENCOUNTER, game_id, actor_id=actor_id)
    await notify(game_id, "encounter", stream=stream.key, seq=0, actor_id=actor_id)
    return SceneView(game_id, stream.key, ENCOUNTER.initial({}), 0)


async def end_encounter(game_id: int, *, actor_id: int) -> EncounterView:
    """The GM closes the active encounter: it becomes read-only (its log stays)."""
    await require_gm(game_id, actor_id)
    stream = await require_active(game_id, KIND)
    closed = await agg.close_stream(ENCOUNTER, game_id, stream.key)
    await notify(game_id, "encounter", stream=stream.key, closed=True, actor_id=actor_id)
    return await view_of(ENCOUNTER, game_id, closed or stream)


async def current_encounter(game_id: int) -> EncounterView | None:
    """The active encounter as stored now, or None."""
    stream = await agg.active_stream(game_id, KIND)
    return None if stream is None else await view_of(ENCOUNTER, game_id, stream)


def as_actor(command: savage.Command, role: str, actor_id: int) -> savage.Command:
    """The command with `by` set for the engine: None for the GM, the player's id."""
    return dataclasses.replace(command, by=None if role == ROLE_GM else actor_id)  # type: ignore[call-arg]


async def encounter_command(
    game_id: int, command: savage.Command, *, actor_id: int, rng: Rng
) -> EncounterOutcome:
    """Decide `command` on the active encounter's current state and persist its events as
    one step. Non-members get `not_member`; the engine's RuleError passes through."""
    if not isinstance(command, savage.Command):
        raise TypeError(f"not an encounter command: {command!r}")
    role = await require_member(game_id, actor_id)
    stream = await require_active(game_id, KIND)
    cmd = as_actor(command, role, actor_id)
    result = await agg.execute(
        ENCOUNTER,
        game_id,
        stream.key,
        lambda state: savage.decide(state, cmd, rng),
        actor_id=actor_id,
    )
    return await written(game_id, stream.key, result, actor_id)


async def written(
    game_id: int,
    stream: str,
    result: agg.ExecuteResult[savage.Encounter, savage.Event],
    actor_id: int,
) -> EncounterOutcome:
    """Tell the open boards about a stored encounter step (if it wrote anything)."""
    if result.events:
        await notify(
            game_id,
            "encounter",
            stream=stream,
            seq=result.seq,
            events=result.events,
            actor_id=actor_id,
        )
    return CommandOutcome(result.state, result.events, result.step_id, result.seq, stream)


async def undo_encounter(
    game_id: int, *, actor_id: int, expected_step: int | None = None
) -> UndoOutcome[savage.Encounter, savage.Event]:
    """The GM takes back the last step (pass the step the GM saw as `expected_step`:
    `event_conflict` if another step came since), and the chase steps it caused."""
    from engine.services.chase_sync import undo_followed  # it imports this module

    out = await undo_scene(ENCOUNTER, KIND, game_id, actor_id=actor_id, expected_step=expected_step)
    followed = await undo_followed(game_id, out, actor_id=actor_id)
    return dataclasses.replace(out, chase_steps_undone=followed)
