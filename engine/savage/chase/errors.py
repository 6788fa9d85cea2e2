"""Rule violations of the chase engine.

Each ``ChaseError`` carries a stable ``code`` (a key of ``ERROR_CODES``) and ``params`` for the
message; the bot renders the code as a sentence through gettext. No user text lives here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

ERROR_CODES: dict[str, str] = {
    # setup
    "not_started": "The chase has not been set up yet.",
    "already_started": "The chase has already been set up.",
    "chase_over": "The chase has ended.",
    "bad_row_size": "A row needs at least {min} and at most {max} cards.",
    "deck_exhausted": "The chase deck has only {left} cards left.",
    "bad_option": "Option {option} cannot be {value}.",
    "bad_skill": "A maneuvering skill needs a die d4-d12 (got {die}).",
    "bad_movement": "Unknown movement mode {mode}.",
    "special_needs_skill": "A special movement mode needs a named skill.",
    "duplicate_participant": "Participant {participant} already exists.",
    "unknown_participant": "No participant {participant}.",
    "bad_position": "Card {position} is not in the row (0-{last}).",
    "bad_leader": "{leader} cannot lead {participant}.",
    "not_in_group": "{participant} is not in a group.",
    "need_two_sides": "A chase needs participants on at least two sides.",
    # rounds and turns
    "no_round": "No round has started.",
    "turn_in_progress": "{participant} is already taking a turn.",
    "no_turn": "{participant} is not taking a turn.",
    "turn_lost": "{participant} has lost the rest of the turn.",
    "not_active": "{participant} is out of the chase.",
    "moved_by_leader": "{participant} moves with the group of {leader}.",
    "pending_choice": "{participant} waits for the GM to resolve a critical failure.",
    "bad_modifier": "A modifier must be between -{max} and +{max}.",
    "bad_health": "Wounds must be 0-{wounds}, Fatigue 0-{fatigue}, ignored Wounds 0-{ignored}.",
    "bad_actions": "Actions declared must be {min}-{max} (at least the {used} already taken).",
    # movement
    "bad_direction": "Direction must be +1 or -1.",
    "bad_cards": "Cards must be between {min} and {max}.",
    "already_changed_position": "{participant} already made a Change Position this turn.",
    "dropped_back": "{participant} dropped back this turn and cannot Change Position.",
    "not_linear": "Dropping back is possible only in a linear chase.",
    # bump
    "bump_self": "A participant cannot bump itself.",
    "bump_own_side": "{attacker} and {target} are on the same side.",
    "bump_limit": "{attacker} already bumped {target} this turn.",
    "unknown_pending": "No pending choice {pending}.",
    "not_opposing_side": "{chooser} is not on a side opposing {target}.",
    "bad_choice": "Choice must be one of {choices}.",
    # distance and flee
    "not_on_same_card": "{attacker} and {target} are {distance} cards apart: melee needs one card.",
    "no_opponents": "{participant} has no active opponent.",
    "flee_too_close": "Flee needs at least {required} cards to the nearest opponent ({distance}).",
    "bad_end_reason": "A GM may end a chase only for {reasons}.",
    "unknown_side": "No side {side} in the chase.",
}


class ChaseError(ValueError):
    """A rule violation: ``code`` is a key of ``ERROR_CODES``, ``params`` fill its message."""

    def __init__(self, code: str, params: Mapping[str, Any] | None = None, **kw: Any) -> None:
        if code not in ERROR_CODES:
            raise KeyError(f"unknown chase error code {code!r}")
        self.code = code
        self.params: dict[str, Any] = {**(params or {}), **kw}
        super().__init__(f"{code}: {ERROR_CODES[code].format_map(_Lenient(self.params))}")


class _Lenient(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"
