"""SWADE chases (seed 001): a pure engine over frozen state.

``decide(state, command, rng) -> events`` checks a command and draws the cards and dice;
``evolve(state, event) -> state`` applies one event; ``replay(events)`` rebuilds a state and
``undo(events)`` drops the last step. See docs/rules/chase.md.
"""

from __future__ import annotations

from .commands import (
    AddParticipant,
    Bump,
    ChangePosition,
    Command,
    CountFightActions,
    DeclareActions,
    DropBack,
    EndChase,
    EndTurn,
    Flee,
    JoinGroup,
    LayCards,
    LeaveGroup,
    PlaceParticipant,
    ResolveBump,
    ResolveCriticalFailure,
    SetHealth,
    SetModifier,
    SetRoundLimit,
    StartChase,
    StartRound,
    StartTurn,
    StopSide,
    TakeOutOfAction,
)
from .decide import decide
from .describe import describe_event
from .errors import ERROR_CODES, ChaseError
from .events import EVENT_TYPES, Event, event_from_dict
from .evolve import evolve, last_step, replay, undo
from .model import ChaseEnd, ChaseState, Participant, Pending, TurnState
from .options import ChaseOptions
from .queries import (
    actions_taken,
    card_distance,
    current_multi_action_penalty,
    distances,
    nearest_opponent_distance,
    ranged_distance,
    require_same_card,
    same_card,
)
from .roll import ManeuverRoll
from .setup import check_start

__all__ = [
    "ERROR_CODES",
    "EVENT_TYPES",
    "AddParticipant",
    "Bump",
    "ChangePosition",
    "ChaseEnd",
    "ChaseError",
    "ChaseOptions",
    "ChaseState",
    "Command",
    "CountFightActions",
    "DeclareActions",
    "DropBack",
    "EndChase",
    "EndTurn",
    "Event",
    "Flee",
    "JoinGroup",
    "LayCards",
    "LeaveGroup",
    "ManeuverRoll",
    "Participant",
    "Pending",
    "PlaceParticipant",
    "ResolveBump",
    "ResolveCriticalFailure",
    "SetHealth",
    "SetModifier",
    "SetRoundLimit",
    "StartChase",
    "StartRound",
    "StartTurn",
    "StopSide",
    "TakeOutOfAction",
    "TurnState",
    "actions_taken",
    "card_distance",
    "check_start",
    "current_multi_action_penalty",
    "decide",
    "describe_event",
    "distances",
    "event_from_dict",
    "evolve",
    "last_step",
    "nearest_opponent_distance",
    "ranged_distance",
    "replay",
    "require_same_card",
    "same_card",
    "undo",
]
