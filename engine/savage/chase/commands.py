"""Chase commands (intentions). ``decide`` checks them against the state and the rules.

Who may send which command (GM, the participant's player, the opposing side) is checked by
the services; the engine checks only the rules. ``chooser`` fields name the participant who
chooses (None means the GM).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.savage.cards import Card

from .options import ChaseOptions

ROW_SIZE = 9  # seed 001, line 7: «выложите в ряд девять Карт погони»


# --- setup (GM) ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StartChase:
    options: ChaseOptions = field(default_factory=ChaseOptions)
    cards: int = ROW_SIZE  # nine, or more for a longer scene


@dataclass(frozen=True, slots=True)
class LayCards:
    count: int
    at: str = "front"  # "front" (after the last card) or "rear" (before card 0)


@dataclass(frozen=True, slots=True)
class AddParticipant:
    participant: str
    side: str
    position: int | None  # None only with a leader: members stand on the leader's card
    movement: str = "foot"
    die: int = 6
    die_bonus: int = 0
    skill: str | None = None  # default: the skill of the movement mode
    wild_card: bool = True
    unskilled: bool = False
    modifier: int = 0
    leader: str | None = None


@dataclass(frozen=True, slots=True)
class PlaceParticipant:
    """The GM puts a participant (with its group) on a card without a roll."""

    participant: str
    position: int


@dataclass(frozen=True, slots=True)
class SetModifier:
    """Explicit standing modifier, e.g. a speed bonus (seed 001, line 17)."""

    participant: str
    modifier: int


@dataclass(frozen=True, slots=True)
class SetHealth:
    """The GM's bookkeeping: the participant's Wounds and Fatigue as the table knows them
    (the services copy them from the linked fight character). Every Wound is −1 to trait
    rolls, at most −3 (seed 000, line 73), every Fatigue level −1 (line 79): maneuvering
    rolls are trait rolls. ``ignored_wounds``: Wounds an Edge ignores (Nerves of Steel 1,
    Improved Nerves of Steel 2; standard SWADE, seed 000 line 3). Fatigue 3 takes the
    participant out (line 79)."""

    participant: str
    wounds: int
    fatigue: int
    ignored_wounds: int = 0


@dataclass(frozen=True, slots=True)
class JoinGroup:
    participant: str
    leader: str


@dataclass(frozen=True, slots=True)
class LeaveGroup:
    participant: str


@dataclass(frozen=True, slots=True)
class SetRoundLimit:
    limit: int | None


# --- rounds and turns --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StartRound:
    pass


@dataclass(frozen=True, slots=True)
class StartTurn:
    """The participant acts on ``action_card`` (dealt by the combat initiative); ``None``
    when it acts from a Hold kept since an earlier round (no card of this round: no
    Complication, docs/rules/chase.md «Hold»)."""

    participant: str
    action_card: Card | None


@dataclass(frozen=True, slots=True)
class DeclareActions:
    """Multi-action: how many actions the participant takes this turn (seed 000, line 27)."""

    participant: str
    count: int


@dataclass(frozen=True, slots=True)
class CountFightActions:
    """Bookkeeping (the services, after a fight step): the linked fight character declared
    ``declared`` actions this turn and took ``used`` of them in the fight."""

    participant: str
    declared: int
    used: int


@dataclass(frozen=True, slots=True)
class EndTurn:
    participant: str


# --- movement ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChangePosition:
    """``direction`` +1 toward the front, -1 toward the rear; ``max_cards`` caps the move
    on a raise; ``modifier`` is any situational modifier the GM allows."""

    participant: str
    direction: int
    as_action: bool = False
    modifier: int = 0
    max_cards: int = 2


@dataclass(frozen=True, slots=True)
class DropBack:
    participant: str
    cards: int


@dataclass(frozen=True, slots=True)
class Bump:
    attacker: str
    target: str
    direction: int


@dataclass(frozen=True, slots=True)
class ResolveBump:
    """Resolve a pending indirect Bump (the opposing side chooses) or a Joker shift (the
    participant chooses); ``cards`` from 0 to the pending maximum."""

    pending: str
    direction: int
    cards: int = 1
    chooser: str | None = None


@dataclass(frozen=True, slots=True)
class ResolveCriticalFailure:
    pending: str
    choice: str


@dataclass(frozen=True, slots=True)
class Flee:
    participant: str
    modifier: int = 0


# --- ending ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TakeOutOfAction:
    participant: str


@dataclass(frozen=True, slots=True)
class StopSide:
    """One side stops chasing or fleeing (seed 001, line 47)."""

    side: str


@dataclass(frozen=True, slots=True)
class EndChase:
    """The GM ends the chase: the scenario goal is reached (seed 001, line 47)."""

    reason: str = "goal_reached"
    side: str | None = None


Command = (
    StartChase
    | LayCards
    | AddParticipant
    | PlaceParticipant
    | SetModifier
    | SetHealth
    | JoinGroup
    | LeaveGroup
    | SetRoundLimit
    | StartRound
    | StartTurn
    | DeclareActions
    | CountFightActions
    | EndTurn
    | ChangePosition
    | DropBack
    | Bump
    | ResolveBump
    | ResolveCriticalFailure
    | Flee
    | TakeOutOfAction
    | StopSide
    | EndChase
)
