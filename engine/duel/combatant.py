"""A fighter in a duel: the sheet and what carries over from one turn to the next."""

from __future__ import annotations

from dataclasses import dataclass

from .fighter import START_SP, Fighter
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
    owner: int | None = None  # the player's user id (None: the GM plays it)
    sp: int = START_SP
    exhausted_turns: int = 0
    bleeding_turns: int = 0
    standing_up: bool = False
    lost_actions: int = 0
    extra_actions: int = 0
    attack_bonus: int = 0
    defense_bonus: int = 0
    series: Series = NO_SERIES
    # the pool is at 0 or below from an overspend whose turns of exhaustion pay for it (the
    # reading ``exhaustion = "counter"``, options.py): no SP is then no exhaustion by itself
    in_debt: bool = False

    @property
    def dead(self) -> bool:
        """«Снижаются до нуля или меньше - боец погиб.»"""
        return self.hp <= 0

    @property
    def exhausted(self) -> bool:
        """«Если в начале хода у бойца нет СП, он находится в состоянии истощения», and
        «истощение на столько ходов, сколько минусов получил к пулу СП»."""
        return self.exhausted_turns > 0 or (self.sp <= 0 and not self.in_debt)
