"""Commands of a Storyteller fight: what a GM or a player asks for; ``decide`` checks them.

``by``: the Telegram id of the player issuing it, or None for the GM (who may do everything);
a player acts only for the fighters they own, and set-up is the GM's.
"""

from __future__ import annotations

from dataclasses import dataclass

from .character import Character
from .combat import NO_OVERRIDES, PLAIN, Overrides
from .maneuvers import Situation
from .options import Options


@dataclass(frozen=True, slots=True)
class Command:
    pass


@dataclass(frozen=True, slots=True)
class AddFighter(Command):
    id: str
    character: Character
    owner: int | None = None
    by: int | None = None


@dataclass(frozen=True, slots=True)
class RemoveFighter(Command):
    id: str
    by: int | None = None


@dataclass(frozen=True, slots=True)
class Ambush(Command):
    """Before the fight: Dexterity + Stealth against Perception + Alertness."""

    attacker: str
    victim: str
    by: int | None = None


@dataclass(frozen=True, slots=True)
class StartTurn(Command):
    """End the running turn (if any) and roll initiative for the next one."""

    by: int | None = None


@dataclass(frozen=True, slots=True)
class DeclareActions(Command):
    fighter: str
    count: int
    by: int | None = None


@dataclass(frozen=True, slots=True)
class Delay(Command):
    fighter: str
    by: int | None = None


@dataclass(frozen=True, slots=True)
class Yield(Command):
    fighter: str
    by: int | None = None


@dataclass(frozen=True, slots=True)
class FullDefense(Command):
    """Defend the whole turn instead of acting (seed «Сложные оборонительные маневры»)."""

    fighter: str
    by: int | None = None


@dataclass(frozen=True, slots=True)
class EndAction(Command):
    """The fighter's turn is taken by something other than an attack (or its end)."""

    fighter: str
    by: int | None = None


INTERRUPT_ROLL, INTERRUPT_POINT = "roll", "point"


@dataclass(frozen=True, slots=True)
class Attack(Command):
    """``defense``: block | dodge | parry | None; ``interrupt``: how a target that has not
    acted yet gets to defend (INTERRUPT_ROLL, INTERRUPT_POINT) when it has no declared
    defense; ``defense_weapon`` a parry's weapon; ``actions`` a count of actions declared
    with the attack (the picker's split, as DeclareActions declares it; 0: as declared)."""

    attacker: str
    target: str
    weapon: str | None = None
    defense: str | None = None
    interrupt: str | None = None
    defense_weapon: str | None = None
    situation: Situation = PLAIN
    overrides: Overrides = NO_OVERRIDES
    actions: int = 0
    by: int | None = None


# --- the GM's review of an attack (proposal.py) ----------------------------------------


@dataclass(frozen=True, slots=True)
class Propose(Command):
    """The attack, rolled but kept for the GM's review instead of published; ``now`` (seconds
    since the epoch) starts the defender's time to choose a defense (options.defense_seconds)."""

    attack: Attack
    now: float = 0.0
    by: int | None = None


@dataclass(frozen=True, slots=True)
class Defend(Command):
    """The defender's choice for the proposal that asks it (``kind`` None: no defense): by
    the target's player, or the GM (``by`` None: for an NPC, instead of the player, or the
    default when the time ran out)."""

    kind: str | None = None
    interrupt: str | None = None
    weapon: str | None = None
    by: int | None = None


@dataclass(frozen=True, slots=True)
class Adjust(Command):
    """The GM's changes to the pending proposal (they replace the earlier ones)."""

    overrides: Overrides
    by: int | None = None


@dataclass(frozen=True, slots=True)
class Publish(Command):
    by: int | None = None


@dataclass(frozen=True, slots=True)
class Drop(Command):
    by: int | None = None


@dataclass(frozen=True, slots=True)
class Configure(Command):
    """The GM sets the fight's options (the readings and default tables, options.py)."""

    options: Options
    by: int | None = None
