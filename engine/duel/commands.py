"""What the players and the GM ask of a duel: ``by`` is a player's user id, None for the GM."""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .options import Deadline, DuelOptions
from .proposal import Proposal


@dataclass(frozen=True, slots=True)
class Submit:
    """A fighter's turn, sealed with ``salt`` (the service's ``engine.receipt.new_salt()``);
    a second Submit of the same turn replaces the first and leaves a new receipt."""

    fighter: str
    actions: tuple[Action, ...]
    salt: str
    comment: str = ""
    by: int | None = None
    # how many times the fighter had sealed this turn when the sender's form was made
    # (``DuelState.seals``): a double tap or a second worker finds one more and is refused
    # (None: not checked)
    seals: int | None = None


@dataclass(frozen=True, slots=True)
class Publish:
    """The GM publishes ``turn``: the automatic proposal, or the GM's edited one."""

    turn: int
    proposal: Proposal | None = None
    by: int | None = None
    now: float | None = None  # the clock: the next turn's deadline runs from it
    seed: str = ""  # the next turn's dice seed (dice.py)


@dataclass(frozen=True, slots=True)
class Configure:
    """The GM switches the game's readings (docs/rules/duel.md); from the next resolution."""

    options: DuelOptions
    by: int | None = None
    seed: str = ""  # at the duel's start: the first turn's dice seed (dice.py)


@dataclass(frozen=True, slots=True)
class Adjust:
    """The GM changes this turn's proposal, with a reason (adjust.py): ``field`` "roll" sets
    the d10 of ``fighter``'s action ``action`` (counted from 0; ``check`` 1: the second roll
    of full defense) to ``value``; any other field of ``adjust.FIELDS`` is the fighter's
    value after the turn."""

    turn: int
    fighter: str
    field: str
    value: int | bool
    reason: str
    action: int = 0
    check: int = 0
    by: int | None = None


@dataclass(frozen=True, slots=True)
class SetDeadline:
    """The GM gives each turn ``deadline`` (None: no deadline); this turn's runs from ``now``."""

    deadline: Deadline | None
    now: float
    by: int | None = None


@dataclass(frozen=True, slots=True)
class PassDeadline:
    """The deadline of ``turn`` has come (the service's loop, on the GM's behalf, at ``now``):
    the fighters who have not submitted are named, and by the "defend" policy each gets the
    default defense sealed with ``salt`` and its id."""

    turn: int
    now: float
    salt: str
    by: int | None = None


@dataclass(frozen=True, slots=True)
class DefaultTurn:
    """The GM seals the default defense for ``fighter`` once the deadline has passed."""

    turn: int
    fighter: str
    salt: str
    by: int | None = None


@dataclass(frozen=True, slots=True)
class Stop:
    """The GM stops the running duel (``/duel стоп``): the result so far stands, the turn
    being sealed is dropped unrevealed."""

    by: int | None = None


Command = Submit | Publish | Configure | Adjust | SetDeadline | PassDeadline | DefaultTurn | Stop
