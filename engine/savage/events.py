"""Events: facts produced by ``decide`` and applied by ``evolve``.

Every event carries ``step`` (the id of the command that produced it: /undo drops the last
step) and every card drawn and die rolled, so ``replay`` needs no seed. ``to_dict`` gives
``{"type": <class name>, ...fields}`` (``EVENTS``, engine.codec); ``event_from_dict`` is its
inverse.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import codec, events
from engine.dice.results import RollResult
from engine.savage.dice.results import DamageResult, TraitResult

from .cards import Card
from .character import Condition, Injury
from .encounter import Combatant, FollowUp
from .stored import Blank


@dataclass(frozen=True, slots=True)
class Event(events.Event):
    """A fact of a SWADE fight."""


# --- set-up ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CombatantAdded(Event):
    combatant: Combatant


@dataclass(frozen=True, slots=True)
class CombatantRemoved(Event):
    """The combatant leaves the fight — or, with ``member``, only that member of its group
    (the group keeps its card)."""

    combatant: str
    member: Blank = ""


# --- cards and turns ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DeckShuffled(Event):
    """The new draw pile, top first. ``reason``: "start" (first deal or empty pile before a
    deal), "joker" (a Joker was dealt last round, seed 000 line 15), "empty" (the pile ran
    out in the middle of a deal), "another_deck" (the pile and the discards together were
    too few: a new 54-card deck is shuffled in with them)."""

    order: tuple[Card, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    round: int


@dataclass(frozen=True, slots=True)
class CardDealt(Event):
    """``drawn``: every card taken from the top, in order; ``kept``: the card the combatant
    keeps (the others are discarded). ``rules``: what shaped the draw ("level_headed",
    "improved_level_headed", "quick", "hesitant", "benny")."""

    combatant: str
    drawn: tuple[Card, ...]
    kept: Card
    rules: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    """``via``: "card", "hold" (acting from Hold), "joker" (a Joker acting out of order),
    "interrupt" (won an interrupt), "queued" (lost an interrupt: acts after the foe),
    "resume" (an interrupted turn goes on)."""

    combatant: str
    via: str = "card"


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    combatant: str


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    round: int


@dataclass(frozen=True, slots=True)
class HoldTaken(Event):
    combatant: str


@dataclass(frozen=True, slots=True)
class TurnQueued(Event):
    """A character on Hold (or with an unused Joker) asked to act while another acts: it
    takes its turn right after the current one (seed 000 lines 19-20; cutting into the
    current turn is an Interrupt)."""

    combatant: str


@dataclass(frozen=True, slots=True)
class HoldLost(Event):
    """``reason``: "shaken", "stunned", "incapacitated" (official SWADE: the turn for the
    round is lost too)."""

    combatant: str
    reason: str


@dataclass(frozen=True, slots=True)
class Interrupted(Event):
    """``rolls``: the opposed Athletics of interrupter and target (empty for a Joker, who
    acts at any moment, seed 000 line 13). ``winner``: combatant id acting first;
    ``simultaneous``: the totals tied (official SWADE: the actions are simultaneous)."""

    combatant: str
    target: str
    rolls: tuple[TraitResult, ...]
    winner: str
    simultaneous: bool = False


@dataclass(frozen=True, slots=True)
class ActionsDeclared(Event):
    character: str
    count: int


# --- rolls and states -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    """A trait roll. ``purpose``: "trait", "attack", "support", "test", "resist",
    "escape", "spirit", "stunned", "bleeding_out", "soak", "incapacitation", "interrupt".
    ``action``: counts as one of the turn's actions. The result keeps every face and every
    labelled modifier (support and aim labels mean those bonuses were used up)."""

    character: str
    purpose: str
    trait: str
    result: TraitResult
    action: bool = False
    target: str = ""
    follow: FollowUp | None = None


@dataclass(frozen=True, slots=True)
class Rerolled(Event):
    """A benny re-rolls the character's last trait roll (DESIGN.md: «uses: re-roll a trait
    roll»): the same trait, modifiers and TN. ``result``: the new roll; ``previous``: the
    result kept before; ``kept``: "new" or "previous" (official SWADE: the best counts; a
    critical failure is never kept over another result). The events that follow in the
    same step are what the better result changes (damage of an attack that now hits, ...)."""

    character: str
    purpose: str
    trait: str
    result: TraitResult
    previous: TraitResult
    kept: str
    target: str = ""


@dataclass(frozen=True, slots=True)
class DamageRolled(Event):
    character: str  # the target
    attacker: str
    result: DamageResult


@dataclass(frozen=True, slots=True)
class DamagePending(Event):
    character: str
    wounds: int
    shaken: bool


@dataclass(frozen=True, slots=True)
class DamageSoaked(Event):
    """The best Soak so far removes ``soaked`` Wounds of the pending damage."""

    character: str
    soaked: int


@dataclass(frozen=True, slots=True)
class DamageApplied(Event):
    """``wounds`` taken now (after Soak); ``shaken``: becomes Shaken; ``clear_shaken``: every
    Wound was soaked, so Shaken goes too (seed 000 line 119)."""

    character: str
    wounds: int
    shaken: bool
    clear_shaken: bool = False


@dataclass(frozen=True, slots=True)
class Incapacitated(Event):
    """The Incapacitation outcome after the Vigor roll (a ``Rolled`` event precedes it).
    ``outcome``: "dead", "bleeding_out" (failure), "injured" (success), "injured_24h"
    (raise); Extras have "out" and no roll. ``injury_rolls``: the 2d6 and the d6 sub-roll."""

    character: str
    outcome: str
    injury: Injury | None = None
    injury_rolls: tuple[RollResult, ...] = ()


@dataclass(frozen=True, slots=True)
class BleedingOutResolved(Event):
    """``outcome``: "dead", "bleeding" (roll again next turn), "stable"."""

    character: str
    outcome: str


@dataclass(frozen=True, slots=True)
class ShakenSet(Event):
    character: str
    reason: str


@dataclass(frozen=True, slots=True)
class ShakenRemoved(Event):
    """``reason``: "spirit", "benny", "soak", "gm"."""

    character: str
    reason: str


@dataclass(frozen=True, slots=True)
class FreeActionsOnly(Event):
    """The Spirit roll failed: free actions only this turn (seed 000 line 68)."""

    character: str


@dataclass(frozen=True, slots=True)
class StunnedSet(Event):
    character: str


@dataclass(frozen=True, slots=True)
class StunnedRemoved(Event):
    character: str


@dataclass(frozen=True, slots=True)
class ConditionAdded(Event):
    """Adds or replaces the character's condition of that kind."""

    character: str
    condition: Condition


@dataclass(frozen=True, slots=True)
class ConditionRemoved(Event):
    """``reason``: "expired", "used", "escaped", "gm"."""

    character: str
    kind: str
    reason: str


@dataclass(frozen=True, slots=True)
class FullTurnTaken(Event):
    """Defend or Aim: the character takes no other action this turn."""

    character: str
    kind: str


@dataclass(frozen=True, slots=True)
class ChaseActionsCounted(Event):
    """The actions the character's chase turn declared and took (``CountChaseActions``)."""

    character: str
    declared: int
    used: int


@dataclass(frozen=True, slots=True)
class FatigueChanged(Event):
    character: str
    level: int


@dataclass(frozen=True, slots=True)
class BennySpent(Event):
    """``purpose``: "unshake", "soak", "card", "reroll"."""

    character: str
    purpose: str


@dataclass(frozen=True, slots=True)
class BenniesGiven(Event):
    character: str
    count: int


@dataclass(frozen=True, slots=True)
class StatusSet(Event):
    """A GM correction of status fields (wounds, fatigue, shaken, ...)."""

    character: str
    changes: tuple[tuple[str, int], ...]


EVENT_TYPES: dict[str, type[Event]] = {
    cls.__name__: cls
    for cls in (
        CombatantAdded,
        CombatantRemoved,
        DeckShuffled,
        RoundStarted,
        CardDealt,
        TurnStarted,
        TurnEnded,
        RoundEnded,
        HoldTaken,
        TurnQueued,
        HoldLost,
        Interrupted,
        ActionsDeclared,
        Rolled,
        Rerolled,
        DamageRolled,
        DamagePending,
        DamageSoaked,
        DamageApplied,
        Incapacitated,
        BleedingOutResolved,
        ShakenSet,
        ShakenRemoved,
        FreeActionsOnly,
        StunnedSet,
        StunnedRemoved,
        ConditionAdded,
        ConditionRemoved,
        FullTurnTaken,
        FatigueChanged,
        ChaseActionsCounted,
        BennySpent,
        BenniesGiven,
        StatusSet,
    )
}


EVENTS: codec.Family[Event] = codec.Family("type", EVENT_TYPES)
Event.family = EVENTS
event_to_dict = EVENTS.to_data
event_from_dict = EVENTS.from_data
