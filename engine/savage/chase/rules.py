"""Rule tables of seed 001 (and the multi-action penalty of seed 000), as plain data."""

from __future__ import annotations

from engine.savage.cards import Card

# Complications (seed 001, lines 21-28): suit of the CURRENT chase card -> (modifier, failure).
CRITICAL = "critical_failure"  # «Считать критическим провалом маневрирования»
BUMP = "bump"  # «Сдвиг (Bump)»
SHIFT_TWO = "shift_two"  # «Сдвиг до двух Карт погони»
COMPLICATIONS: dict[str, tuple[int, str]] = {
    "spades": (0, CRITICAL),
    "hearts": (0, BUMP),
    "diamonds": (-2, BUMP),
    "clubs": (-2, CRITICAL),
    "joker": (2, SHIFT_TWO),
}

# Critical-failure consequences the GM picks from, by movement mode (seed 001, line 30).
# "narrated": the GM describes a consequence the engine does not model.
_ON_FOOT = ("lose_turn", "fatigue", "narrated")
_VEHICLE = ("lose_turn", "out_of_control", "narrated")
CRITICAL_CHOICES: dict[str, tuple[str, ...]] = {
    "foot": _ON_FOOT,
    "riding": _ON_FOOT,
    "special": _ON_FOOT,
    "driving": _VEHICLE,
    "boating": _VEHICLE,
    "piloting": _VEHICLE,
}

FLEE_MIN_DISTANCE = 4  # seed 001, line 45
CHANGE_POSITION_ACTION_BONUS = 2  # seed 001, line 15
JOKER_BONUS = 2  # seed 000, line 14
MAX_ACTIONS = 3  # seed 000, line 27
MAX_MODIFIER = 20  # a larger maneuvering modifier is a typo, not a rule
FATIGUE_OUT = 3  # seed 000, line 79: the third level takes the character out
MAX_WOUNDS = 3  # seed 000, line 74: a Wild Card acts on with up to three Wounds
MAX_WOUND_PENALTY = 3  # seed 000, line 73: «максимум −3»
MAX_IGNORED_WOUNDS = 2  # Improved Nerves of Steel (standard SWADE, seed 000 line 3)

END_REASONS = ("out_of_action", "escaped", "side_stopped", "goal_reached", "round_limit")
GM_END_REASONS = ("goal_reached", "out_of_action")


def suit_of(card: Card) -> str:
    return "joker" if card.is_joker else card.suit


def flee_modifier(distance: int) -> int | None:
    """Seed 001, line 46: −4 at four cards, −2 at five, 0 at six or more; None below four."""
    if distance < FLEE_MIN_DISTANCE:
        return None
    return {4: -4, 5: -2}.get(distance, 0)


def multi_action_penalty(actions: int) -> int:
    """Seed 000, lines 28-29: two actions −2, three −4."""
    return -2 * max(0, min(actions, MAX_ACTIONS) - 1)


def critical_choices(movement: str) -> tuple[str, ...]:
    return CRITICAL_CHOICES.get(movement, _ON_FOOT)
