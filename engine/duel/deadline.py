"""A duel's optional deadline per turn (issue item 4: «Submission reminders and an optional
deadline per duel»). The seed has none; what a forum does when a fighter is silent is the
GM's call, so the GM chooses it per duel (`Deadline.policy`, docs/rules/duel.md «Deadline»).
Time is a parameter: the commands bring the clock (``now``), the state keeps when the turn's
time runs out (``due``) and that it has been acted on (``overdue``)."""

from __future__ import annotations

from engine.dice.rng import Rng

from .actions import DIRECTIONS, Action, Block, Dodge, FullDefense
from .check import plan
from .errors import DuelError
from .state import DuelState

HOUR = 3600.0


def due_after(state: DuelState, now: float | None) -> float | None:
    """When a turn starting at ``now`` must be in (None: no deadline or no clock)."""
    if state.deadline is None or now is None:
        return None
    return now + state.deadline.hours * HOUR


def is_overdue(state: DuelState, now: float) -> bool:
    """The turn's time ran out with a submission missing, and nothing was done about it."""
    return (
        state.due is not None and now >= state.due and not state.overdue and bool(state.missing())
    )


def default_defense(state: DuelState, fighter: str, rng: Rng) -> tuple[Action, ...]:
    """The most defensive turn the rules allow the fighter now: full defense by a block,
    else one block, else one dodge (exhausted, parried, getting up: what `plan` accepts),
    else nothing; its direction rolled (1d3) — the seed has no default, and a fixed side
    would be known to the opponent."""
    direction = DIRECTIONS[rng.randint(1, len(DIRECTIONS)) - 1]
    for actions in ((FullDefense(direction),), (Block(direction),), (Dodge(direction),), ()):
        try:
            plan(state, fighter, actions)
        except DuelError:
            continue
        return actions
    return ()
