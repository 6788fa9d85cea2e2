"""Series of attacks (seed 003): «Атаки, проведенные подряд или через одно защитное действие,
считаются серией атак ... Серия атак прерывается на трюке. Парирование прерывает серию.»"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Series:
    """``length``: attacks in the current series; ``gap``: defense actions since its last
    attack (one keeps the series, two break it)."""

    length: int = 0
    gap: int = 0

    def attack(self) -> Series:
        return Series(self.length + 1 if self.length and self.gap <= 1 else 1, 0)

    def defense(self, actions: int = 1) -> Series:
        gap = self.gap + actions
        return Series(self.length if gap <= 1 else 0, gap)

    def broken(self) -> Series:
        """A trick, standing up or a parry: «Серия атак прерывается на трюке»."""
        return Series()


NO_SERIES = Series()
