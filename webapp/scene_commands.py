"""The Mini App's encounter commands: JSON ``{"command": name, ...args}`` -> the same
engine.services calls the chat commands make (the chase's are in webapp/chase_commands.py,
with the same `Ctx` and `Spec`). Each entry says whether it is the GM's alone
(refused with 403 ``forbidden`` before anything is read); everything else is checked by the
services and engines exactly as for the chat (a player's own characters only, the rules)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from typing import Any

from engine import savage
from engine.dice import DiceError
from engine.dice.rng import Rng
from engine.dice.swade import parse_damage
from engine.savage import actions
from engine.savage.decide import STATUS_FIELDS
from engine.savage.traits import ATTRIBUTES
from engine.services import (
    add_to_encounter,
    encounter_command,
    end_encounter,
    start_encounter,
    undo_encounter,
)
from webapp.errors import ApiError

ID_MAX = 64
NAME_MAX = 255
TRAIT_MAX = 40
LABEL_MAX = 24
MODIFIERS_MAX = 6
DAMAGE_MAX = 40
_WORD = re.compile(r"^\w[\w \-]*$")  # a trait or modifier label: letters, digits, _ - space
_TERM = r"(?:\d{0,2}[dдк]\d{1,3}|\d{1,3}|str|сил[аы]?)"
_DAMAGE = re.compile(rf"(?i)^{_TERM}(?:[+\-]{_TERM}){{0,7}}$")  # «str+d6», «2d6+1», «сил+к8»
_STRENGTH = re.compile(r"(?i)str|сил[аы]?")


@dataclass(frozen=True, slots=True)
class Ctx:
    game_id: int
    actor_id: int
    rng: Rng
    body: dict[str, Any]

    def text(self, key: str, *, limit: int = ID_MAX, default: str | None = None) -> str:
        value = self.body.get(key, default)
        if not isinstance(value, str) or not value.strip() or len(value) > limit:
            raise ApiError("bad_request", field=key)
        return value.strip()

    def maybe_text(self, key: str) -> str | None:
        return self.text(key) if self.body.get(key) not in (None, "") else None

    def int(self, key: str, default: int | None = None, *, lo: int = -99, hi: int = 99) -> int:
        value = self.body.get(key, default)
        if type(value) is not int or not lo <= value <= hi:
            raise ApiError("bad_request", field=key)
        return value

    def maybe_int(self, key: str, *, lo: int = -99, hi: int = 99) -> int | None:
        return None if self.body.get(key) is None else self.int(key, lo=lo, hi=hi)

    def flag(self, key: str) -> bool:
        value = self.body.get(key, False)
        if not isinstance(value, bool):
            raise ApiError("bad_request", field=key)
        return value

    def choice(self, key: str, allowed: Collection[str], default: str | None = None) -> str:
        """One of the engine's accepted values (exactly as the engine spells it)."""
        value = self.body.get(key, default)
        if not isinstance(value, str) or value not in allowed:
            raise ApiError("bad_request", field=key)
        return value

    def trait(self, key: str, default: str | None = None) -> str:
        """An attribute or skill: a code or a name as on the sheet (the engine normalises it
        and rolls an unknown skill unskilled)."""
        value = self.text(key, limit=TRAIT_MAX, default=default)
        if not _WORD.match(value):
            raise ApiError("bad_request", field=key)
        return value

    def modifiers(self) -> tuple[tuple[str, int], ...]:
        """``[[label, value], …]``: at most 6, labels up to 24 characters, each value within
        ±20 (engine.savage.actions.MAX_GM_MODIFIER)."""
        raw = self.body.get("modifiers", [])
        if not isinstance(raw, list) or len(raw) > MODIFIERS_MAX:
            raise ApiError("bad_request", field="modifiers")
        out = []
        for pair in raw:
            ok = isinstance(pair, list) and len(pair) == 2
            label, value = pair if ok else ("", None)
            limit = actions.MAX_GM_MODIFIER
            if not (isinstance(label, str) and 0 < len(label) <= LABEL_MAX and _WORD.match(label)):
                raise ApiError("bad_request", field="modifiers")
            if type(value) is not int or not -limit <= value <= limit:
                raise ApiError("bad_request", field="modifiers")
            out.append((label, value))
        return tuple(out)

    @property
    def seen(self) -> dict[str, Any]:
        """What the client saw (`seq`, `stream`; checked in webapp/api/scenes.py), as the
        services' `expected_seq` / `expected_stream`: they compare it inside the write."""
        return {"expected_seq": self.body.get("seq"), "expected_stream": self.body.get("stream")}

    def direction(self, key: str = "direction") -> int:
        value = self.body.get(key)
        if value in ("forward", 1):
            return 1
        if value in ("back", -1):
            return -1
        raise ApiError("bad_request", field=key)


Events = tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Done:
    """What a command wrote: its events (the steps it caused elsewhere were stored with it,
    in the same transaction; engine/services/follow.py)."""

    events: Events = ()


Run = Callable[[Ctx], Awaitable[Done]]


@dataclass(frozen=True, slots=True)
class Spec:
    run: Run
    gm_only: bool


# --- encounter ------------------------------------------------------------------------------


def _enc(build: Callable[[Ctx], savage.Command]) -> Run:
    async def run(ctx: Ctx) -> Done:
        command = build(ctx)
        out = await encounter_command(
            ctx.game_id, command, actor_id=ctx.actor_id, rng=ctx.rng, **ctx.seen
        )
        return Done(out.events)

    return run


async def _start(ctx: Ctx) -> Done:
    await start_encounter(ctx.game_id, actor_id=ctx.actor_id)
    return Done()


async def _end(ctx: Ctx) -> Done:
    await end_encounter(ctx.game_id, actor_id=ctx.actor_id)
    return Done()


async def _undo(ctx: Ctx) -> Done:
    await undo_encounter(ctx.game_id, actor_id=ctx.actor_id, **ctx.seen)
    return Done()


async def _add(ctx: Ctx) -> Done:
    name = ctx.text("name", limit=NAME_MAX)
    count = ctx.maybe_int("count", lo=1, hi=30)
    out = await add_to_encounter(ctx.game_id, name, actor_id=ctx.actor_id, count=count, rng=ctx.rng)
    return Done(out.events)


def _condition(ctx: Ctx) -> savage.Command:
    target, kind = ctx.text("target"), ctx.text("kind")
    if ctx.flag("clear"):
        return savage.ClearCondition(target, kind)
    duration = ctx.text("duration", default="manual")
    return savage.SetCondition(target, kind, duration)


def _dice(value: Any, key: str, *, strength: bool) -> str:
    """Damage dice such as «2d6+1» (with ``strength``, «str»/«сил» for the attacker's
    Strength die too), checked as dice here: the engine parses them only when it rolls,
    and a notation error there would not be a rule refusal."""
    text = "".join(value.split()) if isinstance(value, str) else ""
    if not 0 < len(text) <= DAMAGE_MAX or not _DAMAGE.match(text):
        raise ApiError("bad_request", field=key)
    if _STRENGTH.search(text) and not strength:
        raise ApiError("bad_request", field=key)
    try:
        parse_damage(_STRENGTH.sub("d6", text))
    except DiceError:
        raise ApiError("bad_request", field=key) from None
    return text


def _damage(ctx: Ctx) -> savage.Command:
    amount = ctx.maybe_int("amount", lo=0, hi=200)
    dice = ctx.body.get("dice", "")
    if dice == "" and amount is None:
        raise ApiError("bad_request", field="dice")
    dice = "" if dice == "" else _dice(dice, "dice", strength=False)
    return savage.ApplyDamage(ctx.text("target"), amount, dice, ctx.int("ap", 0, lo=0, hi=50))


# --- actions on a turn (seed 000 lines 23-53; as the chat's bot/routers/combat/actions.py) ----


def _damage_text(ctx: Ctx, skill: str) -> str:
    """The attack's damage dice; defaults as in the chat: Str+d6 in melee, 2d6 at range
    («str» becomes the attacker's Strength die, engine.savage.actions.damage_dice)."""
    default = "str+d6" if skill == "fighting" else "2d6"
    return _dice(ctx.body.get("damage", default), "damage", strength=True)


def _attack(c: Ctx) -> savage.Command:
    """Fighting against Parry, Shooting/throwing against TN 4, then damage on a hit
    (seed 000 lines 60-63); range (DESIGN), cover (line 92), light (line 93), called
    shot, Gang Up (DESIGN, up to +4), The Drop, Wild Attack (line 53). ``free``: a free
    attack, the GM's (lines 103-104; the engine refuses players)."""
    skill = c.choice("skill", actions.ATTACK_SKILLS, "fighting")
    return savage.Attack(
        c.text("actor"),
        c.text("target"),
        skill=skill,
        damage=_damage_text(c, skill),
        ap=c.int("ap", 0, lo=0, hi=50),
        range=c.choice("range", actions.RANGE, "short"),
        cover=c.choice("cover", actions.COVER, ""),
        light=c.choice("light", actions.LIGHT, ""),
        called_shot=c.choice("called_shot", actions.CALLED_SHOT, ""),
        gang_up=c.int("gang_up", 0, lo=0, hi=actions.GANG_UP_CAP),
        the_drop=c.flag("the_drop"),
        wild_attack=c.flag("wild_attack"),
        free=c.flag("free"),
        modifiers=c.modifiers(),
    )


def _trait(c: Ctx) -> savage.Command:
    return savage.TraitRoll(
        c.text("actor"),
        c.trait("trait"),
        tn=c.int("tn", 4, lo=1, hi=99),
        free=c.flag("free"),
        modifiers=c.modifiers(),
    )


def _support(c: Ctx) -> savage.Command:
    """seed 000 lines 34-37: +1 / +2 / −2 to the ally's next roll (of ``for_trait``)."""
    for_trait = c.trait("for_trait") if c.body.get("for_trait") not in (None, "") else ""
    return savage.Support(
        c.text("actor"), c.text("ally"), c.trait("skill"), for_trait, modifiers=c.modifiers()
    )


def _test(c: Ctx) -> savage.Command:
    """seed 000 lines 41-43: Distracted or Vulnerable on a success, Shaken too on a raise;
    ``attribute`` overrides the skill's linked one."""
    attribute = c.choice("attribute", ("", *ATTRIBUTES), "")
    return savage.Test(
        c.text("actor"),
        c.text("target"),
        c.trait("skill"),
        effect=c.choice("effect", ("distracted", "vulnerable"), "distracted"),
        attribute=attribute,
        modifiers=c.modifiers(),
    )


def _status(c: Ctx) -> savage.Command:
    """The GM's correction: ``changes`` = {field: value}, Wounds and Fatigue 0-3 (the
    engine's range), the others true/false."""
    raw = c.body.get("changes")
    if not isinstance(raw, dict) or not raw or not set(raw) <= set(STATUS_FIELDS):
        raise ApiError("bad_request", field="changes")
    changes = []
    for name in STATUS_FIELDS:
        value = raw.get(name)
        counted = name in ("wounds", "fatigue")
        if value is None:
            continue
        if counted and not (type(value) is int and 0 <= value <= 3):
            raise ApiError("bad_request", field="changes")
        if not counted and not isinstance(value, bool):
            raise ApiError("bad_request", field="changes")
        changes.append((name, int(value)))
    return savage.SetStatus(c.text("target"), tuple(changes))


ENCOUNTER_COMMANDS: dict[str, Spec] = {
    "start": Spec(_start, True),
    "end": Spec(_end, True),
    "undo": Spec(_undo, True),
    "add": Spec(_add, True),
    "deal": Spec(_enc(lambda c: savage.DealRound()), True),
    "remove": Spec(_enc(lambda c: savage.RemoveCombatant(c.text("id"))), True),
    "damage": Spec(_enc(_damage), True),
    "condition": Spec(_enc(_condition), True),
    "fatigue": Spec(_enc(lambda c: savage.ChangeFatigue(c.text("target"), c.int("delta"))), True),
    "status": Spec(_enc(_status), True),
    "benny": Spec(
        _enc(lambda c: savage.GiveBennies(c.text("actor"), c.int("count", 1, lo=1, hi=10))), True
    ),
    # players too (the engine checks the turn and the owner)
    "next": Spec(_enc(lambda c: savage.NextTurn()), False),
    "hold": Spec(_enc(lambda c: savage.Hold(c.text("actor"))), False),
    "act": Spec(_enc(lambda c: savage.ActNow(c.text("actor"))), False),
    "interrupt": Spec(_enc(lambda c: savage.Interrupt(c.text("actor"))), False),
    "soak": Spec(_enc(lambda c: savage.Soak(c.text("actor"))), False),
    "take": Spec(_enc(lambda c: savage.AcceptDamage(c.text("actor"))), False),
    "unshake": Spec(_enc(lambda c: savage.Unshake(c.text("actor"))), False),
    "new_card": Spec(_enc(lambda c: savage.DrawNewCard(c.text("actor"))), False),
    "declare": Spec(
        _enc(lambda c: savage.DeclareActions(c.text("actor"), c.int("count", lo=1, hi=3))), False
    ),
    "attack": Spec(_enc(_attack), False),
    "trait": Spec(_enc(_trait), False),
    "support": Spec(_enc(_support), False),
    "test": Spec(_enc(_test), False),
    "defend": Spec(_enc(lambda c: savage.Defend(c.text("actor"))), False),
    "aim": Spec(
        _enc(lambda c: savage.Aim(c.text("actor"), c.choice("mode", ("bonus", "ignore"), "bonus"))),
        False,
    ),
    "escape": Spec(
        _enc(
            lambda c: savage.EscapeBonds(
                c.text("actor"), c.choice("trait", ("strength", "athletics"), "athletics")
            )
        ),
        False,
    ),
    "reroll": Spec(_enc(lambda c: savage.Reroll(c.text("actor"))), False),
}
