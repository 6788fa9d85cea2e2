"""Setup commands: the chase deck and row, participants, groups (seed 001, lines 5-10)."""

from __future__ import annotations

from engine.dice.rng import Rng
from engine.savage.cards import full_deck, shuffled

from . import commands as c
from . import events as ev
from .base import Log, active, active_mover, check_modifier, check_position, leader_for
from .errors import ChaseError
from .model import MOVEMENT_SKILLS, TRAIT_DICE, Participant
from .options import MAX_ROW, ChaseOptions
from .rules import FATIGUE_OUT, MAX_IGNORED_WOUNDS, MAX_WOUNDS


def check_start(cmd: c.StartChase) -> ChaseOptions:
    """The start's row size and options as the rules allow them (before a card is drawn)."""
    if not c.ROW_SIZE <= cmd.cards <= MAX_ROW:
        raise ChaseError("bad_row_size", min=c.ROW_SIZE, max=MAX_ROW)
    return cmd.options.validate()


def start_chase(log: Log, cmd: c.StartChase, rng: Rng) -> None:
    if log.state.started:
        raise ChaseError("already_started")
    options = check_start(cmd)
    row = shuffled(full_deck(), rng)[: cmd.cards]
    log.emit(ev.ChaseStarted, options=options, row=row)


def lay_cards(log: Log, cmd: c.LayCards, rng: Rng) -> None:
    s = log.state
    left = tuple(card for card in full_deck() if card not in s.row)
    if cmd.at not in ("front", "rear"):
        raise ChaseError("bad_option", option="at", value=cmd.at)
    if not 1 <= cmd.count <= len(left):
        raise ChaseError("deck_exhausted", left=len(left))
    log.emit(ev.CardsLaid, cards=shuffled(left, rng)[: cmd.count], at=cmd.at)


def add_participant(log: Log, cmd: c.AddParticipant, rng: Rng) -> None:
    s = log.state
    if s.find(cmd.participant) is not None:
        raise ChaseError("duplicate_participant", participant=cmd.participant)
    if cmd.movement not in MOVEMENT_SKILLS:
        raise ChaseError("bad_movement", mode=cmd.movement)
    skill = cmd.skill or MOVEMENT_SKILLS[cmd.movement]
    if not skill:
        raise ChaseError("special_needs_skill")
    if cmd.die not in TRAIT_DICE or cmd.die_bonus < 0 or (cmd.die_bonus and cmd.die != 12):
        raise ChaseError("bad_skill", die=f"d{cmd.die}+{cmd.die_bonus}")
    position = cmd.position
    if cmd.leader is not None:
        leader = leader_for(s, cmd.participant, cmd.leader, cmd.side)
        position = leader.position
    if position is None:
        raise ChaseError("bad_position", position=None, last=len(s.row) - 1)
    check_position(s, position)
    p = Participant(
        id=cmd.participant,
        side=cmd.side,
        position=position,
        movement=cmd.movement,
        skill=skill,
        die=cmd.die,
        die_bonus=cmd.die_bonus,
        wild_card=cmd.wild_card,
        unskilled=cmd.unskilled,
        modifier=check_modifier(cmd.modifier),
        leader=cmd.leader,
    )
    log.emit(ev.ParticipantAdded, participant=p)


def place(log: Log, cmd: c.PlaceParticipant, rng: Rng) -> None:
    p = active_mover(log.state, cmd.participant)
    check_position(log.state, cmd.position)
    log.emit(ev.Moved, participant=p.id, position=cmd.position, cause="gm")


def set_modifier(log: Log, cmd: c.SetModifier, rng: Rng) -> None:
    log.state.participant(cmd.participant)
    log.emit(ev.ModifierSet, participant=cmd.participant, modifier=check_modifier(cmd.modifier))


def set_health(log: Log, cmd: c.SetHealth, rng: Rng) -> None:
    """Seed 000, lines 73-74 and 79: up to three Wounds, Fatigue up to the level that takes
    the character out (the participant leaves the chase with it)."""
    p = active(log.state, cmd.participant)
    if not (
        0 <= cmd.wounds <= MAX_WOUNDS
        and 0 <= cmd.fatigue <= FATIGUE_OUT
        and 0 <= cmd.ignored_wounds <= MAX_IGNORED_WOUNDS
    ):
        raise ChaseError(
            "bad_health", wounds=MAX_WOUNDS, fatigue=FATIGUE_OUT, ignored=MAX_IGNORED_WOUNDS
        )
    health = (cmd.wounds, cmd.fatigue, cmd.ignored_wounds)
    if health != (p.wounds, p.fatigue, p.ignored_wounds):
        log.emit(
            ev.HealthSet,
            participant=p.id,
            wounds=cmd.wounds,
            fatigue=cmd.fatigue,
            ignored_wounds=cmd.ignored_wounds,
        )


def join_group(log: Log, cmd: c.JoinGroup, rng: Rng) -> None:
    p = active(log.state, cmd.participant)
    leader_for(log.state, p.id, cmd.leader, p.side)
    if log.state.members(p.id):
        raise ChaseError("bad_leader", leader=cmd.leader, participant=p.id)
    log.emit(ev.GroupJoined, participant=p.id, leader=cmd.leader)


def leave_group(log: Log, cmd: c.LeaveGroup, rng: Rng) -> None:
    p = active(log.state, cmd.participant)
    if p.leader is None:
        raise ChaseError("not_in_group", participant=p.id)
    log.emit(ev.GroupLeft, participant=p.id)


def set_round_limit(log: Log, cmd: c.SetRoundLimit, rng: Rng) -> None:
    log.state.options.with_round_limit(cmd.limit)  # validates
    log.emit(ev.RoundLimitSet, limit=cmd.limit)
