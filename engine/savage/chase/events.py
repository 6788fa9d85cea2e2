"""Chase events. Every event carries ``step``: the id of the command that produced it (all
events of one command share it), so undo drops the last step and replays the rest.

Every card dealt and every maneuvering roll is inside the events: replay needs no rng.
``to_dict`` gives ``{"kind": <kind>, ...fields}`` (``EVENTS``, engine.codec);
``event_from_dict`` is its inverse (a field added later takes its default in older events).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine import codec, events
from engine.savage.cards import Card

from .model import Participant, Pending
from .options import ChaseOptions
from .roll import ManeuverRoll


@dataclass(frozen=True, slots=True)
class Event(events.Event):
    kind: ClassVar[str] = ""


@dataclass(frozen=True, slots=True)
class ChaseStarted(Event):
    """A separate deck shuffled and the row dealt face up (seed 001, line 7)."""

    kind: ClassVar[str] = "chase_started"
    options: ChaseOptions
    row: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CardsLaid(Event):
    """The GM lengthens the row (seed 001, line 7); ``at`` is "front" or "rear"."""

    kind: ClassVar[str] = "cards_laid"
    cards: tuple[Card, ...]
    at: str


@dataclass(frozen=True, slots=True)
class ParticipantAdded(Event):
    kind: ClassVar[str] = "participant_added"
    participant: Participant


@dataclass(frozen=True, slots=True)
class ModifierSet(Event):
    kind: ClassVar[str] = "modifier_set"
    participant: str
    modifier: int


@dataclass(frozen=True, slots=True)
class HealthSet(Event):
    """Wounds and Fatigue as the table knows them (``SetHealth``): seed 000, lines 73, 79."""

    kind: ClassVar[str] = "health_set"
    participant: str
    wounds: int
    fatigue: int
    ignored_wounds: int


@dataclass(frozen=True, slots=True)
class GroupJoined(Event):
    kind: ClassVar[str] = "group_joined"
    participant: str
    leader: str


@dataclass(frozen=True, slots=True)
class GroupLeft(Event):
    kind: ClassVar[str] = "group_left"
    participant: str


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    kind: ClassVar[str] = "round_started"
    round: int


@dataclass(frozen=True, slots=True)
class RoundLimitSet(Event):
    kind: ClassVar[str] = "round_limit_set"
    limit: int | None


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    kind: ClassVar[str] = "turn_started"
    participant: str
    action_card: Card | None  # None: acting from a Hold kept since an earlier round


@dataclass(frozen=True, slots=True)
class ActionsDeclared(Event):
    kind: ClassVar[str] = "actions_declared"
    participant: str
    count: int


@dataclass(frozen=True, slots=True)
class FightActionsCounted(Event):
    kind: ClassVar[str] = "fight_actions_counted"
    participant: str
    declared: int
    used: int


@dataclass(frozen=True, slots=True)
class ComplicationRolled(Event):
    """A Clubs action card's free maneuvering roll (seed 001, lines 21-28). ``result`` is
    "passed", or the failure of the chase card's suit: "bump", "shift_two",
    "critical_failure"; under the Joker reading ``success_shift``: "lucky_shift" on success,
    "no_effect" on failure."""

    kind: ClassVar[str] = "complication_rolled"
    participant: str
    chase_card: Card
    roll: ManeuverRoll
    result: str
    pending: Pending | None


@dataclass(frozen=True, slots=True)
class PositionChangeRolled(Event):
    """Change Position (seed 001, lines 14-15); ``cards`` earned: 0, 1, or 2 on a raise."""

    kind: ClassVar[str] = "position_change_rolled"
    participant: str
    as_action: bool
    direction: int
    roll: ManeuverRoll
    cards: int
    pending: Pending | None


@dataclass(frozen=True, slots=True)
class DroppedBack(Event):
    """Voluntary drop-back without a roll in a linear chase (seed 001, line 16)."""

    kind: ClassVar[str] = "dropped_back"
    participant: str
    cards: int


@dataclass(frozen=True, slots=True)
class Bumped(Event):
    """A direct Bump by ``attacker`` (seed 001, line 34); ``unit`` is who actually moves:
    the target, or its group's leader (line 37)."""

    kind: ClassVar[str] = "bumped"
    attacker: str
    target: str
    unit: str
    direction: int


@dataclass(frozen=True, slots=True)
class PendingMoveResolved(Event):
    """An indirect Bump or a shift resolved by ``chooser`` (None: the GM)."""

    kind: ClassVar[str] = "pending_move_resolved"
    pending: str
    chooser: str | None
    direction: int
    cards: int


@dataclass(frozen=True, slots=True)
class CriticalFailureResolved(Event):
    """The GM's choice of a critical-failure consequence (seed 001, line 30) for
    ``participant`` (empty in events stored before it was recorded)."""

    kind: ClassVar[str] = "critical_failure_resolved"
    pending: str
    choice: str
    participant: str = ""


@dataclass(frozen=True, slots=True)
class FleeRolled(Event):
    """Flee (seed 001, lines 45-46); ``escaped`` on success."""

    kind: ClassVar[str] = "flee_rolled"
    participant: str
    distance: int
    roll: ManeuverRoll
    escaped: bool
    pending: Pending | None


@dataclass(frozen=True, slots=True)
class TakenOutOfAction(Event):
    kind: ClassVar[str] = "taken_out_of_action"
    participant: str


@dataclass(frozen=True, slots=True)
class Moved(Event):
    """A unit (a participant and its group) lands on ``position``; ``cause`` is
    "change_position", "drop_back", "bump", "shift" or "gm"."""

    kind: ClassVar[str] = "moved"
    participant: str
    position: int
    cause: str


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    kind: ClassVar[str] = "turn_ended"
    participant: str


@dataclass(frozen=True, slots=True)
class ChaseEnded(Event):
    """Seed 001, lines 46-47. ``reason``: see rules.END_REASONS."""

    kind: ClassVar[str] = "chase_ended"
    reason: str
    side: str | None


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        ChaseStarted,
        CardsLaid,
        ParticipantAdded,
        ModifierSet,
        HealthSet,
        GroupJoined,
        GroupLeft,
        RoundStarted,
        RoundLimitSet,
        TurnStarted,
        ActionsDeclared,
        FightActionsCounted,
        ComplicationRolled,
        PositionChangeRolled,
        DroppedBack,
        Bumped,
        PendingMoveResolved,
        CriticalFailureResolved,
        FleeRolled,
        TakenOutOfAction,
        Moved,
        TurnEnded,
        ChaseEnded,
    )
}

EVENTS: codec.Family[Event] = codec.Family("kind", EVENT_TYPES)
Event.family = EVENTS
event_from_dict = EVENTS.from_data
