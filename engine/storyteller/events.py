"""Events of a Storyteller fight: facts ``decide`` produces and ``evolve`` applies. Each
carries ``step`` (the command that produced it) and every die rolled, so a replay needs no
seed. ``EVENTS`` (engine.codec) stores them as ``{"type": <class name>, …fields}``."""

from __future__ import annotations

from dataclasses import dataclass

from engine import codec, events
from engine.storyteller.dice.results import PoolResult

from .combat import DamageStep, Defense
from .fight import Fighter, PendingAmbush, Proposal
from .initiative import InitiativeRoll
from .options import Options
from .pools import Pool


@dataclass(frozen=True, slots=True)
class Event(events.Event):
    """A fact of a Storyteller fight."""


@dataclass(frozen=True, slots=True)
class FighterAdded(Event):
    fighter: Fighter


@dataclass(frozen=True, slots=True)
class FighterRemoved(Event):
    fighter: str


@dataclass(frozen=True, slots=True)
class AmbushRolled(Event):
    attacker: str
    victim: str
    stealth: PoolResult
    notice: PoolResult
    outcome: str  # won | tie | spotted
    bonus: int
    pending: PendingAmbush | None


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    round: int
    rolls: tuple[InitiativeRoll, ...]


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    round: int
    nothing_happened: bool = False  # everyone yielded


@dataclass(frozen=True, slots=True)
class ActionsDeclared(Event):
    fighter: str
    count: int


@dataclass(frozen=True, slots=True)
class Delayed(Event):
    fighter: str


@dataclass(frozen=True, slots=True)
class Yielded(Event):
    fighter: str


@dataclass(frozen=True, slots=True)
class FullDefenseDeclared(Event):
    fighter: str


@dataclass(frozen=True, slots=True)
class Acted(Event):
    """The fighter's turn is taken (an attack, another action, or its end)."""

    fighter: str
    from_delay: bool = False


@dataclass(frozen=True, slots=True)
class InterruptRolled(Event):
    fighter: str
    success: bool
    spent_point: bool
    roll: PoolResult | None


@dataclass(frozen=True, slots=True)
class WillpowerSpent(Event):
    fighter: str
    purpose: str  # interrupt | success


@dataclass(frozen=True, slots=True)
class AttackResolved(Event):
    attacker: str
    target: str
    weapon: str
    attack_pool: Pool
    attack: PoolResult
    defense: Defense | None
    defense_source: str | None  # full | actions | interrupt | ambush_tie | gm
    defense_pool: Pool | None
    defense_roll: PoolResult | None
    hit: bool
    extra: int
    damage: DamageStep | None
    counter: DamageStep | None


@dataclass(frozen=True, slots=True)
class Incapacitated(Event):
    fighter: str
    # taken out by someone of the same initiative total before acting: «считаются
    # действующими одновременно» — its action this turn is still made (options.simultaneous_ties)
    keeps_action: bool = False


@dataclass(frozen=True, slots=True)
class Died(Event):
    fighter: str


@dataclass(frozen=True, slots=True)
class AttackProposed(Event):
    """A proposal made or adjusted (the GM's only: the board does not show it)."""

    proposal: Proposal


@dataclass(frozen=True, slots=True)
class ProposalDropped(Event):
    pass


@dataclass(frozen=True, slots=True)
class ProposalPublished(Event):
    """The proposal goes to the table: the attack's own events follow in the same step."""

    attacker: str
    target: str


@dataclass(frozen=True, slots=True)
class Configured(Event):
    options: Options


EVENT_TYPES: dict[str, type[Event]] = {
    cls.__name__: cls
    for cls in (
        FighterAdded,
        FighterRemoved,
        AmbushRolled,
        TurnStarted,
        TurnEnded,
        ActionsDeclared,
        Delayed,
        Yielded,
        FullDefenseDeclared,
        Acted,
        InterruptRolled,
        WillpowerSpent,
        AttackResolved,
        Incapacitated,
        Died,
        AttackProposed,
        ProposalDropped,
        ProposalPublished,
        Configured,
    )
}

EVENTS: codec.Family[Event] = codec.Family("type", EVENT_TYPES)
Event.family = EVENTS
event_to_dict = EVENTS.to_data
event_from_dict = EVENTS.from_data
