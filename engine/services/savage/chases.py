"""SWADE chases of a game: start, commands with role checks, turns from the encounter's
action cards, undo, end.

One game has at most one active chase ("chase:<n>"), beside its encounter. The chase
engine checks only the rules; who may send what is decided here:

* the GM sends anything;
* a player sends the turn and movement commands (`DeclareActions`, `EndTurn`,
  `ChangePosition`, `DropBack`, `Flee`, `Bump` as the attacker, `ResolveBump` as the
  chooser) for participants they control; everything else is `not_gm`. A player opens
  a turn only through `start_chase_turn`, which takes the card from the encounter (a
  `StartTurn` with a card of one's choosing would dodge Clubs Complications).

**Control.** A chase participant is linked to a character by its id: the id of a
combatant or a character in the active encounter (its owners control it), otherwise the
name of a saved character in the library (its owner). Unlinked participants are NPCs:
the GM's.

**Health.** A participant linked to a fight character (its id is the character's, or its
single-character combatant's) carries that character's Wounds and Fatigue (`SetHealth`,
GM-only): taken when it is added (same step) and kept in line after every encounter step
by engine/services/chase_sync.py (docs/rules/chase.md «Wounds and Fatigue»).

**Turn order.** Action cards belong to the encounter (docs/rules/chase.md: «the action
deck and the order of turns are the combat engine's»). `start_chase_turn` reads the
encounter's acting combatant and its card and sends `StartTurn(participant, card)` for
each chase participant linked to it (a group of Extras: every member in the chase).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import partial

from tortoise.backends.base.client import BaseDBAsyncClient

from engine import savage
from engine.dice.rng import Rng
from engine.savage import chase
from engine.savage.chase import follow
from engine.savage.chase.commands import ROW_SIZE
from engine.services import aggregates as agg
from engine.services import scene_service
from engine.services.aggregates.unit import Unit, run_unit
from engine.services.errors import NotGm, NotYourCharacter
from engine.services.library import name_key
from engine.services.savage.aggregates import CHASE, ENCOUNTER
from engine.services.savage.errors import NobodyActing, NotInChase
from engine.services.scenes import (
    CommandOutcome,
    SceneView,
    active_in,
    active_of,
    member_in,
)
from engine.store.models import ROLE_GM, SavedCharacter
from engine.store.queries import first_value

ChaseView = SceneView[chase.ChaseState]
ChaseOutcome = CommandOutcome[chase.ChaseState, chase.Event]
KIND = CHASE.name

# Player commands and the field naming the participant the player must control.
_PLAYER_FIELDS: dict[type, str] = {
    chase.DeclareActions: "participant",
    chase.EndTurn: "participant",
    chase.ChangePosition: "participant",
    chase.DropBack: "participant",
    chase.Flee: "participant",
    chase.Bump: "attacker",
    chase.ResolveBump: "chooser",  # None = the GM
}


_COMMANDS: tuple[type, ...] = tuple(chase.Command.__args__)
STEPS: tuple[type, ...] = (tuple, *_COMMANDS)  # what a chase step is sent: one, or several


async def start_chase(
    game_id: int,
    *,
    actor_id: int,
    rng: Rng,
    cards: int = ROW_SIZE,
    options: chase.ChaseOptions | None = None,
) -> ChaseOutcome:
    """The GM opens a chase and lays its row (`chase_active` if one is open): its first
    step, in one transaction with the new stream and its outbox row (the scene service's
    `open_scene`). A bad row size or option is refused (ChaseError) before anything is read."""
    command = chase.StartChase(options or chase.ChaseOptions(), cards)
    chase.check_start(command)
    return await scene_service.open_scene(KIND, game_id, command, actor_id=actor_id, rng=rng)


# The GM closes the active chase (read-only afterwards; to record why it ended, send
# `EndChase`/`StopSide` first); the active one as stored now; the GM's undo of its last step
# and the fight steps it caused — engine/services/scene_service.py.
end_chase = partial(scene_service.end_scene, KIND)
current_chase = partial(scene_service.current_scene, KIND)
undo_chase = partial(scene_service.undo_scene_step, KIND)
# a command decided on the active chase as one step (`chase_commands`)
chase_command = partial(scene_service.scene_command, KIND)


# --- who controls a participant ------------------------------------------------------------


def _encounter_owners(encounter: savage.Encounter, pid: str) -> set[int] | None:
    """Owners of the combatant or character with this id; None if there is none."""
    for c in encounter.combatants:
        if c.id == pid:
            return {m.owner for m in c.members if m.owner is not None}
        for m in c.members:
            if m.id == pid:
                return {m.owner} if m.owner is not None else set()
    return None


async def _library_owner(game_id: int, pid: str, conn: BaseDBAsyncClient | None = None) -> set[int]:
    query = SavedCharacter.filter(game_id=game_id, key=name_key(pid))
    if conn is not None:
        query = query.using_db(conn)
    owner: int | None = await first_value(query, "owner_id")
    return {owner} if owner is not None else set()


async def controllers(game_id: int, pid: str) -> set[int]:
    """Telegram ids of the players controlling a chase participant (empty: an NPC)."""
    stream = await active_of(game_id, "encounter")
    if stream is not None:
        encounter, _ = await agg.load(ENCOUNTER, game_id, stream.key)
        owners = _encounter_owners(encounter, pid)
        if owners is not None:
            return owners
    return await _library_owner(game_id, pid)


async def _fight_of(unit: Unit) -> tuple[str, savage.Encounter] | None:
    key = await unit.active_key(ENCOUNTER.name)
    return None if key is None else (key, await unit.state(ENCOUNTER, key))


def _several(commands: chase.Command | tuple[chase.Command, ...]) -> tuple[chase.Command, ...]:
    """A chase step's commands: one, or several (`chase_commands`)."""
    found = commands if isinstance(commands, tuple) else (commands,)
    for command in found:
        if not isinstance(command, _COMMANDS):
            raise TypeError(f"not a chase command: {command!r}")
    return found


async def check(unit: Unit, commands: chase.Command | tuple[chase.Command, ...]) -> None:
    """A player's commands: the turn and movement commands of what they control."""
    for command in _several(commands):
        await _check_player(unit, command)


async def _check_player(unit: Unit, command: chase.Command) -> None:
    field = _PLAYER_FIELDS.get(type(command))
    if field is None:
        raise NotGm(game_id=unit.game.id, user_id=unit.actor_id)
    pid = getattr(command, field)
    if pid is None:
        raise NotYourCharacter(id=pid)
    fight = await _fight_of(unit)
    owners = None if fight is None else _encounter_owners(fight[1], pid)
    if owners is None:
        owners = await _library_owner(unit.game.id, pid, unit.conn)
    if unit.actor_id not in owners:
        raise NotYourCharacter(id=pid)
    # who may set what (docs/rules/savage.md): a free modifier is the GM's, as in the fight;
    # seed 001 line 17: no universal bonus for a way of moving or the terrain
    if getattr(command, "modifier", 0):
        raise chase.ChaseError("gm_sets_modifier")


async def chase_commands(
    game_id: int,
    commands: Sequence[chase.Command],
    *,
    actor_id: int,
    rng: Rng,
    expected_seq: int | None = None,
    expected_stream: str | None = None,
) -> ChaseOutcome:
    """Decide `commands` on the active chase and persist their events as one step (each
    decided on the state the previous ones left; one refusal refuses them all). Players
    move only what they control (`not_your_character`) and send no GM commands
    (`not_gm`); non-members get `not_member`; the engine's ChaseError passes through.
    `expected_seq`: the chase seq the user saw (`stale_state` if it moved since).

    A participant added with the id of a fight character takes that character's Wounds
    and Fatigue in the same step (`SetHealth`; docs/rules/chase.md «Wounds and Fatigue»).
    A critical failure resolved with Fatigue gives the fight character that level, and the
    chase follows that fight step — all in the same transaction (`followed`)."""
    return await scene_service.scene_command(
        KIND,
        game_id,
        _several(tuple(commands)),
        actor_id=actor_id,
        rng=rng,
        expected_seq=expected_seq,
        expected_stream=expected_stream,
    )


async def decide(
    turn: scene_service.Turn[chase.ChaseState, chase.Command | tuple[chase.Command, ...]],
) -> tuple[tuple[chase.Event, ...], chase.ChaseState]:
    """The commands decided in turn, each on the state the previous ones left; a participant
    linked to a fight character takes its health, and a chase started in the middle of a
    fight round catches up with it."""
    unit, state, commands, rng = turn.unit, turn.state, _several(turn.command), turn.rng
    added = [c.participant for c in commands if isinstance(c, chase.AddParticipant)]
    fight = await _fight_of(unit) if added else None
    health = _fight_health(fight[1], added) if fight is not None else {}
    events: list[chase.Event] = []
    for command in commands:
        steps = [command]
        if isinstance(command, chase.AddParticipant) and command.participant in health:
            steps.append(health[command.participant])
        new, state = follow.run_commands(state, steps, rng)
        events.extend(new)
    if fight is not None:  # a chase started in the middle of a round plays at once
        new, state = _catch_up(state, fight[1], added, rng)
        events.extend(new)
    return tuple(events), state


def _catch_up(
    state: chase.ChaseState, fight: savage.Encounter, added: list[str], rng: Rng
) -> tuple[tuple[chase.Event, ...], chase.ChaseState]:
    """The chase round and the acting combatant's turn (docs/rules/chase.md «a chase that
    starts in the middle of a fight round»), with what it did in the fight already."""
    try:
        opened, after = follow.run_commands(state, follow.catch_up(state, fight, added), rng)
        counted, after = follow.run_commands(
            after, follow.fight_actions_commands(after, fight), rng
        )
    except chase.ChaseError:  # nothing to catch up with: the GM opens turns by hand
        return (), state
    return (*opened, *counted), after


# --- the fight character's health ------------------------------------------------------------


def _fight_health(encounter: savage.Encounter, pids: Iterable[str]) -> dict[str, chase.SetHealth]:
    """`SetHealth` for each participant id linked to a fight character that is not whole."""
    out = {}
    for pid in pids:
        character = follow.fight_character(encounter, pid)
        health = follow.health_of(pid, character) if character is not None else None
        if health is not None and (health.wounds, health.fatigue) != (0, 0):
            out[pid] = health
    return out


# --- turns from the encounter's action cards ---------------------------------------------


async def start_chase_turn(
    game_id: int,
    *,
    actor_id: int,
    rng: Rng,
    participant: str | None = None,
    expected_seq: int | None = None,
    expected_stream: str | None = None,
) -> ChaseOutcome:
    """Open the chase turn of the encounter's acting combatant on its action card (a
    Clubs card rolls the Complication; no card, when it acts from a Hold kept since an
    earlier round: no Complication). `participant` picks one of its linked
    participants; by default all of them take their turn. The GM or the combatant's
    owner may call it. `nobody_acting`, `not_in_chase` otherwise."""

    async def work(unit: Unit) -> ChaseOutcome:
        role = member_in(unit)
        fight_key = await active_in(unit, ENCOUNTER.name)
        key = await active_in(unit, KIND)
        encounter = await unit.state(ENCOUNTER, fight_key)
        acting = encounter.acting
        if acting is None:
            raise NobodyActing(game_id=game_id)
        if role != ROLE_GM and actor_id not in encounter.owners(acting.id):
            raise NotYourCharacter(id=acting.id)
        state = await unit.state(
            CHASE, key, expected_seq=expected_seq, expected_stream=expected_stream
        )
        opened = follow.start_turns(state, acting, rng, participant)
        if opened is None:
            raise NotInChase(combatant=acting.id, participant=participant)
        events, after = opened
        return await scene_service.record_scene_step(unit, KIND, key, events, rng, after=after)

    return await run_unit(game_id, work, actor_id=actor_id)
