"""Rule violations of the chase engine.

Each ``ChaseError`` carries a stable ``code`` (a key of ``ERROR_CODES``) and ``params``; the
code's sentence is its English template (the msgid of the ``engine`` catalog), which the
surfaces translate. ``participant``, ``attacker``, ``target``, ``leader`` and ``chooser`` are
participant ids; ``position`` and ``last`` are cards of the row counted from 0 (people count
from 1: the surfaces add one, engine/describe.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import describe
from engine.describe import Template
from engine.errors import RuleViolation

ERROR_CODES: dict[str, Template] = {
    # setup
    "not_started": "The chase has not been set up yet.",
    "already_started": "The chase has already been set up.",
    "chase_over": "The chase is over.",
    "bad_row_size": "A row has from {min} to {max} cards.",
    "deck_exhausted": "The chase deck has only {left} cards left.",
    "bad_option": "This chase setting cannot have that value.",
    "bad_skill": "The maneuvering skill needs a die from d4 to d12.",
    "bad_movement": "Unknown way of moving.",
    "special_needs_skill": "A special way of moving needs a named skill.",
    "duplicate_participant": "{participant} is already in the chase.",
    "unknown_participant": "{participant} is not in the chase.",
    "bad_position": "There is no card {position}: the row has {last} cards.",
    "bad_leader": "This participant cannot lead that group.",
    "not_in_group": "This participant is not in a group.",
    "need_two_sides": "A chase needs participants on two sides.",
    # rounds and turns
    "no_round": "No chase round has started.",
    "turn_in_progress": "{participant} is already taking a turn.",
    "no_turn": "{participant} is not taking a turn now: wait for its action card.",
    "turn_lost": "{participant} has lost the rest of the turn.",
    "not_active": "{participant} is out of the chase.",
    "moved_by_leader": "{participant} moves with the group's leader.",
    "pending_choice": "The GM must first choose the critical failure's outcome.",
    "bad_modifier": "A modifier must be between −{max} and +{max}.",
    "gm_sets_modifier": (
        "Only the GM adds a free modifier to a maneuvering roll; Change Position as an "
        "action gets its +2 by itself."
    ),
    "bad_health": "Wounds and Fatigue go from 0 to 3.",
    "bad_actions": "From 1 to 3 actions, at least as many as already taken.",
    "actions_already_declared": "Actions are declared before the first action roll of the turn.",
    "too_many_actions": (
        "{participant} has no action left this turn (declared: {declared}; Change Position as "
        "an action and Flee count as actions, as do the fight's)."
    ),
    # movement
    "bad_direction": "The direction is forward or back.",
    "bad_cards": "From {min} to {max} cards.",
    "already_changed_position": "{participant} has already changed position this turn.",
    "dropped_back": "{participant} dropped back this turn and cannot change position.",
    "not_linear": "Dropping back is possible only in a linear chase.",
    # bump
    "bump_self": "Nobody can bump themselves.",
    "bump_own_side": "You can bump only an opponent.",
    "bump_limit": "This target has already been bumped by you this turn.",
    "unknown_pending": "That choice has already been made.",
    "not_opposing_side": "Only the opposing side chooses this direction.",
    "bad_choice": "There is no such choice.",
    # distance and flee
    "not_on_same_card": "Melee needs both on the same chase card.",
    "no_opponents": "There is no opponent left in the chase.",
    "flee_too_close": (
        "Flee needs at least {required} cards to the nearest opponent (now {distance})."
    ),
    "bad_end_reason": "The GM cannot end a chase for that reason.",
    "unknown_side": "There is no such side in the chase: {side}",
}

describe.kinds("chase", position=describe.CARD, last=describe.CARD)
describe.kinds(
    "chase", **dict.fromkeys(("participant", "attacker", "target", "leader"), describe.NAME)
)


class ChaseError(RuleViolation, family="chase", codes=ERROR_CODES):
    """A rule violation: ``code`` is a key of ``ERROR_CODES``, ``params`` fill its message."""

    def __init__(self, code: str, params: Mapping[str, Any] | None = None, **kw: object) -> None:
        super().__init__(code, {**(params or {}), **kw})
        self.args = (f"{code}: {describe.fill(str(ERROR_CODES[code]), self.params)}",)
