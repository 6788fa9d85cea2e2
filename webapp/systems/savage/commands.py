"""The Mini App's encounter commands (Savage Worlds): JSON ``{"command": name, ...args}`` ->
the same engine.services calls the chat commands make (the chase's are in
webapp/systems/savage/chase_commands.py). Each entry is a `Spec` (webapp/systems/commands.py):
a pydantic model of its arguments (strict types and the bounds below) and whether it is the
GM's alone; everything else is checked by the services and engines exactly as for the chat
(a player's own characters only, the rules)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from engine import savage
from engine.dice import DiceError
from engine.names import NAME_MAX
from engine.savage import actions, authority
from engine.savage.dice.rolls import parse_damage
from engine.savage.traits import ATTRIBUTES
from engine.services.savage import ENCOUNTER, add_to_encounter
from webapp.bodies import BLANK_IS_NONE, FROM_ARRAYS, B, Body, one_of, stripped
from webapp.systems.commands import Ctx, Done, NoArgs, Spec, scene_spec, scene_specs

ID_MAX = 64
TRAIT_MAX = 40
LABEL_MAX = 24
MODIFIERS_MAX = 6
DAMAGE_MAX = 40
_WORD = re.compile(r"^\w[\w \-]*$")  # a trait or modifier label: letters, digits, _ - space
_TERM = r"(?:\d{0,2}[dдк]\d{1,3}|\d{1,3}|str|сил[аы]?)"
_DAMAGE = re.compile(rf"(?i)^{_TERM}(?:[+\-]{_TERM}){{0,7}}$")  # «str+d6», «2d6+1», «сил+к8»
_STRENGTH = re.compile(r"(?i)str|сил[аы]?")


def _word(value: str) -> str:
    if not _WORD.match(value):
        raise ValueError("not a trait name or label")
    return value


def _dice(value: str, *, strength: bool) -> str:
    """Damage dice such as «2d6+1» (with ``strength``, «str»/«сил» for the attacker's
    Strength die too), checked as dice here: the engine parses them only when it rolls,
    and a notation error there would not be a rule refusal."""
    text = "".join(value.split())
    if not 0 < len(text) <= DAMAGE_MAX or not _DAMAGE.match(text):
        raise ValueError("not damage dice")
    if _STRENGTH.search(text) and not strength:
        raise ValueError("no Strength die here")
    try:
        parse_damage(_STRENGTH.sub("d6", text))
    except DiceError:
        raise ValueError("not damage dice") from None
    return text


# A combatant, character or participant id (or name), stripped; its length as sent.
Id = Annotated[str, Field(max_length=ID_MAX), AfterValidator(stripped)]
MaybeId = Annotated[Id | None, BLANK_IS_NONE]
Name = Annotated[str, Field(max_length=NAME_MAX), AfterValidator(stripped)]
# An attribute or skill: a code or a name as on the sheet (the engine normalises it and
# rolls an unknown skill unskilled).
Trait = Annotated[str, Field(max_length=TRAIT_MAX), AfterValidator(stripped), AfterValidator(_word)]
Label = Annotated[str, Field(min_length=1, max_length=LABEL_MAX), AfterValidator(_word)]
# A value as the chat reads it (two digits); who may send one and the bound of ±10 per
# roll are the engine's (engine/savage/authority.py), so its sentence is the refusal.
Modifier = Annotated[int, Field(ge=-99, le=99)]
# ``[[label, value], …]``: at most 6.
Modifiers = Annotated[
    tuple[tuple[Label, Modifier], ...], Field(max_length=MODIFIERS_MAX), FROM_ARRAYS
]
AttackDice = Annotated[str, AfterValidator(lambda v: _dice(v, strength=True))]


def _gm_dice(value: str) -> str:
    """The GM's damage dice, without Strength; "" for none (then ``amount``)."""
    return _dice(value, strength=False) if value else ""


# --- arguments ------------------------------------------------------------------------------
# Fields in the order they are checked: the first bad one is the one reported.


class ActorArgs(Body):
    actor: Id


class AddArgs(Body):
    name: Name
    count: Annotated[int, Field(ge=1, le=30)] | None = None


class RemoveArgs(Body):
    id: Id


class DamageArgs(Body):
    amount: Annotated[int, Field(ge=0, le=200)] | None = None
    dice: Annotated[str, AfterValidator(_gm_dice)] = Field("", validate_default=True)
    target: Id
    ap: int = Field(0, ge=0, le=50)

    @field_validator("dice")
    @classmethod
    def _amount_or_dice(cls, dice: str, info: ValidationInfo) -> str:
        if not dice and info.data.get("amount") is None:
            raise ValueError("an amount or dice")
        return dice


class ConditionArgs(Body):
    target: Id
    kind: Id
    clear: bool = False
    duration: Id = "manual"


class FatigueArgs(Body):
    target: Id
    delta: int = Field(ge=-99, le=99)


class BennyArgs(Body):
    actor: Id
    count: int = Field(1, ge=1, le=10)


class DeclareArgs(Body):
    actor: Id
    count: int = Field(ge=1, le=3)


Level = Annotated[int, Field(ge=0, le=3)]  # Wounds and Fatigue, the engine's range


class StatusChanges(Body):
    """engine.savage.decide.STATUS_FIELDS (in its order): the changed ones only."""

    model_config = ConfigDict(extra="forbid")
    wounds: Level | None = None
    fatigue: Level | None = None
    shaken: bool | None = None
    stunned: bool | None = None
    incapacitated: bool | None = None
    bleeding_out: bool | None = None
    dead: bool | None = None

    @model_validator(mode="after")
    def _some(self) -> StatusChanges:
        if not self.model_fields_set:
            raise ValueError("no changes")
        return self


class StatusArgs(Body):
    changes: StatusChanges
    target: Id


class AttackArgs(Body):
    """``damage`` absent: the engine's default for the skill, as in the chat."""

    skill: Annotated[str, one_of(actions.ATTACK_SKILLS)] = "fighting"
    actor: Id
    target: Id
    damage: AttackDice = ""
    ap: int = Field(0, ge=0, le=50)
    range: Annotated[str, one_of(actions.RANGE)] = "short"
    cover: Annotated[str, one_of(actions.COVER)] = ""
    light: Annotated[str, one_of(actions.LIGHT)] = ""
    called_shot: Annotated[str, one_of(actions.CALLED_SHOT)] = ""
    gang_up: int = Field(0, ge=0, le=actions.GANG_UP_CAP)
    the_drop: bool = False
    wild_attack: bool = False
    free: bool = False
    modifiers: Modifiers = ()


class TraitArgs(Body):
    actor: Id
    trait: Trait
    tn: int = Field(authority.DEFAULT_TN, ge=1, le=authority.MAX_TN)
    free: bool = False
    modifiers: Modifiers = ()


class SupportArgs(Body):
    for_trait: Annotated[Trait | None, BLANK_IS_NONE] = None
    actor: Id
    ally: Id
    skill: Trait
    modifiers: Modifiers = ()


class TestArgs(Body):
    __test__ = False  # not a pytest class

    attribute: Annotated[str, one_of(("", *ATTRIBUTES))] = ""
    actor: Id
    target: Id
    skill: Trait
    effect: Annotated[str, one_of(("distracted", "vulnerable"))] = "distracted"
    modifiers: Modifiers = ()


class AimArgs(Body):
    actor: Id
    mode: Annotated[str, one_of(("bonus", "ignore"))] = "bonus"


class EscapeArgs(Body):
    actor: Id
    trait: Annotated[str, one_of(("strength", "athletics"))] = "athletics"


# --- encounter ------------------------------------------------------------------------------


def enc(model: type[B], build: Callable[[B], savage.Command], gm_only: bool) -> Spec[B]:
    """A command that is one engine command built from its arguments."""
    return scene_spec(ENCOUNTER.name, model, build, gm_only)


async def _add(ctx: Ctx, a: AddArgs) -> Done:
    out = await add_to_encounter(
        ctx.game_id, a.name, actor_id=ctx.actor_id, count=a.count, rng=ctx.rng
    )
    return Done(out.events)


def _condition(a: ConditionArgs) -> savage.Command:
    if a.clear:
        return savage.ClearCondition(a.target, a.kind)
    return savage.SetCondition(a.target, a.kind, a.duration)


def _status(a: StatusArgs) -> savage.Command:
    """The GM's correction: the changed fields, Wounds and Fatigue 0-3, the others 0/1."""
    changes = ((name, getattr(a.changes, name)) for name in StatusChanges.model_fields)
    return savage.SetStatus(
        a.target, tuple((name, int(value)) for name, value in changes if value is not None)
    )


# --- actions on a turn (seed 000 lines 23-53; as the chat's bot/routers/combat/actions.py) ----


def _attack(a: AttackArgs) -> savage.Command:
    """Fighting against Parry, Shooting/throwing against TN 4, then damage on a hit
    (seed 000 lines 60-63); range (DESIGN), cover (line 92), light (line 93), called
    shot, Gang Up (DESIGN, up to +4), The Drop, Wild Attack (line 53). ``free``: a free
    attack, the GM's (lines 103-104; the engine refuses players). No damage: the engine's
    default for the skill (engine.savage.actions.default_damage), as in the chat."""
    return savage.Attack(
        a.actor,
        a.target,
        skill=a.skill,
        damage=a.damage or "",
        ap=a.ap,
        range=a.range,
        cover=a.cover,
        light=a.light,
        called_shot=a.called_shot,
        gang_up=a.gang_up,
        the_drop=a.the_drop,
        wild_attack=a.wild_attack,
        free=a.free,
        modifiers=a.modifiers,
    )


def _support(a: SupportArgs) -> savage.Command:
    """seed 000 lines 34-37: +1 / +2 / −2 to the ally's next roll (of ``for_trait``)."""
    return savage.Support(a.actor, a.ally, a.skill, a.for_trait or "", modifiers=a.modifiers)


def _test(a: TestArgs) -> savage.Command:
    """seed 000 lines 41-43: Distracted or Vulnerable on a success, Shaken too on a raise;
    ``attribute`` overrides the skill's linked one."""
    return savage.Test(
        a.actor, a.target, a.skill, effect=a.effect, attribute=a.attribute, modifiers=a.modifiers
    )


def _actor(command: Callable[[str], savage.Command]) -> Spec[ActorArgs]:
    """A command of one fighter, for the GM and the fighter's owner."""
    return enc(ActorArgs, lambda a: command(a.actor), False)


ENCOUNTER_COMMANDS: dict[str, Spec[Any]] = {
    **scene_specs(ENCOUNTER.name),
    "add": Spec(AddArgs, _add, True),
    "deal": enc(NoArgs, lambda a: savage.DealRound(), True),
    "remove": enc(RemoveArgs, lambda a: savage.RemoveCombatant(a.id), True),
    "damage": enc(DamageArgs, lambda a: savage.ApplyDamage(a.target, a.amount, a.dice, a.ap), True),
    "condition": enc(ConditionArgs, _condition, True),
    "fatigue": enc(FatigueArgs, lambda a: savage.ChangeFatigue(a.target, a.delta), True),
    "status": enc(StatusArgs, _status, True),
    "benny": enc(BennyArgs, lambda a: savage.GiveBennies(a.actor, a.count), True),
    # players too (the engine checks the turn and the owner)
    "next": enc(NoArgs, lambda a: savage.NextTurn(), False),
    "hold": _actor(savage.Hold),
    "act": _actor(savage.ActNow),
    "interrupt": _actor(savage.Interrupt),
    "soak": _actor(savage.Soak),
    "take": _actor(savage.AcceptDamage),
    "unshake": _actor(savage.Unshake),
    "new_card": _actor(savage.DrawNewCard),
    "declare": enc(DeclareArgs, lambda a: savage.DeclareActions(a.actor, a.count), False),
    "attack": enc(AttackArgs, _attack, False),
    "trait": enc(
        TraitArgs,
        lambda a: savage.TraitRoll(a.actor, a.trait, tn=a.tn, free=a.free, modifiers=a.modifiers),
        False,
    ),
    "support": enc(SupportArgs, _support, False),
    "test": enc(TestArgs, _test, False),
    "defend": _actor(savage.Defend),
    "aim": enc(AimArgs, lambda a: savage.Aim(a.actor, a.mode), False),
    "escape": enc(EscapeArgs, lambda a: savage.EscapeBonds(a.actor, a.trait), False),
    "reroll": _actor(savage.Reroll),
}
