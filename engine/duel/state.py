"""The duel's state between turns: both fighters with what carries over to the next turn.

«Два игрока на ветку, ходят в произвольном порядке, затем резолв и так до победного.»
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from engine.codec import Coded

from .errors import DuelError
from .fighter import START_SP, Fighter
from .options import DEFAULT_OPTIONS, DuelOptions
from .series import NO_SERIES, Series


@dataclass(frozen=True, slots=True)
class FighterState:
    """``standing_up``: knocked down last turn («На следующий ход противник тратит одно
    действие на то, чтобы подняться на ноги»); ``lost_actions``: parried («Парирование
    лишает атакующего одного действия на следующий ход») or a trick's effect;
    ``extra_actions``: a critical attack («получает дополнительное действие в следующем
    раунде»); ``attack_bonus``: one-time, the flanking margin and a trick's bonus;
    ``exhausted_turns``: «истощение на столько ходов, сколько минусов получил к пулу СП»."""

    id: str
    fighter: Fighter
    hp: int
    sp: int = START_SP
    exhausted_turns: int = 0
    bleeding_turns: int = 0
    standing_up: bool = False
    lost_actions: int = 0
    extra_actions: int = 0
    attack_bonus: int = 0
    defense_bonus: int = 0
    series: Series = NO_SERIES

    @property
    def dead(self) -> bool:
        """«Снижаются до нуля или меньше - боец погиб.»"""
        return self.hp <= 0

    @property
    def exhausted(self) -> bool:
        """«Если в начале хода у бойца нет СП, он находится в состоянии истощения»."""
        return self.sp <= 0 or self.exhausted_turns > 0


@dataclass(frozen=True, slots=True)
class DuelState(Coded):
    fighters: tuple[FighterState, FighterState]
    turn: int = 1
    options: DuelOptions = DEFAULT_OPTIONS

    def fighter(self, fighter_id: str) -> FighterState:
        for f in self.fighters:
            if f.id == fighter_id:
                return f
        raise DuelError("unknown_fighter", {"fighter": fighter_id})

    def opponent(self, fighter_id: str) -> FighterState:
        me = self.fighter(fighter_id)
        return self.fighters[1] if self.fighters[0] is me else self.fighters[0]

    @property
    def over(self) -> bool:
        return any(f.dead for f in self.fighters)

    def __iter__(self) -> Iterator[FighterState]:
        return iter(self.fighters)


def new_duel(
    a: Fighter, b: Fighter, options: DuelOptions | None = None, ids: tuple[str, str] = ("a", "b")
) -> DuelState:
    if ids[0] == ids[1]:
        raise ValueError("the fighters need two ids")
    return DuelState(
        (FighterState(ids[0], a, a.stats.hp), FighterState(ids[1], b, b.stats.hp)),
        options=options or DEFAULT_OPTIONS,
    )
