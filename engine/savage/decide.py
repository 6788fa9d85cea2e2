"""``decide(state, command, rng) -> events``: checks a command and turns it into events.

Only this layer draws random numbers; every card and die face ends up in the events.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from engine.dice.rng import Rng

from . import actions, authority, damage, initiative, reroll
from .builder import Builder
from .character import CONDITIONS, Condition
from .commands import (
    AcceptDamage,
    ActNow,
    AddCombatant,
    Aim,
    ApplyDamage,
    Attack,
    ChangeFatigue,
    ClearCondition,
    Command,
    CountChaseActions,
    DealRound,
    DeclareActions,
    Defend,
    DrawNewCard,
    EscapeBonds,
    GiveBennies,
    Hold,
    Interrupt,
    NextTurn,
    RemoveCombatant,
    Reroll,
    SetCondition,
    SetStatus,
    Soak,
    Support,
    Test,
    TraitRoll,
    Unshake,
)
from .encounter import Combatant, Encounter
from .errors import RuleError
from .events import (
    BenniesGiven,
    BennySpent,
    ChaseActionsCounted,
    CombatantAdded,
    CombatantRemoved,
    ConditionAdded,
    ConditionRemoved,
    DamageRolled,
    Event,
    HoldTaken,
    ShakenRemoved,
    StatusSet,
    StunnedRemoved,
    TurnQueued,
)
from .rolls import damage_check, fixed_damage_outcome
from .sheet import MAX_GROUP

# Commands allowed while damage waits for a Soak decision.
_WHILE_PENDING = (
    Soak,
    AcceptDamage,
    GiveBennies,
    SetStatus,
    Reroll,
    CountChaseActions,
)  # Reroll: a Soak only
_GM_ONLY = (
    AddCombatant,
    RemoveCombatant,
    DealRound,
    ApplyDamage,
    GiveBennies,
    SetCondition,
    ClearCondition,
    ChangeFatigue,
    SetStatus,
    CountChaseActions,
)
STATUS_FIELDS = ("wounds", "fatigue", "shaken", "stunned", "incapacitated", "bleeding_out", "dead")


def decide(
    state: Encounter, command: Command, rng: Rng, *, table: authority.Table | None = None
) -> tuple[Event, ...]:
    """``table``: the game's choices of who sets what (`authority.Table`; the defaults)."""
    return decide_with_state(state, command, rng, table=table)[0]


def decide_with_state(
    state: Encounter, command: Command, rng: Rng, *, table: authority.Table | None = None
) -> tuple[tuple[Event, ...], Encounter]:
    """`decide`, and the state after its events: the working copy the rules evolved as they
    emitted (the same `evolve`, so it equals folding the events on `state`)."""
    by = getattr(command, "by", None)
    if by is not None and isinstance(command, _GM_ONLY):
        raise RuleError("gm_only")
    authority.check(command, table or authority.Table())
    if state.pending is not None and not isinstance(command, _WHILE_PENDING):
        raise RuleError("damage_pending", {"target": state.pending.character})
    b = Builder(state, rng)
    _HANDLERS[type(command)](b, command)
    return tuple(b.events), b.state


def _own(b: Builder, some_id: str, by: int | None) -> None:
    """A player may act only for a character they own (a group: any member)."""
    if by is None:
        return
    combatant = b.combatant_of(some_id)
    owners = {m.owner for m in combatant.members}
    if some_id != combatant.id:
        owners = {b.character(some_id).owner}
    if by not in owners:
        raise RuleError("not_your_character", {"id": some_id})


# --- handlers -------------------------------------------------------------------------


def _add(b: Builder, cmd: AddCombatant) -> None:
    if not 1 <= len(cmd.members) <= MAX_GROUP:
        raise RuleError("bad_group_size", {"max": MAX_GROUP})
    taken = {c.id for c in b.state.combatants} | {m.id for m in b.state.characters}
    ids = [cmd.id, *(m.id for m in cmd.members if m.id != cmd.id)]
    if not cmd.id or any(not m.id for m in cmd.members) or len(set(ids)) != len(ids):
        raise RuleError("bad_target", {"id": cmd.id})
    if taken & set(ids):
        raise RuleError("combatant_exists", {"id": sorted(taken & set(ids))[0]})
    group = len(cmd.members) > 1
    b.emit(
        CombatantAdded,
        combatant=Combatant(id=cmd.id, name=cmd.name, members=cmd.members, group=group),
    )


def _remove(b: Builder, cmd: RemoveCombatant) -> None:
    """A combatant, or one member of a group by the member's id (the last member takes the
    group with it)."""
    combatant = b.state.combatant_of(cmd.id)
    if combatant.id == cmd.id or len(combatant.members) == 1:
        b.emit(CombatantRemoved, combatant=combatant.id)
        return
    b.emit(CombatantRemoved, combatant=combatant.id, member=cmd.id)


def _deal(b: Builder, cmd: DealRound) -> None:
    initiative.deal_round(b)


def _next(b: Builder, cmd: NextTurn) -> None:
    if cmd.by is not None:
        current = b.state.current
        if current is None or cmd.by not in {m.owner for m in b.state.combatant(current).members}:
            raise RuleError("not_your_turn")
    initiative.next_turn(b)


def _hold(b: Builder, cmd: Hold) -> None:
    _own(b, cmd.actor, cmd.by)
    combatant = b.combatant_of(cmd.actor)
    if combatant.hold:
        raise RuleError("on_hold_already", {"id": combatant.id})
    if b.state.current != combatant.id:
        raise RuleError("not_your_turn", {"id": combatant.id})
    members = combatant.active_members
    able = [m for m in members if not (m.status.shaken or m.status.stunned or m.status.free_only)]
    if not able:  # DESIGN.md / official SWADE: Shaken or Stunned cannot go on Hold
        raise RuleError("cannot_hold", {"id": combatant.id})
    if any(m.status.rolled or m.status.actions_used or m.status.full_turn for m in members):
        raise RuleError("already_acted", {"id": combatant.id})
    b.emit(HoldTaken, combatant=combatant.id)
    initiative.start_next(b)


def _act_now(b: Builder, cmd: ActNow) -> None:
    _own(b, cmd.actor, cmd.by)
    combatant = b.combatant_of(cmd.actor)
    how = initiative.can_act_out_of_order(combatant)
    if how is None or b.state.current == combatant.id or combatant.id in b.state.queued:
        raise RuleError("cannot_act_now", {"id": combatant.id})
    if b.state.current is not None:  # nobody's turn is cut short: it goes next
        b.emit(TurnQueued, combatant=combatant.id)
        return
    initiative.start_turn(b, combatant.id, how)


def _interrupt(b: Builder, cmd: Interrupt) -> None:
    _own(b, cmd.actor, cmd.by)
    initiative.interrupt(b, b.combatant_of(cmd.actor))


def _new_card(b: Builder, cmd: DrawNewCard) -> None:
    _own(b, cmd.actor, cmd.by)
    combatant = b.combatant_of(cmd.actor)
    if b.state.round == 0:
        raise RuleError("no_round")
    if combatant.card is None:
        raise RuleError("no_card", {"id": combatant.id})
    if combatant.acted:
        raise RuleError("already_acted", {"id": combatant.id})
    payer = b.character(cmd.actor) if cmd.actor != combatant.id else combatant.members[0]
    if payer.bennies <= 0:
        raise RuleError("no_bennies")
    b.emit(BennySpent, character=payer.id, purpose="card")
    initiative.deal_to(b, combatant, benny=True)


def _declare(b: Builder, cmd: DeclareActions) -> None:
    _own(b, cmd.actor, cmd.by)
    actions.declare(b, b.character(cmd.actor), cmd.count)


class _Acting(Protocol):
    """A command some character acts in: its actor, and who sent it (None: the GM)."""

    @property
    def actor(self) -> str: ...
    @property
    def by(self) -> int | None: ...


A = TypeVar("A", bound=_Acting)


def _acting(handler: Callable[[Builder, A], None]) -> Callable[[Builder, A], None]:
    def run(b: Builder, cmd: A) -> None:
        if getattr(cmd, "free", False) and isinstance(cmd, Attack) and cmd.by is not None:
            raise RuleError("gm_only")  # free attacks are triggered by the GM
        _own(b, cmd.actor, cmd.by)
        handler(b, cmd)

    return run


def _apply_damage(b: Builder, cmd: ApplyDamage) -> None:
    target = b.character(cmd.target)
    if target.status.dead:
        raise RuleError("bad_target", {"id": cmd.target})
    if cmd.amount is None and not cmd.dice:
        raise RuleError("bad_amount")
    if cmd.dice:
        result = damage_check(
            b.rng,
            cmd.dice,
            toughness=target.toughness,
            armor=target.armor,
            ap=max(0, cmd.ap),
            already_shaken=target.status.shaken,
            hardy=target.hardy,
        )
        b.emit(DamageRolled, character=target.id, attacker="", result=result)
        outcome = result.outcome
    else:
        outcome = fixed_damage_outcome(
            cmd.amount or 0,
            toughness=target.toughness,
            armor=target.armor,
            ap=max(0, cmd.ap),
            already_shaken=target.status.shaken,
            hardy=target.hardy,
        )
    assert outcome is not None
    damage.resolve(b, target.id, outcome)


def _soak(b: Builder, cmd: Soak) -> None:
    _own(b, cmd.actor, cmd.by)
    damage.soak(b, b.character(cmd.actor).id)


def _accept(b: Builder, cmd: AcceptDamage) -> None:
    _own(b, cmd.actor, cmd.by)
    damage.accept(b, b.character(cmd.actor).id)


def _unshake(b: Builder, cmd: Unshake) -> None:
    _own(b, cmd.actor, cmd.by)
    character = b.character(cmd.actor)
    if not character.status.shaken:
        raise RuleError("not_shaken")
    if character.bennies <= 0:
        raise RuleError("no_bennies")
    b.emit(BennySpent, character=character.id, purpose="unshake")
    b.emit(ShakenRemoved, character=character.id, reason="benny")


def _reroll(b: Builder, cmd: Reroll) -> None:
    _own(b, cmd.actor, cmd.by)
    reroll.reroll(b, b.character(cmd.actor).id)


def _give(b: Builder, cmd: GiveBennies) -> None:
    character = b.character(cmd.actor)
    if cmd.count < 1:
        raise RuleError("bad_amount")
    b.emit(BenniesGiven, character=character.id, count=cmd.count)


def _set_condition(b: Builder, cmd: SetCondition) -> None:
    character = b.character(cmd.target)
    if cmd.kind == "shaken":
        damage.shake(b, character.id, "gm")
        return
    if cmd.kind == "stunned":
        damage.stun(b, character.id)
        return
    if cmd.kind not in CONDITIONS or cmd.kind == "support":
        raise RuleError("unknown_condition", {"kind": cmd.kind})
    value = 4 if cmd.kind == "defend" else 0
    if cmd.duration == "manual":
        until, turn = "manual", 0
    elif cmd.duration == "end_of_next_turn":
        until, turn = "end", b.end_of_next_turn(character.id)
    elif cmd.duration == "start_of_next_turn":
        until, turn = "start", character.status.turns_started + 1
    else:
        raise RuleError("bad_modifier", {"label": cmd.duration})
    b.emit(
        ConditionAdded,
        character=character.id,
        condition=Condition(cmd.kind, until, turn, value=value, source="gm"),
    )


def _clear_condition(b: Builder, cmd: ClearCondition) -> None:
    character = b.character(cmd.target)
    if cmd.kind == "shaken":
        if not character.status.shaken:
            raise RuleError("not_shaken")
        b.emit(ShakenRemoved, character=character.id, reason="gm")
    elif cmd.kind == "stunned":
        if not character.status.stunned:
            raise RuleError("unknown_condition", {"kind": cmd.kind})
        b.emit(StunnedRemoved, character=character.id)
    elif character.status.has(cmd.kind):
        b.emit(ConditionRemoved, character=character.id, kind=cmd.kind, reason="gm")
    else:
        raise RuleError("unknown_condition", {"kind": cmd.kind})


def _chase_actions(b: Builder, cmd: CountChaseActions) -> None:
    character = b.character(cmd.character)
    if not 1 <= cmd.declared <= actions.MAX_ACTIONS or not 0 <= cmd.used <= cmd.declared:
        raise RuleError("too_many_actions", {"declared": cmd.declared})
    status = character.status
    if (max(status.actions_declared, cmd.declared), cmd.used) == (
        status.actions_declared,
        status.chase_actions,
    ):
        return
    b.emit(ChaseActionsCounted, character=character.id, declared=cmd.declared, used=cmd.used)


def _fatigue(b: Builder, cmd: ChangeFatigue) -> None:
    damage.change_fatigue(b, b.character(cmd.target).id, cmd.delta)


def _set_status(b: Builder, cmd: SetStatus) -> None:
    character = b.character(cmd.target)
    for name, value in cmd.changes:
        if name not in STATUS_FIELDS:
            raise RuleError("bad_modifier", {"label": name})
        if name in ("wounds", "fatigue") and not 0 <= value <= 3:
            raise RuleError("bad_amount")
    changes = tuple((n, int(v) if n in ("wounds", "fatigue") else bool(v)) for n, v in cmd.changes)
    b.emit(StatusSet, character=character.id, changes=changes)


_HANDLERS: dict[type[Command], Callable[[Builder, Any], None]] = {
    AddCombatant: _add,
    RemoveCombatant: _remove,
    DealRound: _deal,
    NextTurn: _next,
    Hold: _hold,
    ActNow: _act_now,
    Interrupt: _interrupt,
    DrawNewCard: _new_card,
    DeclareActions: _declare,
    Attack: _acting(actions.attack),
    Support: _acting(actions.support),
    Test: _acting(actions.test),
    Defend: _acting(actions.defend),
    Aim: _acting(actions.aim),
    EscapeBonds: _acting(actions.escape),
    TraitRoll: _acting(actions.trait_roll),
    ApplyDamage: _apply_damage,
    Soak: _soak,
    AcceptDamage: _accept,
    Unshake: _unshake,
    Reroll: _reroll,
    GiveBennies: _give,
    SetCondition: _set_condition,
    ClearCondition: _clear_condition,
    ChangeFatigue: _fatigue,
    CountChaseActions: _chase_actions,
    SetStatus: _set_status,
}
