"""The maneuvering roll record stored in events (the dice engine makes the roll itself)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.codec import Coded

SUCCESS_OUTCOMES = ("success", "raise")


@dataclass(frozen=True, slots=True)
class ManeuverRoll(Coded):
    """A maneuvering trait roll: the labelled modifiers we asked for, the outcome the dice
    engine gave, and its full result (``TraitResult.to_dict()``) for audit and rendering."""

    skill: str
    modifiers: tuple[tuple[str, int], ...]
    total: int
    outcome: str  # "critical_failure" | "failure" | "success" | "raise"
    raises: int
    result: dict[str, Any]

    @property
    def success(self) -> bool:
        return self.outcome in SUCCESS_OUTCOMES

    @property
    def critical_failure(self) -> bool:
        return self.outcome == "critical_failure"

    @property
    def modifier_total(self) -> int:
        return sum(v for _, v in self.modifiers)
