"""``decide(fight, command, rng) -> events``: checks a command against the rules and the
fight's state, rolls what it needs and returns the events (nothing is changed here).

An attack draws its dice in this order: a defensive interrupt's Willpower roll (the target
decides to defend when the attack is declared), then combat.resolve_attack's."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from engine.dice.rng import Rng

from . import events as ev
from .attack_checks import able, able_to_attack, defense_of, simultaneous
from .combat import BLOCK, DODGE, PARRY, resolve_attack
from .commands import (
    INTERRUPT_POINT,
    INTERRUPT_ROLL,
    AddFighter,
    Adjust,
    Ambush,
    Attack,
    Command,
    Configure,
    DeclareActions,
    Defend,
    Delay,
    Drop,
    EndAction,
    FullDefense,
    Propose,
    Publish,
    RemoveFighter,
    StartTurn,
    Yield,
)
from .errors import StorytellerError
from .evolve import replay
from .fight import Fight, Fighter, PendingAmbush, Proposal
from .initiative import (
    Turn,
    act,
    can_act,
    delay,
    roll_initiative,
    yield_turn,
)
from .maneuvers import Situation, ambush
from .pools import multiple_actions
from .proposal import Tape

_GM_ONLY = (AddFighter, RemoveFighter, StartTurn, Ambush, Adjust, Publish, Drop, Configure)
_ACTIONS = (Yield, FullDefense, EndAction, Attack, Delay, Publish)
# what may happen while the GM reviews a proposal (the rest would change what it decided on)
_DURING_REVIEW = (Adjust, Publish, Drop, AddFighter, Defend)
Handler = Callable[[Fight, Any, Rng, int], list[ev.Event]]
_HANDLERS: dict[type[Command], Handler] = {}


def _on(cls: type[Command]) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        _HANDLERS[cls] = fn
        return fn

    return register


def decide(state: Fight, command: Command, rng: Rng) -> tuple[ev.Event, ...]:
    by = getattr(command, "by", None)
    if by is not None and isinstance(command, _GM_ONLY):
        raise StorytellerError("gm_only")
    if state.proposal is not None and not isinstance(command, _DURING_REVIEW):
        raise StorytellerError("proposal_pending")
    step = state.step + 1
    out = _HANDLERS[type(command)](state, command, rng, step)
    # the turn ends once nobody is left to act (or everyone yielded)
    after = replay(out, state)
    if after.turn is not None and after.turn.over() and isinstance(command, _ACTIONS):
        out.append(ev.TurnEnded(step, after.round, nothing_happened=after.turn.all_yielded()))
    return tuple(out)


def _own(state: Fight, fid: str, by: int | None) -> Fighter:
    fighter = state.fighter(fid)
    if by is not None and fighter.owner != by:
        raise StorytellerError("not_your_character", {"id": fid})
    return fighter


def _turn(state: Fight) -> Turn:
    if state.turn is None:
        raise StorytellerError("no_round")
    return state.turn


@_on(AddFighter)
def _add(state: Fight, cmd: AddFighter, rng: Rng, step: int) -> list[ev.Event]:
    if state.has(cmd.id):
        raise StorytellerError("fighter_exists")
    return [ev.FighterAdded(step, Fighter(cmd.id, cmd.character, cmd.owner))]


@_on(Configure)
def _configure(state: Fight, cmd: Configure, rng: Rng, step: int) -> list[ev.Event]:
    return [ev.Configured(step, cmd.options)]


@_on(RemoveFighter)
def _remove(state: Fight, cmd: RemoveFighter, rng: Rng, step: int) -> list[ev.Event]:
    state.fighter(cmd.id)
    return [ev.FighterRemoved(step, cmd.id)]


@_on(Ambush)
def _ambush(state: Fight, cmd: Ambush, rng: Rng, step: int) -> list[ev.Event]:
    a, v = state.fighter(cmd.attacker), state.fighter(cmd.victim)
    out = ambush(
        a.character, v.character, rng, victim_in_fight=state.round > 0, options=state.options
    )
    pending = None
    if out.attacks_first:
        pending = PendingAmbush(a.id, v.id, out.situation())
    return [
        ev.AmbushRolled(step, a.id, v.id, out.stealth, out.notice, out.outcome, out.bonus, pending)
    ]


@_on(StartTurn)
def _start(state: Fight, cmd: StartTurn, rng: Rng, step: int) -> list[ev.Event]:
    able = [(f.id, f.character) for f in state.fighters if state.can_fight(f.id)]
    if not able:
        raise StorytellerError("no_fighters")
    out: list[ev.Event] = []
    if state.turn is not None:
        out.append(ev.TurnEnded(step, state.round))
    # «В начале боя все игроки бросают один кубик»: the first turn's dice are kept
    kept = dict(state.initiative_dice) if state.options.initiative_once else None
    turn = roll_initiative(able, rng, state.options, kept)
    out.append(ev.TurnStarted(step, state.round + 1, turn.rolls))
    return out


@_on(DeclareActions)
def _declare(state: Fight, cmd: DeclareActions, rng: Rng, step: int) -> list[ev.Event]:
    f = _own(state, cmd.fighter, cmd.by)
    return [_declaration(state, f, cmd.count, step)]


def _declaration(state: Fight, f: Fighter, count: int, step: int) -> ev.ActionsDeclared:
    """DESIGN.md's «declare N actions» (the seed's «Множественные действия» is absent): by
    /actions, or with an attack (the picker's split) — the same checks for both."""
    if not can_act(_turn(state), f.id):
        raise StorytellerError("not_your_turn")
    multiple_actions(count, state.options)  # checks the count
    return ev.ActionsDeclared(step, f.id, count)


@_on(Delay)
def _delay(state: Fight, cmd: Delay, rng: Rng, step: int) -> list[ev.Event]:
    f = _own(state, cmd.fighter, cmd.by)
    delay(_turn(state), f.id)
    return [ev.Delayed(step, f.id)]


@_on(Yield)
def _yield(state: Fight, cmd: Yield, rng: Rng, step: int) -> list[ev.Event]:
    f = _own(state, cmd.fighter, cmd.by)
    turn = yield_turn(_turn(state), f.id)  # checks
    if f.id in turn.acted:  # yielded twice: the action is lost
        return [ev.Acted(step, f.id)]
    return [ev.Yielded(step, f.id)]


@_on(FullDefense)
def _full_defense(state: Fight, cmd: FullDefense, rng: Rng, step: int) -> list[ev.Event]:
    f = _own(state, cmd.fighter, cmd.by)
    able(state, f.id)
    turn = _turn(state)
    from_delay = f.id in turn.delayed
    act(turn, f.id)  # checks
    return [
        ev.FullDefenseDeclared(step, f.id),
        ev.Acted(step, f.id, from_delay),
    ]


@_on(EndAction)
def _end_action(state: Fight, cmd: EndAction, rng: Rng, step: int) -> list[ev.Event]:
    f = _own(state, cmd.fighter, cmd.by)
    turn = _turn(state)
    from_delay = f.id in turn.delayed
    act(turn, f.id)  # checks
    return [ev.Acted(step, f.id, from_delay)]


def _attack_turn(
    state: Fight, cmd: Attack, attacker: str, target: str
) -> tuple[Turn | None, bool, Situation]:
    """The turn the attack is made in (None: an ambush's, before the first round), whether
    it is that ambush, and its situation with the ambush's bonus and defense."""
    turn, ambush, pair = state.turn, state.ambush, (attacker, target)
    if turn is None and ambush is not None and (ambush.attacker, ambush.victim) == pair:
        amb = ambush.situation
        situation = dataclasses.replace(
            cmd.situation, ambush_bonus=amb.ambush_bonus, no_defense=amb.no_defense
        )
        return None, True, situation
    turn = _turn(state)
    if turn.done(attacker):
        raise StorytellerError("already_acted")
    if not can_act(turn, attacker):
        raise StorytellerError("not_your_turn")
    return turn, False, cmd.situation


@_on(Attack)
def _attack(state: Fight, cmd: Attack, rng: Rng, step: int) -> list[ev.Event]:
    attacker = _own(state, cmd.attacker, cmd.by)
    target = state.fighter(cmd.target)
    able_to_attack(state, attacker.id)
    if target.dead:
        raise StorytellerError("unknown_fighter", {"id": target.id})
    turn, ambushing, situation = _attack_turn(state, cmd, attacker.id, target.id)
    out: list[ev.Event] = []
    if cmd.actions:
        out.append(_declaration(state, attacker, cmd.actions, step))
        attacker = dataclasses.replace(attacker, actions=cmd.actions)
    if attacker.actions > 1:
        penalty = multiple_actions(attacker.actions, state.options)[attacker.actions_used]
        situation = dataclasses.replace(situation, actions_penalty=penalty)
    if situation.willpower:
        if attacker.character.willpower_points < 1:
            raise StorytellerError("no_willpower")
        out.append(ev.WillpowerSpent(step, attacker.id, "success"))
    if situation.no_defense and cmd.defense is not None:
        # a won ambush: «жертва не имеет возможности защищаться»
        raise StorytellerError("cannot_defend")
    defense, source = (
        (None, None) if situation.no_defense else defense_of(state, cmd, target, rng, step, out)
    )
    r = resolve_attack(
        attacker.id,
        attacker.character,
        target.id,
        target.character,
        rng,
        weapon=cmd.weapon,
        defense=defense,
        situation=situation,
        # the defense checked above is the one made (the GM's included)
        overrides=dataclasses.replace(cmd.overrides, defense=None),
        options=state.options,
    )
    out.append(
        ev.AttackResolved(
            step,
            r.attacker,
            r.target,
            r.weapon,
            r.attack_pool,
            r.attack,
            r.defense,
            source,
            r.defense_pool,
            r.defense_roll,
            r.hit,
            r.extra,
            r.damage,
            r.counter,
        )
    )
    for hurt in (r.damage, r.counter):
        if hurt is None:
            continue
        was = state.fighter(hurt.victim).character.incapacitated(state.options.health)
        if hurt.dead:
            out.append(ev.Died(step, hurt.victim))
        elif hurt.incapacitated and not was:
            keeps = not ambushing and simultaneous(state, turn, attacker.id, hurt.victim)
            out.append(ev.Incapacitated(step, hurt.victim, keeps))
    if turn is not None and not ambushing:
        last = attacker.actions_used + 1 >= attacker.actions
        if last:
            from_delay = attacker.id in turn.delayed
            out.append(ev.Acted(step, attacker.id, from_delay))
    return out


# --- the GM's review (DESIGN.md decision 5: every automatic resolution is a proposal) -----


def _review(state: Fight) -> Proposal:
    if state.proposal is None:
        raise StorytellerError("no_proposal")
    return state.proposal


def _propose(state: Fight, attack: Attack, tape: Tape, step: int, opened: int) -> list[ev.Event]:
    _attack(state, attack, tape, step)  # refusals now, not at publication
    return [ev.AttackProposed(step, Proposal(attack, tape.used, opened))]


@_on(Propose)
def _propose_attack(state: Fight, cmd: Propose, rng: Rng, step: int) -> list[ev.Event]:
    attack = dataclasses.replace(cmd.attack, by=cmd.by)
    out = _propose(state, attack, Tape((), rng), step, step)
    if _asks(state, attack, step):
        proposed = out[-1]
        assert isinstance(proposed, ev.AttackProposed)
        until = cmd.now + state.options.defense_seconds
        asking = dataclasses.replace(proposed.proposal, asking=True, until=until)
        out[-1] = dataclasses.replace(proposed, proposal=asking)
    return out


def _asks(state: Fight, attack: Attack, step: int) -> bool:
    """Whether the defender's player chooses the defense: a player's character attacked
    with no defense named, when it can make one and the game gives time to choose."""
    if state.options.defense_seconds <= 0 or state.fighter(attack.target).npc:
        return False
    if attack.defense is not None or attack.interrupt is not None:
        return False
    return any(c.kind is not None for c in _choices(state, attack, step))


@_on(Defend)
def _defend(state: Fight, cmd: Defend, rng: Rng, step: int) -> list[ev.Event]:
    p = _review(state)
    if not p.asking:
        raise StorytellerError("not_asking")
    _own(state, p.attack.target, cmd.by)
    attack = dataclasses.replace(
        p.attack, defense=cmd.kind, interrupt=cmd.interrupt, defense_weapon=cmd.weapon
    )
    return _propose(state, attack, Tape(p.faces, rng), step, p.opened)


# --- the defender's choice ---------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class DefenseChoice:
    """A defense the target may make against the pending attack (``kind`` None: none), with
    its pool's dice; ``interrupt`` how a target that has not acted gets to defend."""

    kind: str | None
    interrupt: str | None = None
    weapon: str | None = None
    dice: int = 0

    def command(self, by: int | None = None) -> Defend:
        return Defend(self.kind, self.interrupt, self.weapon, by=by)


class _Nines:
    """A probe's dice: every face a 9 — no 1s, no 10s to re-roll, an interrupt that works."""

    def randint(self, a: int, b: int) -> int:
        return min(max(9, a), b)


def _choices(state: Fight, attack: Attack, step: int) -> tuple[DefenseChoice, ...]:
    target = state.fighter(attack.target)
    parries = dict.fromkeys(w.name for w in target.character.weapons if w.ability == "melee")
    out = [DefenseChoice(None)]
    for kind in (BLOCK, DODGE, PARRY):
        for weapon in parries if kind == PARRY else (None,):
            for interrupt in (None, INTERRUPT_ROLL, INTERRUPT_POINT):
                probe = dataclasses.replace(
                    attack,
                    defense=kind,
                    interrupt=interrupt,
                    defense_weapon=weapon,
                    overrides=dataclasses.replace(attack.overrides, defense=None, no_defense=False),
                )
                try:
                    events = _attack(state, probe, _Nines(), step)
                except StorytellerError as refused:
                    if refused.code == "cannot_defend" and interrupt is None:
                        continue  # only an interrupt gets this target a defense
                    break
                shown = next(e for e in events if isinstance(e, ev.AttackResolved))
                dice = shown.defense_pool.dice if shown.defense_pool is not None else 0
                out.append(DefenseChoice(kind, interrupt, weapon, dice))
                if interrupt is None:
                    break  # defending anyway: an interrupt would add nothing
    return tuple(out)


def defense_choices(state: Fight) -> tuple[DefenseChoice, ...]:
    """The defenses the pending attack's target may choose now, «no defense» first — each
    found by the very checks the attack makes (one rule path for taps and typed words)."""
    p = _review(state)
    return _choices(state, p.attack, state.step + 1)


def default_defense(state: Fight) -> DefenseChoice:
    """What the defender makes when the time to choose runs out: the largest pool that
    spends nothing (no interrupt) with ``defense_by_default``, else no defense."""
    free = [c for c in defense_choices(state) if c.kind is not None and c.interrupt is None]
    if not state.options.defense_by_default or not free:
        return DefenseChoice(None)
    return max(free, key=lambda c: c.dice)


def overdue(state: Fight, now: float) -> bool:
    """The pending attack asks its defender and the time to choose is over."""
    p = state.proposal
    return p is not None and p.asking and now >= p.until


@_on(Adjust)
def _adjust(state: Fight, cmd: Adjust, rng: Rng, step: int) -> list[ev.Event]:
    # the dice already rolled are kept, in their order; only what the change needs is new
    p = _review(state)
    attack = dataclasses.replace(p.attack, overrides=cmd.overrides)
    return _propose(state, attack, Tape(p.faces, rng), step, p.opened)


@_on(Drop)
def _drop(state: Fight, cmd: Drop, rng: Rng, step: int) -> list[ev.Event]:
    _review(state)
    return [ev.ProposalDropped(step)]


@_on(Publish)
def _publish(state: Fight, cmd: Publish, rng: Rng, step: int) -> list[ev.Event]:
    p = _review(state)
    head: list[ev.Event] = [ev.ProposalPublished(step, p.attack.attacker, p.attack.target)]
    return head + _attack(replay(head, state), p.attack, Tape(p.faces), step)


def preview(state: Fight) -> tuple[ev.Event, ...]:
    """What publishing the pending proposal would add (the GM's view of it)."""
    _review(state)
    return decide(state, Publish(), Tape())[1:]
