"""Characters: the sheet (traits, derived stats, edges) and the current state (Status).

A character is a frozen value; every change returns a new one (``dataclasses.replace``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from engine.codec import Coded

from .stored import Zero
from .traits import ATTRIBUTES, Die

MAX_WOUNDS = 3  # seed 000 line 74: a fourth Wound makes a Wild Card Incapacitated
MAX_PENALTY = 3  # seed 000 line 73: «максимум −3»

# Edges, hindrances and special abilities the rules use (Russian and English names).
EDGE_NAMES: dict[str, str] = {
    "хладнокровие": "level_headed",
    "level headed": "level_headed",
    "улучшенное хладнокровие": "improved_level_headed",
    "improved level headed": "improved_level_headed",
    "быстрый": "quick",
    "быстрая": "quick",
    "quick": "quick",
    "нерешительный": "hesitant",
    "нерешительная": "hesitant",
    "hesitant": "hesitant",
    "стойкий": "hardy",
    "стойкая": "hardy",
    "hardy": "hardy",
    "стальные нервы": "nerves_of_steel",
    "nerves of steel": "nerves_of_steel",
    "улучшенные стальные нервы": "improved_nerves_of_steel",
    "improved nerves of steel": "improved_nerves_of_steel",
    "боевые рефлексы": "combat_reflexes",
    "combat reflexes": "combat_reflexes",
}
KNOWN_EDGES = frozenset(EDGE_NAMES.values())


def edge_code(name: str) -> str:
    key = " ".join(name.strip().lower().replace("ё", "е").split())
    return EDGE_NAMES.get(key, name.strip())


# Condition kinds and how long they last by default.
CONDITIONS: tuple[str, ...] = (
    "distracted",  # −2 to all trait rolls (seed 000 line 45)
    "vulnerable",  # +2 to attacks and Tests against the character (line 47)
    "entangled",  # cannot move, Distracted (line 81)
    "bound",  # cannot move, Distracted and Vulnerable (line 82)
    "defend",  # +4 Parry until the start of the next turn (line 52)
    "support",  # +value to one trait roll until the end of the next turn (line 36)
    "aim",  # bonus to the next ranged attack (line 51)
    "prone",
)


@dataclass(frozen=True, slots=True)
class Condition:
    """``until``: "manual" (until removed), "end" (expires when the owner's ``turns_ended``
    reaches ``turn``), "start" (when ``turns_started`` reaches ``turn``).
    ``value``: the Support bonus or the Aim mode's bonus; ``skill``: the trait a Support
    helps ("" = any); ``source``: who caused it (a character id or a reason code)."""

    kind: str
    until: str = "manual"
    turn: int = 0
    value: int = 0
    skill: str = ""
    source: str = ""


@dataclass(frozen=True, slots=True)
class Injury:
    """An Injury Table result (DESIGN.md: 2d6, guts and head with a d6 sub-roll).
    ``duration``: "permanent" | "until_healed" | "24h"."""

    kind: str
    table_roll: int
    sub_roll: int | None
    duration: str


@dataclass(frozen=True, slots=True)
class Status:
    shaken: bool = False
    stunned: bool = False
    wounds: int = 0
    fatigue: int = 0
    incapacitated: bool = False
    bleeding_out: bool = False
    dead: bool = False
    conditions: tuple[Condition, ...] = ()
    injuries: tuple[Injury, ...] = ()
    # Turn bookkeeping: durations count the owner's own turn starts and ends.
    turns_started: int = 0
    turns_ended: int = 0
    # This turn:
    actions_declared: int = 0  # 0 = nothing declared yet (one action)
    actions_used: int = 0
    chase_actions: Zero = 0  # actions this turn's chase turn took (seed 001 line 15)
    rolled: bool = False  # a roll was made this turn (declaration is closed)
    free_only: bool = False  # failed the Spirit roll: free actions only (line 68)
    full_turn: str = ""  # "defend" or "aim": no other actions this turn

    @property
    def in_turn(self) -> bool:
        return self.turns_started > self.turns_ended

    def has(self, kind: str) -> bool:
        return any(c.kind == kind for c in self.conditions)

    def condition(self, kind: str) -> Condition | None:
        return next((c for c in self.conditions if c.kind == kind), None)

    @property
    def distracted(self) -> bool:
        """Distracted directly or through Entangled or Bound (seed 000 lines 81-82). Stunned
        adds its own Distracted condition, which expires as usual (official SWADE)."""
        return any(self.has(k) for k in ("distracted", "entangled", "bound"))

    @property
    def vulnerable(self) -> bool:
        """Vulnerable directly, through Bound (line 82) or while Stunned (official SWADE)."""
        return self.stunned or self.has("vulnerable") or self.has("bound")

    @property
    def out(self) -> bool:
        return self.dead or self.incapacitated


@dataclass(frozen=True, slots=True)
class Character(Coded):
    id: str
    name: str
    wild: bool = False
    owner: int | None = None  # Telegram user id; None for an NPC
    attributes: tuple[tuple[str, Die], ...] = tuple((a, Die(4)) for a in ATTRIBUTES)
    skills: tuple[tuple[str, Die], ...] = ()
    parry: int = 2
    toughness: int = 4  # armor included
    armor: int = 0  # the armor part of Toughness (AP only reduces this part)
    pace: int = 6
    bennies: int = 0
    edges: tuple[str, ...] = ()  # codes of KNOWN_EDGES, other names as written
    status: Status = field(default_factory=Status)

    def die(self, trait: str) -> Die | None:
        for name, die in self.attributes + self.skills:
            if name == trait:
                return die
        return None

    def has_edge(self, code: str) -> bool:
        return code in self.edges

    @property
    def hardy(self) -> bool:
        return self.has_edge("hardy")

    def wound_penalty(self) -> int:
        """−1 per Wound, at most −3 (line 73); Nerves of Steel ignores one, Improved two."""
        ignored = 2 if self.has_edge("improved_nerves_of_steel") else 0
        ignored = ignored or (1 if self.has_edge("nerves_of_steel") else 0)
        return -min(MAX_PENALTY, max(0, self.status.wounds - ignored))

    def fatigue_penalty(self) -> int:
        return -min(2, self.status.fatigue)

    def current_pace(self) -> int:
        """Pace minus the wound penalty (line 73: «−1 к Темпу»)."""
        return max(0, self.pace + self.wound_penalty())

    def current_parry(self) -> int:
        return self.parry + (4 if self.status.has("defend") else 0)

    def with_status(self, **changes: Any) -> Character:
        return dataclasses.replace(self, status=dataclasses.replace(self.status, **changes))

    def with_conditions(self, conditions: tuple[Condition, ...]) -> Character:
        return self.with_status(conditions=conditions)
