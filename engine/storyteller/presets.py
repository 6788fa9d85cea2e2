"""The seed's numbered actions as presets (seed 002 «Физические действия», «Социальные
действия», «Интеллектуальные действия», «Автоматические действия»): each one's pool,
difficulty and kind (the table: preset_table.py), and what its successes mean (the
functions below).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.words import fold

from .character import Character
from .errors import StorytellerError
from .options import DEFAULT_OPTIONS, Options
from .pools import Part, Pool, action_pool, build

# the table, read through this module (explicit re-exports)
from .preset_table import AUTOMATIC as AUTOMATIC
from .preset_table import EXTENDED as EXTENDED
from .preset_table import OPPOSED as OPPOSED
from .preset_table import PRESETS as PRESETS
from .preset_table import SIMPLE as SIMPLE
from .preset_table import Preset as Preset

_BY_NAME = {fold(name): p for p in PRESETS for name in (p.code, *p.names)}


def find_preset(name: str) -> Preset | None:
    """A preset by its code or any of its Russian names (case and «ё» ignored)."""
    return _BY_NAME.get(fold(name))


def preset_named(name: str) -> Preset:
    found = find_preset(name)
    if found is None:
        raise StorytellerError("unknown_preset", {"name": name})
    return found


def preset_pool(
    character: Character,
    preset: Preset,
    choice: int = 0,
    *,
    difficulty: int | None = None,
    options: Options = DEFAULT_OPTIONS,
) -> Pool:
    """The pool of one of the preset's (attribute, ability) pairs; "willpower" is the
    permanent rating («бросок на Силу воли»)."""
    attribute, ability = preset.pools[choice]
    diff = preset.difficulty if difficulty is None else difficulty
    if attribute == "willpower":
        return build([Part("willpower", character.willpower)], [Part("base", diff)])
    return action_pool(character, attribute, ability, difficulty=diff, options=options)


def sheet_pool(
    character: Character, preset: Preset, options: Options = DEFAULT_OPTIONS
) -> tuple[int, Pool]:
    """The preset rolled from the roller's sheet (issue 25: `/p прыжок` without a number):
    of the seed's (attribute, ability) pairs — «Ремонт (Ловкость / Восприятие + Ремесло /
    Технология)» is four — the one that gives the most dice (then the lower difficulty, then
    the seed's order), with the wound penalty and the game's missing-ability reading applied.
    Its index and pool; StorytellerError when no pair can be rolled."""
    found: list[tuple[int, Pool]] = []
    error: StorytellerError | None = None
    for i in range(len(preset.pools)):
        try:
            found.append((i, preset_pool(character, preset, i, options=options)))
        except StorytellerError as e:  # the game's «impossible» without the ability
            error = e
    if not found:
        assert error is not None
        raise error
    return max(found, key=lambda f: (f[1].dice, -f[1].difficulty, -f[0]))


# --- what the successes mean -------------------------------------------------------------


def climb_metres(successes: int) -> int:
    """«ваш персонаж сможет преодолеть 3 метра за каждый успешный балл»"""
    return 3 * successes


def jump_metres(successes: int, *, up: bool) -> float:
    """«Ваш персонаж может прыгнуть на полметра вверх или на метр вперед за каждый успешный
    балл.»"""
    return successes * (0.5 if up else 1.0)


def jump_made(successes: int, needed: int) -> bool:
    """«Если общее количество успешных баллов не позволяет персонажу достичь цели, попытка
    считается неудачной.»"""
    return successes >= needed


def jump_needed(metres: float, *, up: bool) -> int:
    """The successes a jump needs — what a successful estimate tells («Если успех, вы узнаете,
    сколько успешных баллов нужно набрать для успешного прыжка»)."""
    step = 0.5 if up else 1.0
    return max(1, -int(-metres // step))


# «Уровень Силы - Пример - Вес (кг)»: DESIGN.md — «the 15 rows of seed 002 are Strength 1–15»
FEATS: tuple[tuple[int, str, int], ...] = (
    (1, "Разбить окно", 20),
    (2, "Сломать деревянный стул", 50),
    (3, "Взломать деревянный ящик", 120),
    (4, "Сломать доску 2 на 4", 200),
    (5, "Разогнуть звено в стальной цепи", 300),
    (6, "Разрушить железную ограду", 350),
    (7, "Перевернуть маленький автомобиль", 400),
    (8, "Согнуть арматурный стержень", 500),
    (9, "Пробить бетонную стену", 550),
    (10, "Вырвать стальные заклепки", 650),
    (11, "Согнуть дюймовый лист металла", 900),
    (12, "Выломать металлический фонарный столб", 1300),
    (13, "Перевернуть автомобиль", 1800),
    (14, "Перевернуть фургон", 2400),
    (15, "Перевернуть грузовик", 3000),
)


def feat_strength(strengths: Sequence[int], willpower_successes: int = 0) -> int:
    """The Strength a lift or a break counts: «Каждый успешный балл [Силы воли] временно
    увеличивает значение Силы на единицу»; «Несколько персонажей могут объединить усилия ...
    и суммируют успешные баллы Силы» (read: the team's Strength ratings add up)."""
    return sum(strengths) + willpower_successes


def heaviest_lift(strength: int) -> int:
    """The weight (kg) the table allows at this Strength (0 below the first row)."""
    rows = [kg for level, _, kg in FEATS if level <= strength]
    return rows[-1] if rows else 0


def feats_within(strength: int) -> tuple[str, ...]:
    return tuple(example for level, example, _ in FEATS if level <= strength)


@dataclass(frozen=True, slots=True)
class Load:
    difficulty: int  # added to physical actions
    speed: float  # a multiple of the normal speed
    can_move: bool


def carry_limit(strength: int) -> int:
    """«Максимальный вес, который он может нести, составляет 10 кг за каждую точку Силы.»"""
    return 10 * strength


def load(strength: int, kg: float) -> Load:
    """«Превышение этого предела увеличивает сложность действий, требующих физического
    напряжения, на единицу. При каждых дополнительных 10 кг ... его скорость движения
    уменьшается вдвое. Если персонаж пытается поднять в два раза больший вес, чем способен,
    он вообще не может двигаться.»"""
    limit = carry_limit(strength)
    if kg <= limit:
        return Load(0, 1.0, True)
    if kg >= 2 * limit:
        return Load(1, 0.0, False)
    extra_tens = -int(-(kg - limit) // 10)
    return Load(1, 0.5**extra_tens, True)


@dataclass(frozen=True, slots=True)
class Movement:
    walk: int
    run: int
    sprint: int


def movement(dexterity: int) -> Movement:
    """«Обычным шагом он проходит 5 метров за ход. При беге он пробегает 10 + Ловкость
    метров за ход, а при скоростном беге - 20 + (3 * Ловкость) метров.»"""
    return Movement(5, 10 + dexterity, 20 + 3 * dexterity)


ACTOR, OPPONENT, NOBODY = "actor", "opponent", "nobody"


def opposed(mine: int, theirs: int, *, tie: str = NOBODY) -> str:
    """«побеждает тот, кто набрал больше успешных баллов»; ``tie`` says who wins a tie where
    the seed says so (shadowing: «если равны, преследуемый не замечает наблюдателя» — the
    one shadowing wins)."""
    if mine > theirs:
        return ACTOR
    if theirs > mine:
        return OPPONENT
    return tie


def shadowing(mine: int, theirs: int) -> str:
    return opposed(mine, theirs, tie=ACTOR)


@dataclass(frozen=True, slots=True)
class Interrogation:
    """«Каждый успешный балл допрашивающего позволяет получить часть нужной информации. Если
    количество успешных баллов превышает Силу воли жертвы, она рассказывает все, что знает.
    Если допрос проводится несколькими персонажами, их успешные баллы суммируются»."""

    victim_willpower: int
    successes: int = 0

    def add(self, successes: int) -> Interrogation:
        return Interrogation(self.victim_willpower, self.successes + max(0, successes))

    @property
    def pieces(self) -> int:
        return self.successes

    @property
    def tells_all(self) -> bool:
        return self.successes > self.victim_willpower


def tracking_difficulty(base: int, cover_successes: int) -> int:
    """«Каждый успешный балл увеличивает сложность выслеживания на единицу.» (at most 10)"""
    return min(10, base + cover_successes)


def speech_difficulty(base: int, prepared_successes: int) -> int:
    """«Успешный балл из этого броска уменьшает сложность последующего броска на Обаяние +
    Лидерство на 1.» Read: each success lowers it by one, down to 2."""
    return max(2, base - prepared_successes)


def hacking_dice(successes: int, normal_pool: int) -> int:
    """«Успешные баллы определяют количество бросков (не превышающее вашего обычного запаса)
    при последующем взаимодействии с компьютером.»"""
    return min(successes, normal_pool)


def performance_result(successes: int) -> str:
    """«Один успешный балл означает, что ваше представление было приятным, но не более того.
    Дополнительные успешные баллы делают его запоминающимся»"""
    if successes <= 0:
        return "failed"
    return "pleasant" if successes == 1 else "memorable"


@dataclass(frozen=True, slots=True)
class Extended:
    """An extended action: successes accumulate towards ``target`` over several rolls
    («длительное действие, в котором игроки бросают кубики, чтобы набрать нужное количество
    успешных баллов»). Reading (a default): a botch ends it and loses what was gathered; a
    plain failure adds nothing («При неудаче можно попробовать еще раз, но сложность может
    увеличиться»)."""

    target: int
    total: int = 0
    rolls: int = 0
    failed: bool = False

    def add(self, successes: int, *, botch: bool = False) -> Extended:
        if botch:
            return Extended(self.target, 0, self.rolls + 1, True)
        return Extended(self.target, self.total + successes, self.rolls + 1, self.failed)

    @property
    def done(self) -> bool:
        return not self.failed and self.total >= self.target
