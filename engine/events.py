"""The one base of every rule system's events: facts a scene's ``decide`` produces and its
``evolve`` applies, each with ``step`` (the command that produced it). A system's own base
derives from it and names its codec family once the family is built (``Event.family =
EVENTS``), which gives an event's stored form (``to_dict``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine import codec


@dataclass(frozen=True, slots=True)
class Event:
    step: int
    family: ClassVar[codec.Family[Any]]

    def to_dict(self) -> dict[str, Any]:
        return self.family.to_data(self)
