"""The duel as commands and events: ``decide(state, command, rng) -> events`` checks and
rolls, ``evolve(state, event) -> state`` applies (no rng), ``replay`` rebuilds a duel.

«Два игрока на ветку, ходят в произвольном порядке, затем резолв»: each fighter submits in
private (a change replaces the submission until both are in); the GM then publishes the
turn, once — a second Publish of the same turn is stale.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from engine.dice.rng import Rng, ScriptedRng

from .adjust import set_roll, set_value
from .check import draw_dice, submit
from .commands import (
    Adjust,
    Command,
    Configure,
    DefaultTurn,
    PassDeadline,
    Publish,
    SetDeadline,
    Stop,
    Submit,
)
from .deadline import default_defense, due_after, is_overdue
from .dice import TurnDice, faces_of
from .errors import DuelError
from .events import (
    Adjusted,
    Configured,
    DeadlinePassed,
    DeadlineSet,
    DiceDrawn,
    Event,
    Stopped,
    Submitted,
    TurnPublished,
)
from .options import MAX_DEADLINE_HOURS
from .proposal import Proposal, Published, Reveal, Sealed, Step
from .resolve import apply, resolve_turn
from .state import DuelState

MIN_SALT = 16
_NO_RNG = ScriptedRng([])  # a seeded draw takes no face from an rng


def decide(state: DuelState, command: Command, rng: Rng) -> tuple[Event, ...]:
    events = _decide(state, command, rng)
    if isinstance(command, Submit | DefaultTurn | PassDeadline):
        return _draw_when_sealed(state, events)
    return events


def _decide(state: DuelState, command: Command, rng: Rng) -> tuple[Event, ...]:
    step = state.step + 1
    if isinstance(command, Submit):
        return (Submitted(step, _seal(state, command, rng)),)
    if command.by is not None:
        raise DuelError("gm_only")
    if isinstance(command, Configure):
        if state.pending:  # the sealed dice were rolled with the options they met
            raise DuelError("options_between_turns")
        if command.seed and (state.step or state.history):
            raise DuelError("options_between_turns")  # a seed opens the first turn only
        return (Configured(step, command.options, command.seed),)
    if isinstance(command, Adjust):
        return (Adjusted(step, _adjust(state, command)),)
    if isinstance(command, SetDeadline):
        return (_set_deadline(state, command, step),)
    if isinstance(command, PassDeadline):
        return _pass_deadline(state, command, step, rng)
    if isinstance(command, Stop):
        if state.over:
            raise DuelError("duel_over")
        return (Stopped(step, state.turn),)
    if isinstance(command, DefaultTurn):
        return (Submitted(step, _default_turn(state, command, rng)),)
    published = _publish(state, command)
    return (TurnPublished(step, published, due_after(state, command.now), command.seed),)


def _set_deadline(state: DuelState, cmd: SetDeadline, step: int) -> DeadlineSet:
    if state.over:
        raise DuelError("duel_over")
    d = cmd.deadline
    if d is not None and not 1 <= d.hours <= MAX_DEADLINE_HOURS:
        raise DuelError("bad_deadline", {"max": MAX_DEADLINE_HOURS})
    return DeadlineSet(step, d, due_after(replace(state, deadline=d), cmd.now))


def _seal_default(state: DuelState, fighter: str, salt: str, rng: Rng) -> Sealed:
    if len(salt) < MIN_SALT:
        raise ValueError("a submission is sealed with a salt of at least 16 characters")
    actions = default_defense(state, fighter, rng)
    later = _draws_later(state)
    sub = submit(state, fighter, actions, rng, dice=_dice(state, fighter, rng), draw=not later)
    return Sealed(sub, salt, sub.receipt(salt, dice=not later), default=True)


def _pass_deadline(state: DuelState, cmd: PassDeadline, step: int, rng: Rng) -> tuple[Event, ...]:
    if cmd.turn != state.turn or not is_overdue(state, cmd.now):
        raise DuelError("deadline_not_due")
    missing = state.missing()
    events: list[Event] = [DeadlinePassed(step, state.turn, missing)]
    if state.deadline is not None and state.deadline.policy == "defend":
        events += [
            Submitted(step, _seal_default(state, f, f"{cmd.salt}:{f}", rng)) for f in missing
        ]
    return tuple(events)


def _default_turn(state: DuelState, cmd: DefaultTurn, rng: Rng) -> Sealed:
    if cmd.turn != state.turn or not state.overdue:
        raise DuelError("deadline_not_passed")
    if state.deadline is not None and state.deadline.policy == "wait":
        raise DuelError("deadline_waits")
    if cmd.fighter not in state.missing():
        raise DuelError("already_sent")
    return _seal_default(state, cmd.fighter, cmd.salt, rng)


def _seal(state: DuelState, cmd: Submit, rng: Rng) -> Sealed:
    if len(cmd.salt) < MIN_SALT:  # the service's new_salt(): a programming error
        raise ValueError("a submission is sealed with a salt of at least 16 characters")
    fighter = state.fighter(cmd.fighter)
    # a player's fighter is sealed by its player alone; the GM's (no owner) by the GM — the
    # GM changes a player's turn only by the review's adjustments, which the post shows
    if cmd.by != fighter.owner:
        raise DuelError("not_your_fighter")
    if cmd.seals is not None and cmd.seals != state.seals(cmd.fighter):
        raise DuelError("already_sent")  # one press seals once
    if state.overdue and state.sealed(cmd.fighter) is not None:
        raise DuelError("sealed_at_deadline")  # nothing is re-sealed after the deadline
    others = [s for s in state.pending if s.submission.fighter != cmd.fighter]
    if len(others) == len(state.fighters) - 1 and state.sealed(cmd.fighter) is not None:
        raise DuelError("both_in")  # «a fighter may change a submission until both are in»
    dice = _dice(state, cmd.fighter, rng)
    later = _draws_later(state)
    sub = submit(state, cmd.fighter, cmd.actions, rng, cmd.comment, dice, draw=not later)
    return Sealed(sub, cmd.salt, sub.receipt(cmd.salt, dice=not later))


def _draws_later(state: DuelState) -> bool:
    """A seeded turn seals the choices only, its dice drawn once both are in (dice.py) —
    unless a seal of this turn already holds dice (sealed before this scheme: the turn ends
    as it began, each seal drawn from the seed alone)."""
    return bool(state.dice_seed) and not any(s.submission.rolls for s in state.pending)


def _draw_when_sealed(state: DuelState, events: tuple[Event, ...]) -> tuple[Event, ...]:
    """Once both turns of a seeded turn are sealed (the GM's review opens), their dice:
    ``HMAC-SHA256(seed, "<turn>|<fighter>|<slot>|<receipt a>|<receipt b>")``, the final
    sealed receipts in the duel's order of fighters (dice.py)."""
    after = replay(events, state)
    sealed = [after.sealed(f.id) for f in after.fighters]
    if not after.dice_seed or after.over or after.missing():
        return events
    pending = [s for s in sealed if s is not None]
    if len(pending) != 2 or all(s.submission.drawn for s in pending):
        return events
    receipts = (pending[0].receipt, pending[1].receipt)
    drawn = tuple(
        draw_dice(
            after,
            s.submission,
            TurnDice(after.turn, s.submission.fighter, _NO_RNG, after.dice_seed, {}, receipts),
        )
        for s in pending
    )
    return (*events, DiceDrawn(after.step, after.turn, drawn))


def _dice(state: DuelState, fighter: str, rng: Rng) -> TurnDice:
    """One roll per turn (dice.py): the turn's seed, or the fighter's dice of this turn kept
    through a change."""
    kept: dict[str, tuple[int, int]] = {}
    for s in (*state.replaced, *state.pending):
        if s.submission.fighter == fighter:
            kept.update((slot, (sides, face)) for slot, sides, face in faces_of(s.submission))
    return TurnDice(state.turn, fighter, rng, state.dice_seed, kept)


def propose(state: DuelState) -> Proposal:
    """The resolution of the sealed submissions with the GM's changes so far (the review)."""
    a, b = (state.sealed(f.id) for f in state.fighters)
    if a is None or b is None:
        raise DuelError("missing_submission")
    out = resolve_turn(state, a.submission, b.submission)
    for note in state.adjustments:
        out = _apply_change(state, out, note)
    return out


def _apply_change(state: DuelState, proposal: Proposal, note: Step) -> Proposal:
    p = note.params
    if note.code == "adjusted_roll":
        return set_roll(
            state, proposal, note.fighter, p["action"] - 1, p["face"], p["reason"], p["check"]
        )
    return set_value(proposal, note.fighter, p["field"], p["value"], p["reason"])


def _adjust(state: DuelState, cmd: Adjust) -> Step:
    if cmd.turn != state.turn:
        raise DuelError("stale_proposal", {"got": cmd.turn, "turn": state.turn})
    proposal = propose(state)
    if cmd.field == "roll":
        if type(cmd.value) is not int:
            raise DuelError("bad_dice")
        changed = set_roll(
            state, proposal, cmd.fighter, cmd.action, cmd.value, cmd.reason, cmd.check
        )
    else:
        changed = set_value(proposal, cmd.fighter, cmd.field, cmd.value, cmd.reason)
    return changed.adjustments[-1]


def _publish(state: DuelState, cmd: Publish) -> Published:
    if cmd.turn != state.turn:
        raise DuelError("stale_proposal", {"got": cmd.turn, "turn": state.turn})
    proposal = cmd.proposal or propose(state)
    sealed = [state.sealed(f.id) for f in state.fighters]
    if any(s is None for s in sealed):
        raise DuelError("missing_submission")
    # the GM edits outcomes, never the sealed submissions: their receipts must check out
    if proposal.turn != state.turn or list(proposal.submissions) != [
        s.submission for s in sealed if s is not None
    ]:
        raise DuelError("stale_proposal", {"got": proposal.turn, "turn": state.turn})
    reveals = tuple(Reveal(s.submission.fighter, s.receipt, s.salt, s.default) for s in sealed if s)
    return Published(proposal, reveals, state.replaced, state.dice_seed)


def evolve(state: DuelState, event: Event) -> DuelState:
    if isinstance(event, Submitted):
        fighter = event.sealed.submission.fighter
        pending = tuple(s for s in state.pending if s.submission.fighter != fighter)
        replaced = tuple(s for s in state.pending if s.submission.fighter == fighter)
        return replace(
            state,
            pending=(*pending, event.sealed),
            replaced=(*state.replaced, *replaced),
            step=event.step,
        )
    if isinstance(event, DiceDrawn):
        subs = {sub.fighter: sub for sub in event.submissions}
        pending = tuple(
            replace(s, submission=subs.get(s.submission.fighter, s.submission))
            for s in state.pending
        )
        return replace(state, pending=pending, step=event.step)
    if isinstance(event, Adjusted):
        return replace(state, adjustments=(*state.adjustments, event.adjustment), step=event.step)
    if isinstance(event, Configured):
        seed = event.seed or state.dice_seed
        return replace(state, options=event.options, dice_seed=seed, step=event.step)
    if isinstance(event, DeadlineSet):
        return replace(
            state, deadline=event.deadline, due=event.due, overdue=False, step=event.step
        )
    if isinstance(event, DeadlinePassed):
        return replace(state, overdue=True, step=event.step)
    if isinstance(event, Stopped):
        return replace(
            state, stopped=True, pending=(), replaced=(), adjustments=(), step=event.step
        )
    assert isinstance(event, TurnPublished)
    after = apply(state, event.published.proposal)
    return replace(
        after,
        pending=(),
        replaced=(),
        adjustments=(),
        history=(*state.history, event.published),
        due=event.due,
        overdue=False,
        dice_seed=event.seed,
        step=event.step,
    )


def replay(events: Iterable[Event], initial: DuelState) -> DuelState:
    state = initial
    for event in events:
        state = evolve(state, event)
    return state
