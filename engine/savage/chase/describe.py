"""What each chase event says: ``describe_event(event) -> Description | None`` (None: it says
nothing). One English template per code (the msgid of the ``engine`` catalog); the chat
(bot/systems/savage/render/chase.py) fills it, as any other surface would.

Params are JSON-safe: participant ids (``NAME``), cards of the row counted from 0 (``CARD``),
card faces as codes ("KS"), a maneuvering roll's ``to_dict()``, labels as codes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import describe
from engine.describe import CARD, NAME, Description, Template, label
from engine.savage.chase import events as ev

FAMILY = "chase_event"
CARD_FACE = "card_face"  # a card's code (the encounter's kind of the same name)
MANEUVER_ROLL = "maneuver_roll"  # a ManeuverRoll's to_dict()

TEMPLATES: dict[str, Template] = {
    "started": "🏃 The chase begins: {cards} cards in a row.",
    "laid_front": ("➕ {count} card laid at the front.", "➕ {count} cards laid at the front."),
    "laid_rear": ("➕ {count} card laid at the rear.", "➕ {count} cards laid at the rear."),
    "joined": "➕ {name} ({side}) on card {position}.",
    "round_started": "🏃 Chase round {round}.",
    "turn_from_hold": "🏃 {name} acts from Hold, without an action card (no Complication).",
    "turn_started": "🏃 {name} moves on {card}.",
    "complication": "♣ Complication for {name} on {card}: {roll} — {result}",
    "position_forward": (
        "🏃 {name} changes position: {roll} — {count} card forward",
        "🏃 {name} changes position: {roll} — {count} cards forward",
    ),
    "position_back": (
        "🏃 {name} changes position: {roll} — {count} card back",
        "🏃 {name} changes position: {roll} — {count} cards back",
    ),
    "position_kept": "🏃 {name} changes position: {roll} — stays",
    "dropped_back": ("🐢 {name} drops back {count} card.", "🐢 {name} drops back {count} cards."),
    "bumped_forward": "💢 {attacker} bumps {target} forward.",
    "bumped_back": "💢 {attacker} bumps {target} back.",
    "shifted_forward": ("↔️ Moved {count} card forward.", "↔️ Moved {count} cards forward."),
    "shifted_back": ("↔️ Moved {count} card back.", "↔️ Moved {count} cards back."),
    "critical_resolved": "Critical failure: {choice}.",
    "fled": "🏁 {name} tries to flee ({distance} cards): {roll} — escapes!",
    "flee_failed": "🏁 {name} tries to flee ({distance} cards): {roll} — does not get away",
    "out": "✖ {name} is out of the chase.",
    "moved": "{name} is on card {position}.",
    "ended": "🏁 The chase is over: {reason}.",
    "actions_declared": ("{name} declares {count} action.", "{name} declares {count} actions."),
    "modifier_set": "{name}: standing modifier {modifier}.",
    "group_joined": "{name} moves with {leader}.",
    "group_left": "{name} moves alone.",
    "round_limit": "Round limit: {limit}.",
    "no_round_limit": "Round limit: —.",
}

# what a Complication's roll came to (``ComplicationRolled.result``)
COMPLICATIONS: dict[str, Template] = {
    "passed": "passed",
    "bump": "failed: a Bump",
    "shift_two": "failed: a shift of up to two cards",
    "critical_failure": "critical failure",
    "lucky_shift": "a lucky shift of up to two cards",
    "no_effect": "no effect",
    "other": "an outcome",
}
# the GM's choices on a critical failure (also the chat's buttons)
CHOICES: dict[str, Template] = {
    "lose_turn": "loses the rest of the turn",
    "fatigue": "gains Fatigue",
    "out_of_control": "out of control",
    "narrated": "the GM narrates",
    "other": "the GM's choice",
}
# why a chase ended (rules.END_REASONS)
END_REASONS: dict[str, Template] = {
    "out_of_action": "one side is out of action",
    "escaped": "the fugitives got away",
    "side_stopped": "one side stopped",
    "goal_reached": "the goal is reached",
    "round_limit": "the rounds ran out",
    "other": "the GM ended it",
}

describe.register(FAMILY, TEMPLATES)
describe.register("complication", COMPLICATIONS)
describe.register("chase_choice", CHOICES)
describe.register("chase_end", END_REASONS)
describe.kinds(
    FAMILY,
    name=NAME,
    attacker=NAME,
    target=NAME,
    leader=NAME,
    position=CARD,
    card=CARD_FACE,
    roll=MANEUVER_ROLL,
    result=label("complication"),
    choice=label("chase_choice"),
    reason=label("chase_end"),
)

# HealthSet is bookkeeping copied from the fight, which has told the Wound or the Fatigue
# already (the maneuvering rolls show the penalty); a turn's end the row shows.
SILENT: frozenset[type[ev.Event]] = frozenset({ev.HealthSet, ev.TurnEnded, ev.FightActionsCounted})


def _d(key: str, **params: object) -> Description:
    return Description(f"{FAMILY}.{key}", params)


def _way(direction: int) -> str:
    return "forward" if direction > 0 else "back"


def _turn(e: ev.TurnStarted) -> Description:
    if e.action_card is None:
        return _d("turn_from_hold", name=e.participant)
    return _d("turn_started", name=e.participant, card=e.action_card.code)


def _complication(e: ev.ComplicationRolled) -> Description:
    roll = e.roll.to_dict()
    return _d(
        "complication", name=e.participant, card=e.chase_card.code, roll=roll, result=e.result
    )


def _position(e: ev.PositionChangeRolled) -> Description:
    key = f"position_{_way(e.direction)}" if e.cards else "position_kept"
    return _d(key, name=e.participant, roll=e.roll.to_dict(), count=e.cards)


def _flee(e: ev.FleeRolled) -> Description:
    key = "fled" if e.escaped else "flee_failed"
    return _d(key, name=e.participant, distance=e.distance, roll=e.roll.to_dict())


def _joined(e: ev.ParticipantAdded) -> Description:
    p = e.participant
    return _d("joined", name=p.id, side=p.side, position=p.position)


def _limit(e: ev.RoundLimitSet) -> Description:
    return _d("round_limit", limit=e.limit) if e.limit else _d("no_round_limit")


_BY_TYPE: dict[type[ev.Event], Callable[[Any], Description]] = {
    ev.ChaseStarted: lambda e: _d("started", cards=len(e.row)),
    ev.CardsLaid: lambda e: _d(
        f"laid_{'front' if e.at == 'front' else 'rear'}", count=len(e.cards)
    ),
    ev.ParticipantAdded: _joined,
    ev.RoundStarted: lambda e: _d("round_started", round=e.round),
    ev.TurnStarted: _turn,
    ev.ComplicationRolled: _complication,
    ev.PositionChangeRolled: _position,
    ev.DroppedBack: lambda e: _d("dropped_back", name=e.participant, count=e.cards),
    ev.Bumped: lambda e: _d(f"bumped_{_way(e.direction)}", attacker=e.attacker, target=e.target),
    ev.PendingMoveResolved: lambda e: _d(f"shifted_{_way(e.direction)}", count=e.cards),
    ev.CriticalFailureResolved: lambda e: _d("critical_resolved", choice=e.choice),
    ev.FleeRolled: _flee,
    ev.TakenOutOfAction: lambda e: _d("out", name=e.participant),
    ev.Moved: lambda e: _d("moved", name=e.participant, position=e.position),
    ev.ChaseEnded: lambda e: _d("ended", reason=e.reason),
    ev.ActionsDeclared: lambda e: _d("actions_declared", name=e.participant, count=e.count),
    ev.ModifierSet: lambda e: _d("modifier_set", name=e.participant, modifier=e.modifier),
    ev.GroupJoined: lambda e: _d("group_joined", name=e.participant, leader=e.leader),
    ev.GroupLeft: lambda e: _d("group_left", name=e.participant),
    ev.RoundLimitSet: _limit,
}
DESCRIBED = frozenset(_BY_TYPE)


def describe_event(e: ev.Event) -> Description | None:
    """The event's description, or None when it says nothing."""
    render = _BY_TYPE.get(type(e))
    return render(e) if render is not None else None
