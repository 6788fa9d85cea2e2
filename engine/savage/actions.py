"""Actions on a turn (seed 000 «Действия в ход», «Укрытие и освещение», «Свободные атаки»):
attacks, Support, Test, Defend, Aim, escaping bonds and plain trait rolls. Every modifier
is kept with a label in the roll result."""

from __future__ import annotations

import re

from engine.dice.results import Modifier
from engine.savage.dice.results import TraitResult

from . import damage as dmg
from .builder import Builder
from .character import Character, Condition
from .commands import Aim, Attack, Defend, EscapeBonds, Support, Test, TraitRoll
from .encounter import FollowUp
from .errors import RuleError
from .events import (
    ActionsDeclared,
    ConditionAdded,
    ConditionRemoved,
    DamageRolled,
    FullTurnTaken,
    Rolled,
)
from .modifiers import SUPPORT_CAP, roll_modifiers, support_value
from .rolls import damage_check, succeeded, trait_check
from .traits import ATTRIBUTES, LINKED_ATTRIBUTE, trait_code

MAX_ACTIONS = 3  # seed 000 line 27
RANGE = {"short": 0, "medium": -2, "long": -4, "extreme": -8}  # DESIGN.md
COVER = {"": 0, "light": -2, "medium": -4, "heavy": -6, "near_total": -8}  # seed 000 line 92
LIGHT = {"": 0, "dim": -2, "dark": -4, "pitch": -6}  # seed 000 line 93
CALLED_SHOT = {"": 0, "limb": -2, "hand": -4, "head": -4, "vitals": -4}  # official SWADE
CALLED_SHOT_DAMAGE = {"head": 4, "vitals": 4}  # official SWADE
GANG_UP_CAP = 4  # DESIGN.md
THE_DROP = 4  # DESIGN.md (official SWADE: to the attack and the damage)
WILD_ATTACK = 2  # seed 000 line 53
VULNERABLE = 2  # seed 000 line 47
AIM_BONUS = 2  # official SWADE
AIM_IGNORE = 4  # official SWADE: ignore up to 4 points of range, cover, called shot
BOUND_PENALTY = -2  # seed 000 line 83
RANGED = ("shooting", "athletics")
ATTACK_SKILLS = ("fighting", *RANGED)


# --- checks ---------------------------------------------------------------------------


def check_can_act(b: Builder, character: Character, *, free: bool) -> None:
    """Who may make a roll now. ``free``: not one of the turn's actions (free attacks,
    free trait rolls) — allowed out of turn, and for a Shaken character only if truly
    free (free attacks are refused)."""
    status = character.status
    if status.dead:
        raise RuleError("dead", {"id": character.id})
    if status.incapacitated:
        raise RuleError("incapacitated", {"id": character.id})
    if status.stunned:
        raise RuleError("stunned", {"id": character.id})
    if free:
        return
    if b.state.current != b.combatant_of(character.id).id:
        raise RuleError("not_your_turn", {"id": character.id})
    if status.shaken or status.free_only:
        raise RuleError("shaken_free_actions_only", {"id": character.id})
    if status.full_turn:
        raise RuleError("defend_no_other_actions")
    declared = max(1, status.actions_declared)
    if status.actions_used + status.chase_actions >= declared:  # a chase action counts too
        raise RuleError("too_many_actions", {"declared": declared})


def declare(b: Builder, character: Character, count: int) -> None:
    """seed 000 line 27: up to three actions, declared before the first roll."""
    if b.state.current != b.combatant_of(character.id).id:
        raise RuleError("not_your_turn", {"id": character.id})
    if not 1 <= count <= MAX_ACTIONS:
        raise RuleError("too_many_actions", {"declared": count})
    status = character.status
    if status.rolled or status.actions_used or status.chase_actions or status.full_turn:
        raise RuleError("actions_already_declared")
    b.emit(ActionsDeclared, character=character.id, count=count)


def _gm_modifiers(pairs: tuple[tuple[str, int], ...]) -> tuple[Modifier, ...]:
    """The GM's free modifiers, labelled and bounded by `authority.check`."""
    return tuple(Modifier(label, value) for label, value in pairs)


def _target(b: Builder, actor: Character, target_id: str) -> Character:
    target = b.character(target_id)
    if target.id == actor.id or target.status.dead:
        raise RuleError("bad_target", {"id": target_id})
    return target


def _roll(
    b: Builder,
    character: Character,
    trait: str,
    purpose: str,
    mods: tuple[Modifier, ...],
    *,
    action: bool,
    tn: int = 4,
    target: str = "",
    follow: FollowUp | None = None,
) -> TraitResult:
    result = trait_check(b.rng, character.die(trait), wild=character.wild, modifiers=mods, tn=tn)
    b.emit(
        Rolled,
        character=character.id,
        purpose=purpose,
        trait=trait,
        result=result,
        action=action,
        target=target,
        follow=follow,
    )
    return result


# --- attacks --------------------------------------------------------------------------


def attack_modifiers(
    b: Builder, attacker: Character, target: Character, cmd: Attack, skill: str
) -> tuple[Modifier, ...]:
    kind = "free" if cmd.free else "action"
    mods = list(roll_modifiers(b.state, attacker.id, kind, trait=skill))
    ranged = skill in RANGED
    for table, key, label in (
        (RANGE, cmd.range, "range"),
        (COVER, cmd.cover, "cover"),
        (LIGHT, cmd.light, "illumination"),
        (CALLED_SHOT, cmd.called_shot, "called_shot"),
    ):
        if key not in table:
            raise RuleError("bad_modifier", {"label": label})
    situational: list[Modifier] = []
    if ranged:
        situational += [Modifier("range", RANGE[cmd.range]), Modifier("cover", COVER[cmd.cover])]
    situational.append(Modifier("called_shot", CALLED_SHOT[cmd.called_shot]))
    aim = attacker.status.condition("aim")
    if ranged and aim is not None:
        if aim.skill == "ignore":
            ignored = min(AIM_IGNORE, -sum(m.value for m in situational))
            if ignored > 0:
                mods.append(Modifier("aim_ignore", ignored))
        else:
            mods.append(Modifier("aim", AIM_BONUS))
    mods += situational
    mods.append(Modifier("illumination", LIGHT[cmd.light]))
    if cmd.gang_up and not ranged:
        mods.append(Modifier("gang_up", min(GANG_UP_CAP, max(0, cmd.gang_up))))
    if cmd.the_drop:
        mods.append(Modifier("the_drop", THE_DROP))
    if cmd.wild_attack:
        mods.append(Modifier("wild_attack", WILD_ATTACK))
    if target.status.vulnerable:
        mods.append(Modifier("vulnerable", VULNERABLE))
    mods += _gm_modifiers(cmd.modifiers)
    return tuple(m for m in mods if m.value)


_STRENGTH_RE = re.compile(r"(?i)\b(?:str|сил[аы]?|сила)\b")


# The seeds name no weapons (seed 000, line 54: what Bleach leaves out «использует официальные
# правила SWADE», where a weapon gives its damage): an attack without
# its dice uses these, the project's reading (docs/rules/savage.md «Default damage»): a
# generic melee weapon Str+d6 for Fighting, a generic gun or thrown weapon 2d6 otherwise.
DEFAULT_DAMAGE = {"fighting": "str+d6"}
DEFAULT_RANGED_DAMAGE = "2d6"


def default_damage(skill: str) -> str:
    """The damage dice of an attack with `skill` (a code or a name) that names none."""
    return DEFAULT_DAMAGE.get(trait_code(skill), DEFAULT_RANGED_DAMAGE)


def damage_dice(attacker: Character, text: str) -> str:
    """«str»/«сил»/«сила» in damage text become the attacker's Strength die."""
    strength = attacker.die("strength")
    code = strength.code if strength is not None else "d4"
    return _STRENGTH_RE.sub(code, text)


def attack(b: Builder, cmd: Attack) -> None:
    attacker = b.character(cmd.actor)
    check_can_act(b, attacker, free=cmd.free)
    if cmd.free and attacker.status.shaken:
        raise RuleError(
            "shaken_free_actions_only", {"id": attacker.id}
        )  # a free attack is not a free action
    if attacker.status.has("bound"):  # seed 000 line 82: «ограничен стандартными правилами Bound»
        raise RuleError("bound", {"id": attacker.id})
    target = _target(b, attacker, cmd.target)
    skill = trait_code(cmd.skill)
    if skill not in ATTACK_SKILLS:
        raise RuleError("unknown_trait", {"trait": cmd.skill})
    if cmd.wild_attack and skill != "fighting":
        raise RuleError("bad_modifier", {"label": "wild_attack"})
    mods = attack_modifiers(b, attacker, target, cmd, skill)
    tn = target.current_parry() if skill == "fighting" else 4
    dmg_mods = list(roll_modifiers(b.state, attacker.id, "damage"))
    if cmd.wild_attack:
        dmg_mods.append(Modifier("wild_attack", WILD_ATTACK))
    if cmd.the_drop:
        dmg_mods.append(Modifier("the_drop", THE_DROP))
    if bonus := CALLED_SHOT_DAMAGE.get(cmd.called_shot, 0):
        dmg_mods.append(Modifier("called_shot", bonus))
    follow = FollowUp(
        damage=damage_dice(attacker, cmd.damage or default_damage(skill)),
        ap=max(0, cmd.ap),
        damage_modifiers=tuple(dmg_mods),
    )
    result = _roll(
        b,
        attacker,
        skill,
        "attack",
        mods,
        action=not cmd.free,
        tn=tn,
        target=target.id,
        follow=follow,
    )
    if cmd.wild_attack:
        # seed 000 line 53: «после чего атакующий становится Уязвимым до конца следующего хода»
        until = b.end_of_next_turn(attacker.id)
        b.emit(
            ConditionAdded,
            character=attacker.id,
            condition=Condition("vulnerable", "end", until, source="wild_attack"),
        )
    if succeeded(result):
        hit(b, attacker.id, target.id, result, follow)


def hit(
    b: Builder, attacker_id: str, target_id: str, result: TraitResult, follow: FollowUp
) -> None:
    """The damage of a hit: +d6 on a raise, against the target's Toughness now."""
    target = b.character(target_id)
    damage = damage_check(
        b.rng,
        follow.damage,
        modifiers=follow.damage_modifiers,
        raise_die=result.raises > 0,
        toughness=target.toughness,
        armor=target.armor,
        ap=follow.ap,
        already_shaken=target.status.shaken,
        hardy=target.hardy,
    )
    b.emit(DamageRolled, character=target.id, attacker=attacker_id, result=damage)
    assert damage.outcome is not None
    dmg.resolve(b, target.id, damage.outcome)


# --- Support and Test -----------------------------------------------------------------


def support(b: Builder, cmd: Support) -> None:
    """seed 000 lines 34-37: success +1, raise +2, critical failure −2; the total is at
    most +4 and lasts until the end of the ally's next turn; never oneself. The bonus goes
    to the ally's next action roll (of ``for_trait`` if given) and is then used up."""
    actor = b.character(cmd.actor)
    check_can_act(b, actor, free=False)
    ally = b.character(cmd.ally)
    if ally.id == actor.id:
        raise RuleError("cannot_support_self")
    skill = trait_code(cmd.skill)
    mods = roll_modifiers(b.state, actor.id, "action", trait=skill) + _gm_modifiers(cmd.modifiers)
    for_trait = trait_code(cmd.for_trait) if cmd.for_trait else ""
    follow = FollowUp(effect=for_trait)
    result = _roll(b, actor, skill, "support", mods, action=True, target=ally.id, follow=follow)
    before = support_value(ally.status, for_trait)
    support_bonus(b, actor.id, ally.id, result, before, for_trait)


SUPPORT_VALUE = {"critical_failure": -2, "success": 1, "raise": 2}  # seed 000 line 35


def support_bonus(
    b: Builder, actor_id: str, ally_id: str, result: TraitResult, before: int, for_trait: str
) -> None:
    """The ally's Support total after this roll: ``before`` + the roll's value, at most
    +4 (line 36), until the end of the ally's next turn."""
    value = SUPPORT_VALUE.get(result.outcome, 0)
    if not value:
        return
    total = min(SUPPORT_CAP, before + value)
    b.emit(
        ConditionAdded,
        character=ally_id,
        condition=Condition(
            "support",
            "end",
            b.end_of_next_turn(ally_id),
            value=total,
            skill=for_trait,
            source=actor_id,
        ),
    )


def test(b: Builder, cmd: Test) -> None:
    """seed 000 lines 41-43: the skill against the target's linked attribute (opposed: the
    attacker needs TN 4, the defender wins ties — official SWADE); success → the attacker's
    choice of Distracted or Vulnerable until the end of the target's next turn; raise →
    also Shaken. Vulnerable targets give +2 (line 47)."""
    actor = b.character(cmd.actor)
    check_can_act(b, actor, free=False)
    target = _target(b, actor, cmd.target)
    if cmd.effect not in ("distracted", "vulnerable"):
        raise RuleError("bad_modifier", {"label": cmd.effect})
    skill = trait_code(cmd.skill)
    attribute = trait_code(cmd.attribute) if cmd.attribute else LINKED_ATTRIBUTE.get(skill, "")
    if attribute not in ATTRIBUTES:
        raise RuleError("unknown_trait", {"trait": cmd.attribute or cmd.skill})
    mods = roll_modifiers(b.state, actor.id, "action", trait=skill)
    if target.status.vulnerable:
        mods += (Modifier("vulnerable", VULNERABLE),)
    mods += _gm_modifiers(cmd.modifiers)
    follow = FollowUp(effect=cmd.effect, attribute=attribute)
    result = _roll(b, actor, skill, "test", mods, action=True, target=target.id, follow=follow)
    if not succeeded(result):
        return
    resisted = resist_roll(b, target.id, attribute, actor.id)
    test_effect(b, actor.id, target.id, result.total, resisted, cmd.effect, before=None)


def resist_roll(b: Builder, target_id: str, attribute: str, actor_id: str) -> int:
    """The target resists a Test: a free roll of the attribute; returns its total."""
    target = b.character(target_id)
    resist_mods = roll_modifiers(b.state, target.id, "free")
    resist = _roll(b, target, attribute, "resist", resist_mods, action=False, target=actor_id)
    return resist.total


def test_effect(
    b: Builder,
    actor_id: str,
    target_id: str,
    total: int,
    resisted: int,
    effect: str,
    *,
    before: int | None,
) -> None:
    """The Test's effect for the attacker's ``total`` against the resisting total (the
    defender wins ties); ``before``: the attacker's total already applied (a re-roll adds
    only what the better total newly earns)."""

    def earned(value: int | None) -> tuple[bool, bool]:
        if value is None or value <= resisted:
            return False, False
        return True, (value - resisted) // 4 > 0

    now, raised = earned(total)
    had, had_raise = earned(before)
    if now and not had:
        until = b.end_of_next_turn(target_id)
        b.emit(
            ConditionAdded,
            character=target_id,
            condition=Condition(effect, "end", until, source=actor_id),
        )
    if raised and not had_raise:
        dmg.shake(b, target_id, "test")


# --- whole-turn actions, escapes, plain rolls -----------------------------------------


def _full_turn(b: Builder, actor: Character, kind: str) -> None:
    check_can_act(b, actor, free=False)
    if actor.status.actions_used or actor.status.actions_declared > 1:
        raise RuleError("defend_no_other_actions")
    b.emit(FullTurnTaken, character=actor.id, kind=kind)


def defend(b: Builder, cmd: Defend) -> None:
    """seed 000 line 52: no other actions, +4 Parry until the start of the next turn."""
    actor = b.character(cmd.actor)
    _full_turn(b, actor, "defend")
    turn = b.character(actor.id).status.turns_started + 1
    b.emit(
        ConditionAdded,
        character=actor.id,
        condition=Condition("defend", "start", turn, value=4, source="defend"),
    )


def aim(b: Builder, cmd: Aim) -> None:
    """seed 000 line 51 and official SWADE: no movement or other actions; the next ranged
    attack (until the end of the next turn) gets +2 or ignores up to 4 points of range,
    cover and called-shot penalties. ``Condition.skill`` keeps the mode."""
    actor = b.character(cmd.actor)
    if cmd.mode not in ("bonus", "ignore"):
        raise RuleError("bad_modifier", {"label": cmd.mode})
    if actor.status.has("bound"):  # line 82: no weapon in bound hands
        raise RuleError("bound", {"id": actor.id})
    _full_turn(b, actor, "aim")
    b.emit(
        ConditionAdded,
        character=actor.id,
        condition=Condition(
            "aim",
            "end",
            b.end_of_next_turn(actor.id),
            value=AIM_BONUS,
            skill=cmd.mode,
            source="aim",
        ),
    )


def escape(b: Builder, cmd: EscapeBonds) -> None:
    """seed 000 line 83: an action and a Strength or Athletics roll, −2 if Bound. Official
    SWADE: success frees from Entangled or turns Bound into Entangled; a raise frees."""
    actor = b.character(cmd.actor)
    check_can_act(b, actor, free=False)
    trait = trait_code(cmd.trait)
    if trait not in ("strength", "athletics"):
        raise RuleError("unknown_trait", {"trait": cmd.trait})
    bound = actor.status.has("bound")
    if not bound and not actor.status.has("entangled"):
        raise RuleError("not_entangled", {"id": actor.id})
    mods = roll_modifiers(b.state, actor.id, "action", trait=trait)
    if bound:
        mods += (Modifier("bound", BOUND_PENALTY),)
    result = _roll(b, actor, trait, "escape", mods, action=True)
    escape_effect(b, actor.id, result, bound=bound)


def escape_effect(b: Builder, actor_id: str, result: TraitResult, *, bound: bool) -> None:
    if not succeeded(result):
        return
    if bound:
        b.emit(ConditionRemoved, character=actor_id, kind="bound", reason="escaped")
        if result.outcome == "raise":
            return
        b.emit(ConditionAdded, character=actor_id, condition=Condition("entangled", source="bound"))
        return
    b.emit(ConditionRemoved, character=actor_id, kind="entangled", reason="escaped")


def trait_roll(b: Builder, cmd: TraitRoll) -> None:
    actor = b.character(cmd.actor)
    check_can_act(b, actor, free=cmd.free)
    trait = trait_code(cmd.trait)
    kind = "free" if cmd.free else "action"
    mods = roll_modifiers(b.state, actor.id, kind, trait=trait) + _gm_modifiers(cmd.modifiers)
    _roll(b, actor, trait, "trait", mods, action=not cmd.free, tn=cmd.tn)
