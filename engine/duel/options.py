"""Per-game readings of the seed's ambiguous sentences (docs/rules/duel.md quotes each one).
The defaults are the readings chosen there; the GM may switch any of them per game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.codec import Coded


@dataclass(frozen=True, slots=True)
class DuelOptions(Coded):
    # «В случае ничьей защита > атака» vs «Если чек уклонения выше чека атаки»: a tied dodge
    # goes to the defense ("defense") or to the attack ("attack").
    dodge_tie: Literal["defense", "attack"] = "defense"
    # «атака пробивает блок, нанося 1/2 гарантированного урона»: half of the guaranteed part
    # X/2 ("half", X/4) or the guaranteed part X/2 itself ("guaranteed").
    wrong_side_damage: Literal["half", "guaranteed"] = "half"
    # «успешным считается больший результат, либо ничья»: on a tie both tricks succeed
    # ("both") or neither does ("neither").
    trick_tie: Literal["both", "neither"] = "both"
    # what a series grants (the seed defines it, grants nothing by itself): +N to each attack
    # that continues a series.
    series_bonus: int = 0
    # «Защититься можно только парированием или уклонением»: a parry (right side, block roll
    # at least the attack) stops an unblockable attack (True), or nothing blocks it (False).
    unblockable_parry: bool = True
    # a critical defense (natural 10) against a critical attack: the defense's critical
    # stops it ("defense") or the critical attack's rule applies ("attack").
    critical_clash: Literal["defense", "attack"] = "defense"
    # the opposite side of a blow from the top: none ("none") or either side ("sides").
    top_opposite: Literal["none", "sides"] = "none"
    # «защита оружием восстанавливает бойцу 1СП, если защита не была пробита»: also when no
    # attack came (True), or only after an attack was turned (False).
    idle_block_recovers: bool = True
    # the seed's kensei full dodge: it covers every attack of the turn (True) or one (False).
    full_dodge_covers_all: bool = True
    # «1 на d10 - критический провал»: a natural 1 on an attack misses whatever the defense
    # ("miss"), or it is only a low total ("roll", as before this reading was written).
    attack_fumble: Literal["miss", "roll"] = "miss"
    # no SP maximum in the seed: None keeps it so; a number caps the recovery.
    sp_cap: int | None = None
    # «В случае если противник также заявляет трюк, успешным считается больший результат»:
    # two tricks are an opposed roll, the higher result succeeds even below 6 ("opposed"),
    # or each is first its own check against 6+ and only two successes compare ("checked").
    trick_contest: Literal["checked", "opposed"] = "checked"
    # «состояние истощения на два раунда» (the raider example): an overspend exhausts for as
    # many turns as the SP overspent and no longer, the pool it left below 1 included
    # ("counter"); or also while the pool is at 0 or below when a turn starts ("sp").
    exhaustion: Literal["sp", "counter"] = "sp"


# What a duel stored without a field means: the engine's readings before each one became an
# option (a duel running keeps its readings; docs/rules/duel.md).
DEFAULT_OPTIONS = DuelOptions()
# What a new game starts with (stored on the game when it is created, so that a later change
# here never changes a game already running): the seed's words where the audit of issue 26
# found the older reading stretching them (docs/rules/duel.md, «Readings that stretch…»).
NEW_GAME_OPTIONS = DuelOptions(
    full_dodge_covers_all=False,
    wrong_side_damage="guaranteed",
    trick_contest="opposed",
    exhaustion="counter",
)

# The seed's sentences each reading comes from, as quoted (" … " between two sentences): the
# Mini App shows them with the choices (docs/rules/duel.md gives the whole argument).
SEED_SENTENCES: dict[str, str] = {
    "dodge_tie": (
        "Если чек уклонения выше чека атаки противника, боец уклонился. … "
        "В случае ничьей защита > атака."
    ),
    "wrong_side_damage": (
        "Если выбрано ошибочное направление защиты, атака пробивает блок, нанося 1/2 "
        "гарантированного урона. … 1/2X - гарантированный урон."
    ),
    "trick_tie": (
        "В случае если противник также заявляет трюк, успешным считается больший результат, "
        "либо ничья."
    ),
    "series_bonus": (
        "Атаки, проведенные подряд или через одно защитное действие, считаются серией атак."
    ),
    "unblockable_parry": (
        "Неблокируемая атака - соответственно, атака которая автоматически пробивает защиту "
        "оружием. Защититься можно только парированием или уклонением."
    ),
    "critical_clash": (
        "Критическая атака автоматически бьет защиту, даже если бросок защиты был больше. … "
        "Критический успех при проверке защиты оружием позволяет избежать любых атак в этот "
        "ход, кроме неблокируемых, и восстановить 2СП."
    ),
    "top_opposite": (
        "Атаковать можно слева, справа или сверху. … Уклонение в сторону, противоположную "
        "атаке противника, помогает избежать удара даже при провале по броску (кроме "
        "критического провала)."
    ),
    "idle_block_recovers": (
        "Нюансы: защита оружием восстанавливает бойцу 1СП, если защита не была пробита "
        "противником в течение этого хода."
    ),
    "full_dodge_covers_all": (
        "исключение - кенсей, он может уйти в глухую защиту уклонением … "
        "Уклонение защищает только от одной атаки."
    ),
    "attack_fumble": (
        "Чистая 10 на d10 - критический успех любого действия, 1 на d10 - критический провал."
    ),
    "sp_cap": (
        "У каждого бойца в начале схватки есть 4СП. … Успешное действие защиты "
        "восстанавливает 1СП в начале следующего хода."
    ),
    "trick_contest": (
        "d10 против фиксированной сложности, с успехом на 6+. … В случае если противник "
        "также заявляет трюк, успешным считается больший результат, либо ничья."
    ),
    "exhaustion": (
        "Если в начале хода у бойца нет СП, он находится в состоянии истощения. … "
        "получает -2 к пулу СП на начало следующего хода и состояние истощения на два раунда."
    ),
}


# What happens when a turn's time runs out with a submission missing (docs/rules/duel.md,
# «Deadline»): the GM is told and may seal a default defense ("ask"); the default defense is
# sealed at once ("defend"); or the turn waits, the fighters reminded ("wait").
Policy = Literal["ask", "defend", "wait"]
POLICIES: tuple[Policy, ...] = ("ask", "defend", "wait")
MAX_DEADLINE_HOURS = 24 * 30


@dataclass(frozen=True, slots=True)
class Deadline(Coded):
    """The time each turn of a duel has, from its start, and what happens when it is out."""

    hours: int
    policy: Policy = "ask"
