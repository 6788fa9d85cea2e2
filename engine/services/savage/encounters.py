"""SWADE encounters of a game: start, commands with role checks, undo, end.

One game has at most one active encounter: the newest open "encounter:<n>" stream
(`engine.services.aggregates`). Commands go to the pure engine (`engine.savage.decide`)
with `by` set from the actor's role: None for the GM (anything goes), the player's
Telegram id otherwise (the engine refuses GM-only commands with `gm_only`, other
people's characters with `not_your_character` and what only the GM sets, such as free
modifiers, with `gm_sets_*`: engine/savage/authority.py). Engine `RuleError`s pass through.
"""

from __future__ import annotations

import dataclasses

from engine import savage
from engine.dice.rng import Rng
from engine.services.aggregates.unit import Unit, run_unit
from engine.services.savage.aggregates import ENCOUNTER
from engine.services.savage.follow import chase_follows, undo_chase_caused
from engine.services.savage.table import table_of
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
from engine.store.models import ROLE_GM

EncounterView = SceneView[savage.Encounter]
EncounterOutcome = CommandOutcome[savage.Encounter, savage.Event]
KIND = ENCOUNTER.name


async def start_encounter(game_id: int, *, actor_id: int) -> EncounterView:
    """The GM opens a new, empty encounter (`wrong_system` unless a savage game,
    `encounter_active` if one is open)."""
    return await start_empty(ENCOUNTER, game_id, actor_id=actor_id)


async def end_encounter(game_id: int, *, actor_id: int) -> EncounterView:
    """The GM closes the active encounter: it becomes read-only (its log stays)."""
    return await close_scene(ENCOUNTER, game_id, actor_id=actor_id)


async def current_encounter(game_id: int) -> EncounterView | None:
    """The active encounter as stored now, or None (one statement, usually)."""
    return await current_view(ENCOUNTER, game_id, KIND)


def as_actor(command: savage.Command, role: str, actor_id: int) -> savage.Command:
    """The command with `by` set for the engine: None for the GM, the player's id."""
    return dataclasses.replace(command, by=None if role == ROLE_GM else actor_id)  # type: ignore[call-arg]


async def encounter_command(
    game_id: int,
    command: savage.Command,
    *,
    actor_id: int,
    rng: Rng,
    expected_seq: int | None = None,
    expected_stream: str | None = None,
) -> EncounterOutcome:
    """Decide `command` on the active encounter's current state and persist its events as
    one step, with the chase steps it causes (`followed`), in one transaction. Non-members
    get `not_member`; the engine's RuleError passes through. `expected_seq`: the encounter
    seq the user saw (a board button, the Mini App): `stale_state` if it moved since."""
    if not isinstance(command, savage.Command):
        raise TypeError(f"not an encounter command: {command!r}")

    async def work(unit: Unit) -> EncounterOutcome:
        role = member_in(unit)
        key = await active_in(unit, KIND)
        state = await unit.state(
            ENCOUNTER, key, expected_seq=expected_seq, expected_stream=expected_stream
        )
        # who may set what (engine/savage/authority.py): a player's game table
        info = unit.game.info
        table = None if role == ROLE_GM or info is None else table_of(info)
        events, after = savage.decide_with_state(
            state, as_actor(command, role, actor_id), rng, table=table
        )
        out = await record_step(unit, key, events, rng, before=state, after=after)
        return dataclasses.replace(out, before=state)

    return await run_unit(game_id, work, actor_id=actor_id)


async def record_step(
    unit: Unit,
    key: str,
    events: tuple[savage.Event, ...],
    rng: Rng,
    *,
    before: savage.Encounter | None = None,
    after: savage.Encounter | None = None,
) -> EncounterOutcome:
    """Keep an encounter step in the unit, tell the boards, let the chase follow it;
    `after`: the state after `events` when the caller has it (else they are folded)."""
    step = unit.record(ENCOUNTER, key, events, state=after)
    state = await unit.state(ENCOUNTER, key)
    board = unit.board(key)
    if not events:
        return CommandOutcome(state, (), None, unit.seq(key), key, (), board)
    unit.note(
        "encounter", ENCOUNTER, stream=key, seq=unit.seq(key), events=events, actor_id=unit.actor_id
    )
    followed = await chase_follows(unit, key, step, events, state, rng, before)
    caused = () if followed is None else (followed,)
    open_kinds = frozenset(k.split(":", 1)[0] for k, _ in unit.game.open_streams)
    return CommandOutcome(
        state, events, step, unit.seq(key), key, caused, board, open_kinds=open_kinds
    )


async def undo_encounter(
    game_id: int,
    *,
    actor_id: int,
    expected_step: int | None = None,
    expected_seq: int | None = None,
    expected_stream: str | None = None,
) -> UndoOutcome[savage.Encounter, savage.Event]:
    """The GM takes back the last step (`expected_step`: the step the GM saw as last,
    `event_conflict` if another came since; `expected_seq`: the board's seq,
    `stale_state`) and the chase steps it caused, in one transaction."""
    return await undo_scene(
        ENCOUNTER,
        KIND,
        game_id,
        actor_id=actor_id,
        expected_step=expected_step,
        expected_seq=expected_seq,
        expected_stream=expected_stream,
        follow=undo_chase_caused,
    )
