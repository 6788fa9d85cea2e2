"""Fighters and their classes as data (seed 003).

«Атака X, Блок X, Уклонение X, Урон dX, Хп X, Броня X, где X - число.» A class is plain
data of the same types whether it is one of the built-in ones (classes.py) or the GM's own:
moves with their SP cost, damage die and flags, the trick's effect, and the exceptions the
seed names (the kensei's full defense by dodging, the orochi's AP into damage).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.codec import Coded

START_SP = 4  # «У каждого бойца в начале схватки есть 4СП.»
TURN_AP = 3  # «У каждого бойца в начале хода есть 3 АП.»
MAX_AP_PER_ACTION = 3  # «К одному и тому же действию ... нельзя добавлять более 3-х АП.»
BASE_MOVE = "attack"


@dataclass(frozen=True, slots=True)
class Stats:
    """«Атака: бонус к атаке оружием; Блок: бонус к защите оружием; Уклонение: бонус к защите
    уклонением; Урон: базовый урон от атаки оружием»; ``damage_die`` is X of dX."""

    attack: int
    block: int
    dodge: int
    damage_die: int
    hp: int
    armor: int = 0


@dataclass(frozen=True, slots=True)
class Move:
    """An attack: «Атакующие действия, как правило, требуют затрат СП»; «Некоторые атаки
    требуют затрат 2 или более СП». ``damage_die`` None: the fighter's weapon die. ``hits``:
    blows of one attack («Если боец за одну атаку наносит несколько ударов, значение брони
    вычитается из каждого»)."""

    code: str
    name: str
    sp: int = 1
    damage_die: int | None = None
    hits: int = 1
    unblockable: bool = False
    bleeding: bool = False
    knockdown: bool = False


@dataclass(frozen=True, slots=True)
class TrickEffect:
    """«Эффект удачного трюка зависит от класса бойца»: it holds on the next turn.

    ``kind``: ``attack_bonus`` / ``defense_bonus`` (+value to the rolls of the next turn),
    ``knockdown`` (the opponent spends an action standing up), ``bleeding`` (the opponent
    bleeds), ``lose_action`` (the opponent has one action fewer), ``sp`` (+value SP)."""

    kind: str = "attack_bonus"
    value: int = 1


TRICK_KINDS = ("attack_bonus", "defense_bonus", "knockdown", "bleeding", "lose_action", "sp")


@dataclass(frozen=True, slots=True)
class FighterClass(Coded):
    """``full_dodge``: «исключение - кенсей, он может уйти в глухую защиту уклонением»;
    ``ap_to_damage``: «За счет АП нельзя увеличивать урон (есть исключение - орочи)»;
    ``extra_attacks``: «Некоторые персонажи в определенных условиях способны произвести
    больше атак» — attacks a turn may hold beyond its actions, at their moves' cost;
    ``dodge_effect``: «некоторым классам доступны особые действия после уклонения» — an
    effect of the trick kinds after a turn in which the fighter dodged an attack."""

    code: str
    name: str
    moves: tuple[Move, ...] = (Move(BASE_MOVE, "Атака"),)
    trick: TrickEffect = TrickEffect()
    full_dodge: bool = False
    ap_to_damage: bool = False
    extra_attacks: int = 0
    dodge_effect: TrickEffect | None = None

    def move(self, code: str) -> Move | None:
        return next((m for m in self.moves if m.code == code), None)


PLAIN = FighterClass("plain", "Боец")


@dataclass(frozen=True, slots=True)
class Fighter(Coded):
    """A fighter's sheet: name, stats and the class (a copy of its data: a duel stays as it
    was started whatever the GM later changes in the class)."""

    name: str
    stats: Stats
    fighter_class: FighterClass = PLAIN

    def move(self, code: str) -> Move | None:
        return self.fighter_class.move(code)

    def damage_die(self, move: Move) -> int:
        return move.damage_die or self.stats.damage_die
