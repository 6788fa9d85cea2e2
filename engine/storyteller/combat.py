"""The attack flow as one pure step (seed 002 «Ходы в бою», «Типы повреждений», «Поглощение
и Броня», «Маневры по защите»): attack → defense → opposed successes → damage → soak →
health levels. ``resolve_attack`` returns every roll and the characters after it; a GM's
adjustment of a proposal is the same call with ``Overrides``.

Dice are drawn in this order: attack, defense, damage, soak, then a parry's counter-damage
and its soak.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from engine.dice.rng import Rng
from engine.storyteller.dice.results import PoolResult

from .character import Character
from .errors import StorytellerError
from .maneuvers import Situation, attack_modifiers
from .options import AGGRAVATED, BASHING, DEFAULT_OPTIONS, LETHAL, Options, Weapon
from .pools import Part, Pool, action_pool, build, clamp_difficulty

BLOCK, DODGE, PARRY = "block", "dodge", "parry"
# «Блокирование удара (Ловкость + Рукопашный бой)», «Уклонение от удара (Ловкость + Уворот)»,
# «Парирование удара (Ловкость + Фехтование)»
DEFENSE_ABILITY = {BLOCK: "brawl", DODGE: "dodge", PARRY: "melee"}
DEFENSE_DIFFICULTY = 6  # the seed gives none: the standard difficulty (a default)
SOAK_DIFFICULTY = 6  # «Обычно сложность броска на поглощение равна 6»
DAMAGE_DIFFICULTY = 6  # «Броски на повреждение имеют начальную сложность 6»


@dataclass(frozen=True, slots=True)
class Defense:
    """The defense a target makes: ``kind`` BLOCK | DODGE | PARRY; ``dice_penalty`` the dice
    it loses (a full defense's later defenses, multiple actions); ``weapon`` a parry's."""

    kind: str
    dice_penalty: int = 0
    weapon: str | None = None
    specialty: bool = False


@dataclass(frozen=True, slots=True)
class Overrides:
    """The GM's adjustments of a proposal; None keeps what the rules gave."""

    difficulty: int | None = None  # the attack's
    dice: int | None = None  # the attack's
    defense: Defense | None = None  # replaces the chosen defense
    no_defense: bool = False  # takes the defense away
    damage_type: str | None = None
    damage_dice: int | None = None
    soak_dice: int | None = None


@dataclass(frozen=True, slots=True)
class DamageStep:
    """Damage rolled against one character, soaked and marked."""

    victim: str
    damage_type: str
    pool: Pool
    roll: PoolResult
    soak_pool: Pool | None
    soak: PoolResult | None
    levels: int
    armor_destroyed: bool
    marks: tuple[str, ...]  # the track after
    converted: int  # bashing marks the overflow turned
    dead: bool
    incapacitated: bool


@dataclass(frozen=True, slots=True)
class AttackResolution:
    attacker: str
    target: str
    weapon: str
    attack_pool: Pool
    attack: PoolResult
    defense: Defense | None
    defense_pool: Pool | None
    defense_roll: PoolResult | None
    hit: bool
    extra: int  # damage dice the attack's extra successes add
    damage: DamageStep | None
    counter: DamageStep | None  # a parry's damage to the attacker
    attacker_after: Character
    target_after: Character


PLAIN = Situation()
NO_OVERRIDES = Overrides()


def check_defense(
    defense: Defense,
    weapon: Weapon,
    damage_type: str,
    defender: Character,
    situation: Situation,
) -> Weapon | None:
    """The seed's limits of each defense; a parry's weapon."""
    if defense.kind == BLOCK:
        # «атаки, наносящие смертельные повреждения, не могут быть заблокированы, если персонаж
        # не обладает способностью поглощать повреждения. Блокировать дальнобойные атаки
        # невозможно.» Aggravated damage is deadly too, and «нельзя поглотить, за исключением
        # редких случаев»: nobody soaks it, so nobody blocks it (issue 25: soaking lethal does
        # not make an aggravated attack blockable)
        if weapon.ranged:
            raise StorytellerError("no_block_ranged")
        if damage_type == AGGRAVATED:
            raise StorytellerError("no_block_aggravated")
        if damage_type != BASHING and not defender.soaks_lethal:
            raise StorytellerError("no_block_lethal")
    elif defense.kind == DODGE:
        # «Если пространства недостаточно, Ведущий может запретить этот маневр.»
        if not situation.space:
            raise StorytellerError("no_dodge_space")
    elif defense.kind == PARRY:
        # «Ваш персонаж использует оружие для остановки атаки.»
        held = [w for w in defender.weapons if w.ability == "melee"]
        if defense.weapon is not None:
            held = [w for w in held if w.name.lower() == defense.weapon.lower()]
        if not held:
            raise StorytellerError("no_parry_weapon")
        return held[0]
    else:
        raise ValueError(f"unknown defense {defense.kind!r}")
    return None


def soak_pool(
    victim: Character, damage_type: str, ignores_armor: bool, ones_cancel: bool = True
) -> Pool:
    """«Запас бросков на поглощение определяется уровнем Выносливости персонажа. Смертные
    могут поглощать только поверхностные повреждения, если у них нет специальной защиты,
    такой как броня.» «рейтинг брони добавляется к уровню Выносливости» «Броня защищает от
    поверхностных и летальных повреждений, но не способна справиться с усиливающимися».
    Aggravated damage: no soak at all («нельзя поглотить») unless the GM overrides."""
    parts: list[Part] = []
    if damage_type == BASHING or (damage_type == LETHAL and victim.soaks_lethal):
        parts.append(Part("stamina", victim.rating("stamina")))
    if victim.armor and damage_type != AGGRAVATED and not ignores_armor:
        parts.append(Part("armor", victim.armor.rating))
    return build(parts, [Part("base", SOAK_DIFFICULTY)], mode="soak", ones_cancel=ones_cancel)


def _damage(
    victim_id: str,
    victim: Character,
    damage_type: str,
    dice: list[Part],
    rng: Rng,
    options: Options,
    *,
    ignores_armor: bool = False,
    damage_dice: int | None = None,
    soak_dice: int | None = None,
) -> tuple[DamageStep, Character]:
    ones = options.ones_cancel_damage
    pool = build(dice, [Part("base", DAMAGE_DIFFICULTY)], mode="damage", ones_cancel=ones)
    if damage_dice is not None:
        pool = dataclasses.replace(pool, dice=max(1, damage_dice))
    roll = pool.roll(rng)
    soak = soak_pool(victim, damage_type, ignores_armor, ones)
    if soak_dice is not None:
        soak = dataclasses.replace(soak, dice=max(0, soak_dice))
    # «Если урон, нанесенный одной атакой до поглощения, в два раза превышает рейтинг брони,
    # то броня считается уничтоженной.» (an aimed attack goes around it)
    armor = victim.armor
    destroyed = bool(armor and not ignores_armor and roll.net >= 2 * armor.rating)
    if destroyed and not options.armor_soaks_destroying_attack:
        assert armor is not None
        soak = dataclasses.replace(soak, dice=max(0, soak.dice - armor.rating))
    soak_roll = soak.roll(rng) if soak.dice else None
    # «Каждый успешный бросок снижает уровень повреждений на одну единицу.»
    levels = max(0, roll.net - (soak_roll.net if soak_roll else 0))
    after, converted, dead = victim.wounded(damage_type, levels, options.health)
    if destroyed:
        after = dataclasses.replace(after, armor=None)
    step = DamageStep(
        victim_id,
        damage_type,
        pool,
        roll,
        soak if soak.dice else None,
        soak_roll,
        levels,
        destroyed,
        after.health,
        converted,
        dead,
        after.incapacitated(options.health),
    )
    return step, after


def attack_pool(
    attacker: Character,
    arm: Weapon,
    situation: Situation = PLAIN,
    options: Options = DEFAULT_OPTIONS,
) -> Pool:
    """The attack's pool with ``arm`` in the ``situation`` (the picker shows it before the
    attack). «Ближний бой включает в себя рукопашный бой (Ловкость + Рукопашный бой) и
    фехтование (Ловкость + Фехтование)»; «Бой на дистанции ... огнестрельного (Ловкость +
    Огнестрельное оружие) или метательного (Ловкость + Атлетизм)»"""
    mods = attack_modifiers(situation, options)
    return action_pool(
        attacker,
        "dexterity",
        arm.ability,
        difficulty=arm.difficulty,
        options=options,
        specialty=situation.specialty,
        willpower=situation.willpower,
        bonus=mods.dice,
        difficulty_bonus=mods.difficulty,
        actions_penalty=situation.actions_penalty,
    )


def _attack_pool(
    attacker: Character, arm: Weapon, situation: Situation, overrides: Overrides, options: Options
) -> Pool:
    """The attack's pool, with the dice and difficulty the GM set in the review."""
    pool = attack_pool(attacker, arm, situation, options)
    if overrides.dice is not None:
        pool = dataclasses.replace(pool, dice=max(0, overrides.dice))
    if overrides.difficulty is not None:
        pool = dataclasses.replace(pool, difficulty=clamp_difficulty(overrides.difficulty))
    return pool


def _defense_roll(
    target: Character, chosen: Defense, options: Options, rng: Rng
) -> tuple[Pool, PoolResult]:
    pool = action_pool(
        target,
        "dexterity",
        DEFENSE_ABILITY[chosen.kind],
        difficulty=DEFENSE_DIFFICULTY,
        options=options,
        specialty=chosen.specialty,
        actions_penalty=chosen.dice_penalty,
    )
    return pool, pool.roll(rng)


def resolve_attack(
    attacker_id: str,
    attacker: Character,
    target_id: str,
    target: Character,
    rng: Rng,
    *,
    weapon: str | None = None,
    defense: Defense | None = None,
    situation: Situation = PLAIN,
    overrides: Overrides = NO_OVERRIDES,
    options: Options = DEFAULT_OPTIONS,
) -> AttackResolution:
    if attacker_id == target_id:
        raise StorytellerError("cannot_attack_self")
    try:
        arm = attacker.weapon(weapon)
    except KeyError:
        raise StorytellerError("unknown_weapon", {"weapon": weapon}) from None
    damage_type = overrides.damage_type or arm.damage_type
    mods = attack_modifiers(situation, options)
    pool = _attack_pool(attacker, arm, situation, overrides, options)
    attack = pool.roll(rng)  # the attack's dice first, then the defense's

    no_defense = overrides.no_defense or situation.no_defense
    chosen = None if no_defense else (overrides.defense or defense)
    parry_weapon, defense_pool, defense_roll = (None, None, None)
    if chosen is not None:
        parry_weapon = check_defense(chosen, arm, damage_type, target, situation)
        defense_pool, defense_roll = _defense_roll(target, chosen, options, rng)
    against = 0 if defense_roll is None else defense_roll.net
    # «Если у нападающего меньше или столько же успешных баллов, как у защищающегося, то атака
    # не достигает цели. Если у нападающего больше успешных баллов ... разница вычитается из
    # результата атаки. Все дополнительные успешные баллы повышают потенциальные повреждения»
    left = attack.net - against
    hit = left > 0
    # the first success hits; each further one is a damage die (option all_extra_damage:
    # every remaining success is one, as a parry's surplus is)
    extra = max(0, left) if options.all_extra_damage else max(0, left - 1)
    attacker_after, target_after = attacker, target
    damage = counter = None
    if hit:
        dice = [Part("weapon", attacker.damage_pool(arm)), Part("extra", extra)]
        dice.append(Part("aim", mods.damage))
        damage, target_after = _damage(
            target_id,
            target,
            damage_type,
            dice,
            rng,
            options,
            ignores_armor=mods.ignores_armor,
            damage_dice=overrides.damage_dice,
            soak_dice=overrides.soak_dice,
        )
    elif parry_weapon is not None and parry_weapon.damage_type != BASHING and -left > 0:
        # «Если персонаж парирует удар оружием, которое наносит смертельные повреждения,
        # нападающий может получить раны. Если ваш бросок по защите превосходит бросок
        # противника, все ваши дополнительные успешные баллы добавляются к основному урону
        # вашего оружия.»
        dice = [Part("weapon", target.damage_pool(parry_weapon)), Part("extra", -left)]
        counter, attacker_after = _damage(
            attacker_id, attacker, parry_weapon.damage_type, dice, rng, options
        )
    return AttackResolution(
        attacker_id,
        target_id,
        arm.name,
        pool,
        attack,
        chosen,
        defense_pool,
        defense_roll,
        hit,
        extra,
        damage,
        counter,
        attacker_after,
        target_after,
    )
