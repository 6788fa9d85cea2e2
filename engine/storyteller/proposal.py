"""The dice of a proposal: a tape that replays the faces a proposal drew and, when an
adjustment needs more (the GM added dice), draws and records new ones. Publishing replays
the tape alone, so the table gets exactly the roll the GM saw."""

from __future__ import annotations

from engine.dice.rng import Rng, ScriptExhausted


class Tape:
    """``randint`` from ``faces`` first, then from ``rng`` (None: no new draws allowed)."""

    def __init__(self, faces: tuple[int, ...] = (), rng: Rng | None = None) -> None:
        self._faces = list(faces)
        self._next = 0
        self._rng = rng

    @property
    def used(self) -> tuple[int, ...]:
        """The faces drawn so far (replayed and new), in order."""
        return tuple(self._faces[: self._next])

    def randint(self, a: int, b: int) -> int:
        if self._next < len(self._faces):
            face = self._faces[self._next]
            if not a <= face <= b:  # the tape belongs to another roll: draw anew
                face = self._draw(a, b)
                self._faces[self._next] = face
        else:
            face = self._draw(a, b)
            self._faces.append(face)
        self._next += 1
        return face

    def _draw(self, a: int, b: int) -> int:
        if self._rng is None:
            raise ScriptExhausted("a published proposal draws no new dice")
        return self._rng.randint(a, b)
