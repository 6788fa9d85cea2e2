"""Per-game options: the readings of seed 002's ambiguous sentences and the tables the seed
lists in its contents but does not contain (weapons, armor, health, healing times). Every default is
DESIGN.md's («Rules where the seeds are silent») or named a default in
docs/rules/storyteller.md; a game may replace any of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.codec import Coded

# «Игрок может ... полагаться только на Атрибут, если нет необходимой Способности. Это
# усложняет действие или делает его невозможным.»
HARDER = "harder"  # the attribute alone, difficulty + missing_ability_step (the default)
ATTRIBUTE_ONLY = "attribute_only"  # the attribute alone, the same difficulty
IMPOSSIBLE = "impossible"  # refused
MISSING_ABILITY_READINGS = (HARDER, ATTRIBUTE_ONLY, IMPOSSIBLE)

BASHING, LETHAL, AGGRAVATED = "bashing", "lethal", "aggravated"
DAMAGE_TYPES = (BASHING, LETHAL, AGGRAVATED)


@dataclass(frozen=True, slots=True)
class HealthLevel:
    code: str
    penalty: int  # dice taken away while this is the worst level marked
    name: str  # Russian, for the sheet and the board


@dataclass(frozen=True, slots=True)
class Weapon:
    """A table row: damage is ``damage`` (+ Strength when ``strength``)."""

    name: str
    damage: int
    damage_type: str
    difficulty: int
    ability: str  # brawl | melee | firearms | athletics (thrown)
    strength: bool = False

    @property
    def ranged(self) -> bool:
        return self.ability in RANGED_ABILITIES


@dataclass(frozen=True, slots=True)
class Armor:
    name: str
    rating: int
    dex_penalty: int


@dataclass(frozen=True, slots=True)
class AimTarget:
    """Seed «Прицеливание»: «Цель: Сложность // Повреждение»."""

    code: str
    difficulty: int
    damage: int
    name: str


RANGED_ABILITIES = frozenset({"firearms", "athletics"})

# DESIGN.md: «Health levels: Bruised 0, Hurt −1, Injured −1, Wounded −2, Mauled −2,
# Crippled −5, Incapacitated»
DEFAULT_HEALTH: tuple[HealthLevel, ...] = (
    HealthLevel("bruised", 0, "Ушиблен"),
    HealthLevel("hurt", 1, "Поранен"),
    HealthLevel("injured", 1, "Ранен"),
    HealthLevel("wounded", 2, "Тяжело ранен"),
    HealthLevel("mauled", 2, "Изувечен"),
    HealthLevel("crippled", 5, "Искалечен"),
    HealthLevel("incapacitated", 0, "Недееспособен"),
)

# Defaults (the seed's «Таблица холодного оружия», «Таблица огнестрельного оружия» are absent)
DEFAULT_WEAPONS: tuple[Weapon, ...] = (
    Weapon("Кулак", 0, BASHING, 6, "brawl", strength=True),
    Weapon("Пинок", 1, BASHING, 7, "brawl", strength=True),
    Weapon("Дубинка", 2, BASHING, 4, "melee", strength=True),
    Weapon("Нож", 1, LETHAL, 4, "melee", strength=True),
    Weapon("Меч", 2, LETHAL, 6, "melee", strength=True),
    Weapon("Топор", 3, LETHAL, 7, "melee", strength=True),
    Weapon("Пистолет", 4, LETHAL, 6, "firearms"),
    Weapon("Тяжёлый пистолет", 5, LETHAL, 6, "firearms"),
    Weapon("Дробовик", 8, LETHAL, 6, "firearms"),
    Weapon("Винтовка", 8, LETHAL, 8, "firearms"),
    Weapon("Метательный нож", 1, LETHAL, 6, "athletics", strength=True),
)

# Defaults (the seed's «Таблица брони» is absent): rating / Dexterity penalty
DEFAULT_ARMOR: tuple[Armor, ...] = (
    Armor("Укреплённая одежда", 1, 0),
    Armor("Бронефутболка", 2, 1),
    Armor("Кевларовый жилет", 3, 1),
    Armor("Бронежилет", 4, 2),
    Armor("Полное снаряжение", 5, 3),
)

# Seed «Прицеливание»: «Средняя (нога, рука, портфель): +1 // Модификатора нет / Маленькая
# (кисть руки, голова, оружие): +2 // +1 / Очень маленькая (глаз, сердце, висячий замок): +3 // +2»
SEED_AIM_TARGETS: tuple[AimTarget, ...] = (
    AimTarget("medium", 1, 0, "Средняя"),
    AimTarget("small", 2, 1, "Маленькая"),
    AimTarget("tiny", 3, 2, "Очень маленькая"),
)


@dataclass(frozen=True, slots=True)
class HealTime:
    """How long one marked level takes to heal: ``hours`` for a damage type at a level."""

    damage_type: str
    level: str  # HealthLevel.code
    hours: int


_H, _D = 1, 24
# Default (the seed's «Время излечения» is absent): bashing heals in hours, lethal in days to
# months; aggravated as lethal — seed 002 «Усиливающиеся повреждения»: «Эти повреждения
# заживают с такой же скоростью, что и летальные повреждения.»
_LETHAL_HOURS = (
    ("bruised", 1 * _D),
    ("hurt", 3 * _D),
    ("injured", 7 * _D),
    ("wounded", 30 * _D),
    ("mauled", 60 * _D),
    ("crippled", 90 * _D),
    ("incapacitated", 90 * _D),
)
_BASHING_HOURS = (
    ("bruised", 1 * _H),
    ("hurt", 1 * _H),
    ("injured", 1 * _H),
    ("wounded", 3 * _H),
    ("mauled", 6 * _H),
    ("crippled", 12 * _H),
    ("incapacitated", 24 * _H),
)
DEFAULT_HEALING: tuple[HealTime, ...] = (
    *(HealTime(BASHING, code, h) for code, h in _BASHING_HOURS),
    *(HealTime(LETHAL, code, h) for code, h in _LETHAL_HOURS),
    *(HealTime(AGGRAVATED, code, h) for code, h in _LETHAL_HOURS),
)


@dataclass(frozen=True, slots=True)
class Options(Coded):
    missing_ability: str = HARDER
    missing_ability_step: int = 1
    health: tuple[HealthLevel, ...] = DEFAULT_HEALTH
    weapons: tuple[Weapon, ...] = DEFAULT_WEAPONS
    armor: tuple[Armor, ...] = DEFAULT_ARMOR
    aim_targets: tuple[AimTarget, ...] = SEED_AIM_TARGETS
    healing: tuple[HealTime, ...] = DEFAULT_HEALING
    # the maneuvers' table (the seed's «Таблица маневров в ближнем/дальнем бою» is absent):
    # its text's numbers — «сбоку, вам добавляется один кубик», «с тыла ... на два кубика»,
    # «сложность атаки увеличивается на 2» (blind)
    flank_dice: int = 1
    rear_dice: int = 2
    blind_difficulty: int = 2
    # reading of «Если урон ... до поглощения, в два раза превышает рейтинг брони, то броня
    # считается уничтоженной»: the armor still soaks the attack that destroys it
    armor_soaks_destroying_attack: bool = True
    max_actions: int = 3
    # damage and soak rolls: «Каждый успешный балл, полученный при броске, наносит жертве один
    # уровень повреждений», «Каждый успешный бросок снижает уровень повреждений на одну
    # единицу» — every success counts (False, the seed's words); True: each 1 cancels one
    # success there too, as on every other roll (the engine's earlier reading)
    ones_cancel_damage: bool = False
    # «разница вычитается из результата атаки. Все дополнительные успешные баллы повышают
    # потенциальные повреждения»: False — the first remaining success is the hit, each further
    # one a damage die; True — every remaining success is a damage die (as a parry's surplus)
    all_extra_damage: bool = False
    # «Если у двух игроков инициативы совпадают, они считаются действующими одновременно»: a
    # fighter taken out by someone of the same total before it acted still makes its action
    # this turn (False: one after the other — it loses the action)
    simultaneous_ties: bool = True
    # «В начале боя все игроки бросают один кубик и добавляют результат к своей инициативе»:
    # each fighter's die is rolled once, at its first turn; later turns recount the total
    # (the wound penalty). False: a new die every turn (the engine's earlier reading)
    initiative_once: bool = True
    # the NPCs' health, Willpower and pools are the GM's (a player sees only what a roll did)
    hide_npcs: bool = True
    # DESIGN.md decision 5: an attack is first the GM's proposal (off: published at once)
    gm_review: bool = True
    # the defender chooses («Маневры по защите»: the defender's maneuvers): a player whose
    # character is attacked without a defense named gets this many seconds to tap one (0: not
    # asked — the GM sets it in the review); when they run out, ``defense_by_default`` makes
    # the largest pool that spends nothing (no interrupt), or no defense when False
    defense_seconds: int = 60
    defense_by_default: bool = True

    def aim_target(self, code: str) -> AimTarget | None:
        return next((t for t in self.aim_targets if t.code == code), None)

    def weapon(self, name: str) -> Weapon | None:
        key = name.strip().lower().replace("ё", "е")
        return next((w for w in self.weapons if w.name.lower().replace("ё", "е") == key), None)

    def armor_named(self, name: str) -> Armor | None:
        key = name.strip().lower().replace("ё", "е")
        return next((a for a in self.armor if a.name.lower().replace("ё", "е") == key), None)


DEFAULT_OPTIONS = Options()
