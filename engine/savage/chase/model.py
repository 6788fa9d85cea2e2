"""Frozen chase state. Everything is JSON-safe through ``to_dict``/``from_dict`` (engine.codec).

The row runs from the rear (card 0) to the front (the last card); "dropping back" moves toward
card 0. Cards are stored as their short codes (engine.savage.cards.Card.code).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.codec import Coded
from engine.savage.cards import Card
from engine.savage.stored import Zero

from .errors import ChaseError
from .options import ChaseOptions
from .rules import MAX_WOUND_PENALTY

# Movement modes and their maneuvering skills (seed 001, line 10).
MOVEMENT_SKILLS: dict[str, str | None] = {
    "foot": "athletics",
    "driving": "driving",
    "boating": "boating",
    "riding": "riding",
    "piloting": "piloting",
    "special": None,  # a named mode (e.g. Shunpo): the skill must be given
}
TRAIT_DICE = (4, 6, 8, 10, 12)

ACTIVE = "active"
ESCAPED = "escaped"
OUT_OF_ACTION = "out_of_action"


@dataclass(frozen=True, slots=True)
class Participant(Coded):
    """An independently moving participant, or a member of a group (``leader`` set) who
    stands on the leader's card and moves with it (seed 001, line 8)."""

    id: str
    side: str
    position: int
    movement: str = "foot"
    skill: str = "athletics"
    die: int = 6
    die_bonus: int = 0  # the +N of d12+N
    wild_card: bool = True
    unskilled: bool = False
    modifier: int = 0  # explicit standing modifier, e.g. a speed bonus (seed 001, line 17)
    leader: str | None = None
    status: str = ACTIVE
    # Health as the table knows it: the linked fight character's Wounds and Fatigue (kept in
    # line by the services, `SetHealth`), or a critical failure's Fatigue (seed 001, line 30).
    # ``ignored_wounds``: Wounds whose penalty an Edge ignores (Nerves of Steel 1, Improved 2).
    wounds: int = 0
    fatigue: int = 0
    ignored_wounds: int = 0

    @property
    def active(self) -> bool:
        return self.status == ACTIVE

    @property
    def wound_penalty(self) -> int:
        """Seed 000, line 73: «Каждая Рана даёт −1 к … проверкам параметров, максимум −3»."""
        return -min(MAX_WOUND_PENALTY, max(0, self.wounds - self.ignored_wounds))


@dataclass(frozen=True, slots=True)
class TurnState(Coded):
    """One participant's open turn. ``bumped`` lists targets this participant has bumped
    during the turn (one card per target per turn, seed 001, line 36)."""

    participant: str
    action_card: Card | None  # None: acting from a Hold kept since an earlier round
    changed_position: bool = False
    dropped_back: bool = False
    declared_actions: int = 1
    actions_used: int = 0
    fight_actions: Zero = 0  # actions the linked fight character took this turn
    lost: bool = False  # the rest of the turn was lost to a critical failure
    bumped: tuple[str, ...] = ()

    @property
    def actions_taken(self) -> int:
        """One turn, one count: chase actions and the linked fight character's."""
        return self.actions_used + self.fight_actions


@dataclass(frozen=True, slots=True)
class Pending(Coded):
    """A choice waiting for someone.

    ``kind == "bump"``: an indirect Bump of ``target`` by up to ``max_cards`` cards whose
    direction the opposing side chooses (seed 001, line 35).
    ``kind == "shift"``: the participant itself may move up to ``max_cards`` (the Joker
    reading ``success_shift``).
    ``kind == "critical"``: the GM picks the consequence of a critical failure among
    ``choices`` (seed 001, line 30).
    """

    id: str
    kind: str
    target: str
    max_cards: int = 0
    choices: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ChaseEnd(Coded):
    reason: str  # see rules.END_REASONS
    side: str | None = None  # the side that stopped / was taken out / escaped
    round: int = 0


@dataclass(frozen=True, slots=True)
class ChaseState(Coded):
    options: ChaseOptions = field(default_factory=ChaseOptions)
    row: tuple[Card, ...] = ()
    participants: tuple[Participant, ...] = ()
    round: int = 0
    turns: tuple[TurnState, ...] = ()  # open turns (more than one when someone interrupts)
    pending: tuple[Pending, ...] = ()
    ended: ChaseEnd | None = None
    step: int = 0  # the step id of the last applied command

    @property
    def started(self) -> bool:
        return bool(self.row)

    # --- lookups -------------------------------------------------------------------------

    def find(self, pid: str) -> Participant | None:
        return next((p for p in self.participants if p.id == pid), None)

    def participant(self, pid: str) -> Participant:
        p = self.find(pid)
        if p is None:
            raise ChaseError("unknown_participant", participant=pid)
        return p

    def turn(self, pid: str) -> TurnState | None:
        return next((t for t in self.turns if t.participant == pid), None)

    def members(self, leader: str) -> tuple[Participant, ...]:
        return tuple(p for p in self.participants if p.leader == leader)

    def sides(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(p.side for p in self.participants))

    def pending_by_id(self, pending_id: str) -> Pending | None:
        return next((x for x in self.pending if x.id == pending_id), None)

    # --- copies --------------------------------------------------------------------------

    def with_participant(self, p: Participant) -> ChaseState:
        return replace(
            self, participants=tuple(p if q.id == p.id else q for q in self.participants)
        )

    def with_turn(self, t: TurnState) -> ChaseState:
        return replace(
            self, turns=tuple(t if q.participant == t.participant else q for q in self.turns)
        )
