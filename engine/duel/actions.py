"""What a fighter declares for a turn (seed 003): «Первое действие: атака, или трюк. Второе
действие: защита блоком либо защита уклонением. Защитное действие можно потратить на атаку,
но она будет на 1СП дороже»; «Глухая оборона: боец может уйти в защитную стойку, потратив оба
действия на защиту оружием». Each action carries the AP put into it, and the
situational bonus the player counts («Да, желательно самим считать всякие ситуативные
бонусы +1 к атаке и т.д.»; the GM may change it in the review).

Actions are stored as ``{"kind": <tag>, …fields}`` (engine.codec ``Tagged``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Literal

from engine import codec

Direction = Literal["left", "right", "top"]
DIRECTIONS: tuple[Direction, ...] = ("left", "right", "top")


class _Action:
    __slots__ = ()
    # decoded as __init__ builds them: ``kind`` stays the class default
    __get_pydantic_core_schema__: ClassVar[Any] = classmethod(codec.init_defaults)
    actions: ClassVar[int] = 1  # how many of the turn's actions it takes

    def ap_spent(self) -> int:
        return int(getattr(self, "ap", 0))


@dataclass(frozen=True)
class Attack(_Action):
    """«Атаковать можно слева, справа или сверху»; ``damage_ap`` only where the class allows
    it («За счет АП нельзя увеличивать урон (есть исключение - орочи)»)."""

    kind: str = field(default="attack", init=False)
    direction: Direction = "left"
    move: str = "attack"
    ap: int = 0
    damage_ap: int = 0
    situational: int = 0

    def ap_spent(self) -> int:
        return self.ap + self.damage_ap


@dataclass(frozen=True)
class Trick(_Action):
    """«d10 против фиксированной сложности, с успехом на 6+»; ``ease``: steps of difficulty
    bought with 2 AP each («Потратив 2АП, можно снизить сложность выполнения трюка на 1»)."""

    kind: str = field(default="trick", init=False)
    ap: int = 0
    ease: int = 0
    situational: int = 0

    def ap_spent(self) -> int:
        return self.ap + 2 * self.ease


@dataclass(frozen=True)
class Block(_Action):
    kind: str = field(default="block", init=False)
    direction: Direction = "left"
    ap: int = 0
    situational: int = 0


@dataclass(frozen=True)
class Dodge(_Action):
    kind: str = field(default="dodge", init=False)
    direction: Direction = "left"
    ap: int = 0
    situational: int = 0


@dataclass(frozen=True)
class FullDefense(_Action):
    """Both actions on defense: two rolls, the higher counts; ``dodge`` for the kensei."""

    kind: str = field(default="full_defense", init=False)
    actions: ClassVar[int] = 2
    direction: Direction = "left"
    ap: int = 0
    dodge: bool = False
    situational: int = 0


def _tag(cls: type) -> str:
    for f in dataclasses.fields(cls):
        if f.name == "kind" and isinstance(f.default, str):
            return f.default
    raise TypeError(cls.__name__)


Action = Annotated[Attack | Trick | Block | Dodge | FullDefense, codec.Tagged("kind", _tag)]
DEFENSES = (Block, Dodge, FullDefense)
