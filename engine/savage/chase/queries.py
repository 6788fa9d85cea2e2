"""Read-only questions about a chase state (distance, melee, multi-action count)."""

from __future__ import annotations

from .errors import ChaseError
from .model import ChaseState
from .options import DISTANCE_BETWEEN
from .rules import multi_action_penalty


def card_distance(state: ChaseState, a: str, b: str) -> int:
    """Chase cards between two participants (seed 001, line 41), counted per
    ``options.distance``: "steps" (neighbours 1 apart) or "between" (neighbours 0 apart)."""
    steps = abs(state.participant(a).position - state.participant(b).position)
    if state.options.distance == DISTANCE_BETWEEN:
        return max(0, steps - 1)
    return steps


def same_card(state: ChaseState, a: str, b: str) -> bool:
    """Melee usually needs both on one chase card (seed 001, line 41)."""
    return state.participant(a).position == state.participant(b).position


def require_same_card(state: ChaseState, a: str, b: str) -> None:
    """For the combat engine's melee in a chase: ChaseError("not_on_same_card") otherwise."""
    if not same_card(state, a, b):
        raise ChaseError(
            "not_on_same_card", attacker=a, target=b, distance=card_distance(state, a, b)
        )


def ranged_distance(state: ChaseState, a: str, b: str) -> int:
    """Card distance times the scene's scale (seed 001, line 41)."""
    return card_distance(state, a, b) * state.options.scale


def opponents(state: ChaseState, pid: str) -> tuple[str, ...]:
    side = state.participant(pid).side
    return tuple(p.id for p in state.participants if p.active and p.side != side)


def nearest_opponent_distance(state: ChaseState, pid: str) -> int | None:
    """Distance to the nearest active opponent, None when there is none."""
    return min((card_distance(state, pid, o) for o in opponents(state, pid)), default=None)


def distances(state: ChaseState) -> dict[tuple[str, str], int]:
    """Card distance for every pair of active participants (for the board)."""
    ids = [p.id for p in state.participants if p.active]
    return {(a, b): card_distance(state, a, b) for i, a in enumerate(ids) for b in ids[i + 1 :]}


def actions_taken(state: ChaseState, pid: str) -> int:
    """Actions spent this turn through the chase (Change Position as an action, Flee)."""
    turn = state.turn(pid)
    if turn is None:
        raise ChaseError("no_turn", participant=pid)
    return turn.actions_used


def current_multi_action_penalty(state: ChaseState, pid: str) -> int:
    """Penalty for the declared (or already taken, if more) number of actions this turn."""
    turn = state.turn(pid)
    if turn is None:
        raise ChaseError("no_turn", participant=pid)
    return multi_action_penalty(max(turn.declared_actions, turn.actions_used))
