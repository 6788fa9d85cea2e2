"""The classes the seed names, as data of the same type as the GM's own (fighter.py).

The seed says of them only: the raider's example («рейдер решил добить истощенного
противника... наносит две атаки, базовую за 1Сп, и еще одну базовую за 2 СП вместо
защитного действия»), the kensei's exception («кенсей, он может уйти в глухую защиту
уклонением») and the orochi's («За счет АП нельзя увеличивать урон (есть исключение -
орочи)»). Their other moves and trick effects below are sample data (docs/rules/duel.md):
the GM replaces them or defines classes of their own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .errors import DuelError
from .fighter import BASE_MOVE, PLAIN, FighterClass, Move, TrickEffect

RAIDER = FighterClass(
    "raider",
    "Рейдер",
    moves=(
        Move(BASE_MOVE, "Атака"),
        Move("cleave", "Рассекающий удар", sp=2, bleeding=True),
        Move("shield_bash", "Удар щитом", sp=2, knockdown=True),
    ),
    trick=TrickEffect("knockdown", 1),
)
KENSEI = FighterClass(
    "kensei",
    "Кенсей",
    moves=(
        Move(BASE_MOVE, "Атака"),
        Move("flurry", "Вихрь клинка", sp=2, hits=2),
    ),
    trick=TrickEffect("attack_bonus", 2),
    full_dodge=True,
    dodge_effect=TrickEffect("attack_bonus", 1),
)
OROCHI = FighterClass(
    "orochi",
    "Орочи",
    moves=(
        Move(BASE_MOVE, "Атака"),
        Move("serpent_strike", "Змеиный укус", sp=2, unblockable=True),
    ),
    trick=TrickEffect("bleeding", 1),
    ap_to_damage=True,
)

BUILTIN: dict[str, FighterClass] = {c.code: c for c in (PLAIN, RAIDER, KENSEI, OROCHI)}
# names a sheet may give a built-in class by (lower case)
_ALIASES = {"рейдер": "raider", "кенсей": "kensei", "орочи": "orochi", "боец": "plain"}


def validate_class(c: FighterClass) -> FighterClass:
    """A GM's class is accepted when it has moves with distinct codes and positive costs."""
    codes = [m.code for m in c.moves]
    if (
        not c.moves
        or len(set(codes)) != len(codes)
        or any(m.sp < 1 or m.hits < 1 or (m.damage_die or 2) < 2 for m in c.moves)
        or c.extra_attacks < 0
    ):
        raise DuelError("bad_class")
    return c


def class_table(extra: Iterable[FighterClass] = ()) -> dict[str, FighterClass]:
    """The built-in classes and the GM's (a GM class of the same code replaces the built-in)."""
    table = dict(BUILTIN)
    for c in extra:
        table[c.code] = validate_class(c)
    return table


def find_class(text: str, table: Mapping[str, FighterClass]) -> FighterClass:
    """A class by its code or its name (case-insensitive)."""
    key = text.strip().lower()
    key = _ALIASES.get(key, key)
    found = table.get(key) or next((c for c in table.values() if c.name.lower() == key), None)
    if found is None:
        raise DuelError("unknown_class", {"text": text.strip()[:40]})
    return found
