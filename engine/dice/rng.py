"""Random number sources. Randomness is always a parameter, never module state."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Protocol, runtime_checkable


@runtime_checkable
class Rng(Protocol):
    """Anything with ``randint(a, b)`` inclusive, e.g. ``random.Random(seed)``."""

    def randint(self, a: int, b: int) -> int: ...


def system_rng() -> Rng:
    """The production source: OS entropy."""
    return secrets.SystemRandom()


class ScriptExhausted(RuntimeError):
    """A ScriptedRng was asked for more faces than were scripted."""


class ScriptedRng:
    """Returns the scripted faces in order (tests); checks each face is within [a, b]."""

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = list(faces)
        self._next = 0

    @property
    def remaining(self) -> int:
        return len(self._faces) - self._next

    def randint(self, a: int, b: int) -> int:
        if self._next >= len(self._faces):
            raise ScriptExhausted(f"scripted faces exhausted after {len(self._faces)} draws")
        face = self._faces[self._next]
        if not a <= face <= b:
            raise ValueError(f"scripted face {face} is outside [{a}, {b}]")
        self._next += 1
        return face
