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

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine import savage
from engine.dice.rng import Rng
from engine.savage import chase
from engine.savage.chase.commands import ROW_SIZE
from engine.savage.chase.rules import FATIGUE_OUT, MAX_WOUNDS
from engine.services import aggregates as agg
from engine.services.characters import name_key
from engine.services.chases_aggregate import CHASE
from engine.services.encounters_aggregate import ENCOUNTER
from engine.services.encounters_common import (
    CommandOutcome,
    SceneView,
    UndoOutcome,
    active_of,
    open_exclusive,
    require_active,
    require_gm,
    require_member,
    undo_scene,
    view_of,
)
from engine.services.errors import (
    NobodyActing,
    NotGm,
    NotInChase,
    NotYourCharacter,
)
from engine.services.notify import notify
from engine.store.models import ROLE_GM, SavedCharacter

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


_COMMANDS: tuple[type, ...] = tuple(chase.Command.__args__)  # type: ignore[attr-defined]


def _outcome(result: agg.ExecuteResult[chase.ChaseState, chase.Event], key: str) -> ChaseOutcome:
    return CommandOutcome(result.state, result.events, result.step_id, result.seq, key)


async def _notify(game_id: int, outcome: ChaseOutcome, actor_id: int) -> ChaseOutcome:
    if outcome.events:
        await notify(
            game_id,
            "chase",
            stream=outcome.stream,
            seq=outcome.seq,
            events=outcome.events,
            actor_id=actor_id,
        )
    return outcome


async def start_chase(
    game_id: int,
    *,
    actor_id: int,
    rng: Rng,
    cards: int = ROW_SIZE,
    options: chase.ChaseOptions | None = None,
) -> ChaseOutcome:
    """The GM opens a chase and lays its row (`chase_active` if one is open). A bad row
    size or option is refused (ChaseError) before anything is stored."""
    command = chase.StartChase(options or chase.ChaseOptions(), cards)
    events = chase.decide(chase.ChaseState(), command, rng)  # checks; draws the row once
    stream = await open_exclusive(CHASE, game_id, actor_id=actor_id)

    def decide(state: chase.ChaseState) -> tuple[chase.Event, ...]:
        if state.started:  # only a fresh stream can be here
            raise chase.ChaseError("already_started")
        return events

    result = await agg.execute(CHASE, game_id, stream.key, decide, actor_id=actor_id)
    return await _notify(game_id, _outcome(result, stream.key), actor_id)


async def end_chase(game_id: int, *, actor_id: int) -> ChaseView:
    """The GM closes the active chase (read-only afterwards). To record why it ended,
    send `EndChase`/`StopSide` first."""
    await require_gm(game_id, actor_id)
    stream = await require_active(game_id, KIND)
    closed = await agg.close_stream(CHASE, game_id, stream.key)
    await notify(game_id, "chase", stream=stream.key, closed=True, actor_id=actor_id)
    return await view_of(CHASE, game_id, closed or stream)


async def current_chase(game_id: int) -> ChaseView | None:
    stream = await agg.active_stream(game_id, KIND)
    return None if stream is None else await view_of(CHASE, game_id, stream)


async def undo_chase(
    game_id: int, *, actor_id: int, expected_step: int | None = None
) -> UndoOutcome[chase.ChaseState, chase.Event]:
    return await undo_scene(CHASE, KIND, game_id, actor_id=actor_id, expected_step=expected_step)


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


async def controllers(game_id: int, pid: str) -> set[int]:
    """Telegram ids of the players controlling a chase participant (empty: an NPC)."""
    stream = await active_of(game_id, "encounter")
    if stream is not None:
        encounter, _ = await agg.load(ENCOUNTER, game_id, stream.key)
        owners = _encounter_owners(encounter, pid)
        if owners is not None:
            return owners
    owner = (
        await SavedCharacter.filter(game_id=game_id, key=name_key(pid))
        .first()
        .values_list("owner_id", flat=True)
    )
    return {owner} if owner is not None else set()


async def _check_player(game_id: int, command: chase.Command, actor_id: int) -> None:
    field = _PLAYER_FIELDS.get(type(command))
    if field is None:
        raise NotGm(game_id=game_id, user_id=actor_id)
    pid = getattr(command, field)
    if pid is None or actor_id not in await controllers(game_id, pid):
        raise NotYourCharacter(id=pid)


async def chase_command(
    game_id: int,
    command: chase.Command,
    *,
    actor_id: int,
    rng: Rng,
    cause: Mapping[str, Any] | None = None,
) -> ChaseOutcome:
    """Decide `command` on the active chase and persist its events as one step. Players
    move only what they control (`not_your_character`) and send no GM commands
    (`not_gm`); non-members get `not_member`; the engine's ChaseError passes through.
    `cause`: the encounter step this one follows (chase_sync), undone with it.

    A participant added with the id of a fight character takes that character's Wounds
    and Fatigue in the same step (`SetHealth`; docs/rules/chase.md «Wounds and Fatigue»)."""
    return await chase_commands(game_id, (command,), actor_id=actor_id, rng=rng, cause=cause)


async def chase_commands(
    game_id: int,
    commands: Sequence[chase.Command],
    *,
    actor_id: int,
    rng: Rng,
    cause: Mapping[str, Any] | None = None,
) -> ChaseOutcome:
    """`chase_command` for several commands stored as one step (each decided on the state
    the previous ones left; one refusal refuses them all)."""
    for command in commands:
        if not isinstance(command, _COMMANDS):
            raise TypeError(f"not a chase command: {command!r}")
    role = await require_member(game_id, actor_id)
    stream = await require_active(game_id, KIND)
    if role != ROLE_GM:
        for command in commands:
            await _check_player(game_id, command, actor_id)
    added = [c.participant for c in commands if isinstance(c, chase.AddParticipant)]
    health = await _fight_health(game_id, added) if added else {}

    def decide(state: chase.ChaseState) -> tuple[chase.Event, ...]:
        events: list[chase.Event] = []
        for command in commands:
            new = chase.decide(state, command, rng)
            state = CHASE.fold(state, new)
            events.extend(new)
            if isinstance(command, chase.AddParticipant) and command.participant in health:
                new = chase.decide(state, health[command.participant], rng)
                state = CHASE.fold(state, new)
                events.extend(new)
        return tuple(events)

    result = await agg.execute(CHASE, game_id, stream.key, decide, actor_id=actor_id, cause=cause)
    return await _notify(game_id, _outcome(result, stream.key), actor_id)


# --- the fight character's health ------------------------------------------------------------


def fight_character(encounter: savage.Encounter, pid: str) -> savage.Character | None:
    """The fight character a chase participant stands for: the character with its id, or
    the one character of a combatant with its id (a group's id stands for nobody)."""
    try:
        return encounter.find(pid)[1]
    except savage.RuleError:
        return None


def health_of(pid: str, character: savage.Character) -> chase.SetHealth:
    """The character's Wounds and Fatigue for participant `pid` (seed 000 lines 73, 79;
    Nerves of Steel ignores one Wound's penalty, Improved two — as
    `Character.wound_penalty`)."""
    ignored = 2 if character.has_edge("improved_nerves_of_steel") else 0
    ignored = ignored or (1 if character.has_edge("nerves_of_steel") else 0)
    wounds = max(0, min(character.status.wounds, MAX_WOUNDS))
    fatigue = max(0, min(character.status.fatigue, FATIGUE_OUT))
    return chase.SetHealth(pid, wounds, fatigue, ignored)


async def _fight_health(game_id: int, pids: Iterable[str]) -> dict[str, chase.SetHealth]:
    """`SetHealth` for each participant id linked to a fight character that is not whole."""
    stream = await active_of(game_id, "encounter")
    if stream is None:
        return {}
    encounter, _ = await agg.load(ENCOUNTER, game_id, stream.key)
    out = {}
    for pid in pids:
        character = fight_character(encounter, pid)
        health = health_of(pid, character) if character is not None else None
        if health is not None and (health.wounds, health.fatigue) != (0, 0):
            out[pid] = health
    return out


# --- turns from the encounter's action cards ---------------------------------------------


def _linked(state: chase.ChaseState, combatant: savage.Combatant) -> list[str]:
    ids = {combatant.id, *(m.id for m in combatant.members)}
    return [p.id for p in state.participants if p.id in ids and p.active]


def _start_turns(
    state: chase.ChaseState, pids: Iterable[str], card: savage.Card | None, rng: Rng
) -> tuple[chase.Event, ...]:
    """StartTurn for each participant, as one step (each decided on the state so far)."""
    events: list[chase.Event] = []
    for pid in pids:
        new = chase.decide(state, chase.StartTurn(pid, card), rng)
        state = CHASE.fold(state, new)
        events.extend(new)
    return tuple(events)


async def start_chase_turn(
    game_id: int,
    *,
    actor_id: int,
    rng: Rng,
    participant: str | None = None,
    cause: Mapping[str, Any] | None = None,
) -> ChaseOutcome:
    """Open the chase turn of the encounter's acting combatant on its action card (a
    Clubs card rolls the Complication; no card, when it acts from a Hold kept since an
    earlier round: no Complication). `participant` picks one of its linked
    participants; by default all of them take their turn. The GM or the combatant's
    owner may call it. `nobody_acting`, `not_in_chase` otherwise."""
    role = await require_member(game_id, actor_id)
    encounter_stream = await require_active(game_id, "encounter")
    stream = await require_active(game_id, KIND)
    encounter, _ = await agg.load(ENCOUNTER, game_id, encounter_stream.key)
    acting = encounter.acting
    if acting is None:
        raise NobodyActing(game_id=game_id)
    if role != ROLE_GM and actor_id not in encounter.owners(acting.id):
        raise NotYourCharacter(id=acting.id)
    card = acting.card  # None: acting from a Hold kept since an earlier round

    def decide(state: chase.ChaseState) -> tuple[chase.Event, ...]:
        pids = _linked(state, acting)
        if participant is not None:
            pids = [p for p in pids if p == participant]
        if not pids:
            raise NotInChase(combatant=acting.id, participant=participant)
        return _start_turns(state, pids, card, rng)

    result = await agg.execute(CHASE, game_id, stream.key, decide, actor_id=actor_id, cause=cause)
    return await _notify(game_id, _outcome(result, stream.key), actor_id)
