"""The fight's state: its fighters, the turn and its order, the game's options. Frozen;
``evolve`` (evolve.py) makes the next one from an event."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from engine.codec import Coded

from .character import Character
from .commands import Attack
from .errors import StorytellerError
from .initiative import Turn
from .maneuvers import Situation
from .options import DEFAULT_OPTIONS, Options


@dataclass(frozen=True, slots=True)
class Fighter:
    id: str
    character: Character
    owner: int | None = None  # the player's Telegram id; None: the GM's (an NPC)
    dead: bool = False
    # this turn
    actions: int = 1  # declared actions (multiple actions)
    actions_used: int = 0
    full_defense: bool = False
    defenses: int = 0  # defenses made on full defense (each next one a die fewer)

    @property
    def npc(self) -> bool:
        return self.owner is None


@dataclass(frozen=True, slots=True)
class PendingAmbush:
    """A won or tied ambush: the ambusher attacks the victim first, before initiative."""

    attacker: str
    victim: str
    situation: Situation


@dataclass(frozen=True, slots=True)
class Proposal:
    """An attack the GM reviews before it is published (DESIGN.md decision 5): the command
    (with the GM's ``Overrides`` so far) and every die face its resolution drew, in order —
    so the preview and the publication are the same roll."""

    attack: Attack
    faces: tuple[int, ...] = ()
    opened: int = 0  # the step that first proposed it (adjustments keep it): its identity
    # the defender's controller chooses the defense until ``until`` (seconds since the epoch);
    # then the game's default applies (decide.defense_choices, options.defense_seconds)
    asking: bool = False
    until: float = 0.0


@dataclass(frozen=True, slots=True)
class Fight(Coded):
    step: int = 0
    fighters: tuple[Fighter, ...] = ()
    round: int = 0  # 0: initiative not rolled yet
    turn: Turn | None = None
    ambush: PendingAmbush | None = None
    options: Options = DEFAULT_OPTIONS
    proposal: Proposal | None = None  # the GM's to publish, adjust or drop
    # each fighter's initiative die of the first turn it rolled (options.initiative_once)
    initiative_dice: tuple[tuple[str, int], ...] = ()

    def fighter(self, fid: str) -> Fighter:
        for f in self.fighters:
            if f.id == fid:
                return f
        raise StorytellerError("unknown_fighter", {"id": fid})

    def has(self, fid: str) -> bool:
        return any(f.id == fid for f in self.fighters)

    def replace_fighter(self, fid: str, **changes: object) -> Fight:
        fighters = tuple(
            dataclasses.replace(f, **changes) if f.id == fid else f  # type: ignore[arg-type]  # Fighter fields
            for f in self.fighters
        )
        return dataclasses.replace(self, fighters=fighters)

    def can_fight(self, fid: str) -> bool:
        f = self.fighter(fid)
        return not f.dead and not f.character.incapacitated(self.options.health)
