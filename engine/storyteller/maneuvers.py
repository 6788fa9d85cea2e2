"""Combat maneuvers (seed 002 «Маневры в бою»): ambush, blind fighting, flank and rear, aimed
attacks by the seed's target table."""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice.rng import Rng
from engine.storyteller.dice.results import PoolResult

from .character import Character
from .errors import StorytellerError
from .options import DEFAULT_OPTIONS, AimTarget, Options
from .pools import Part, action_pool

FLANK, REAR = "flank", "rear"
# «Если вы нападаете на свою жертву сбоку, вам добавляется один кубик ... Если вы нападаете с
# тыла, ваш запас бросков увеличивается на два кубика.» «сложность атаки увеличивается на 2, а
# точная стрельба становится невозможной» — the game's options (flank_dice, rear_dice,
# blind_difficulty), the seed's numbers by default.


@dataclass(frozen=True, slots=True)
class Situation:
    """How an attack is made: the maneuvers and the GM's flags."""

    side: str | None = None  # FLANK | REAR
    blind: bool = False
    aim: str | None = None  # a target code of options.aim_targets
    ambush_bonus: int = 0  # the ambush's extra successes, joining the attack pool
    no_defense: bool = False  # a won ambush: «жертва не имеет возможности защищаться»
    space: bool = True  # room to dodge («Для этого маневра требуется свободное пространство»)
    actions_penalty: int = 0  # the attacker's multiple actions
    willpower: bool = False  # the attacker spends a point: one automatic success
    specialty: bool = False  # the attacker's specialty applies


@dataclass(frozen=True, slots=True)
class AttackModifiers:
    dice: tuple[Part, ...]
    difficulty: tuple[Part, ...]
    damage: int
    ignores_armor: bool


def aim_target(code: str, options: Options = DEFAULT_OPTIONS) -> AimTarget:
    found = options.aim_target(code)
    if found is None:
        raise StorytellerError("unknown_target", {"size": code})
    return found


def attack_modifiers(s: Situation, options: Options = DEFAULT_OPTIONS) -> AttackModifiers:
    dice: list[Part] = []
    diff: list[Part] = []
    damage = 0
    if s.side is not None:
        side = options.flank_dice if s.side == FLANK else options.rear_dice
        dice.append(Part(s.side, side))
    if s.ambush_bonus:
        # «Дополнительные успешные баллы, полученные при броске на засаду, добавляются к
        # вашему запасу бросков на атаку.»
        dice.append(Part("ambush", s.ambush_bonus))
    if s.blind:
        if s.aim is not None:
            raise StorytellerError("no_aim_blind")
        diff.append(Part("blind", options.blind_difficulty))
    if s.aim is not None:
        # «Прицелившись, ваш персонаж может обойти броню и другую защиту, а также нанести
        # дополнительный урон»
        target = aim_target(s.aim, options)
        diff.append(Part("aim", target.difficulty))
        damage = target.damage
    return AttackModifiers(tuple(dice), tuple(diff), damage, s.aim is not None)


WON, TIE, SPOTTED = "won", "tie", "spotted"


@dataclass(frozen=True, slots=True)
class Ambush:
    """``outcome``: WON (attack first, no defense, ``bonus`` dice to the attack), TIE (attack
    first, the victim may defend) or SPOTTED (the normal initiative)."""

    stealth: PoolResult
    notice: PoolResult
    outcome: str
    bonus: int

    @property
    def attacks_first(self) -> bool:
        return self.outcome != SPOTTED

    def situation(self) -> Situation:
        return Situation(ambush_bonus=self.bonus, no_defense=self.outcome == WON)


def ambush(
    attacker: Character,
    victim: Character,
    rng: Rng,
    *,
    victim_in_fight: bool = False,
    difficulty: int = 6,
    options: Options = DEFAULT_OPTIONS,
) -> Ambush:
    """Seed «Засада»: «вы совершаете бросок на Ловкость + Маскировку и сравниваете результат с
    броском жертвы на Восприятие + Бдительность. Если ваш результат превосходит результат
    жертвы, вы атакуете первым, и жертва не имеет возможности защищаться ... Если результаты
    бросков равны, вы все равно можете атаковать первым, но жертва имеет возможность
    защититься. Если ваш бросок на засаду неудачен, ... обе стороны совершают броски в обычном
    порядке инициативы. Засады не допускаются против персонажей, которые уже участвуют в бою.»

    Readings: «неудачен» is no successes (then the victim noticed whatever it rolled); a tie
    needs at least one success; the extra successes are the ambusher's over the victim's."""
    if victim_in_fight:
        raise StorytellerError("ambush_in_fight")
    stealth = action_pool(attacker, "dexterity", "stealth", difficulty=difficulty, options=options)
    notice = action_pool(victim, "perception", "alertness", difficulty=difficulty, options=options)
    mine, theirs = stealth.roll(rng), notice.roll(rng)
    if mine.net == 0 or mine.net < theirs.net:
        return Ambush(mine, theirs, SPOTTED, 0)
    if mine.net == theirs.net:
        return Ambush(mine, theirs, TIE, 0)
    return Ambush(mine, theirs, WON, mine.net - theirs.net)
