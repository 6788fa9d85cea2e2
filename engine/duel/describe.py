"""The forum post of a resolved turn as descriptions (code, params): both fighters' actions
with their directions and rolls, each step of the resolution with the rule that decided it
(``why``: a ``duel_why`` label), the GM's changes with their reasons, the fighters after the
turn, and the revealed receipts. One English template per code (the msgid of the ``engine``
catalog); the chat and the Mini App fill the same sentences.

Params are JSON-safe: fighter ids (``NAME``), move names (the class's data, shown as they
are), numbers, and labels as codes: ``side``/``way`` (``duel_side``/``duel_way``), ``why``
(``duel_why``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from engine import describe
from engine.describe import NAME, Description, Template, label
from engine.receipt import short_code

from .actions import Action, Attack, Block, Dodge, FullDefense, Trick
from .adjust import adjusted
from .combatant import FighterState
from .dice import dice_hash, receipts_of, verify_dice
from .fighter import TURN_AP
from .options import Deadline
from .proposal import Proposal, Published, Step
from .state import DuelState
from .submission import ActionRoll, Submission

FAMILY = "duel"

TEMPLATES: dict[str, Template] = {
    "turn": "⚔️ Turn {turn}",
    "dice_committed": (
        "🎲 Turn {turn}: the dice are set before anyone chooses — SHA-256 of the seed: {hash}"
    ),
    "dice_revealed": (
        "🎲 The turn's dice seed: {seed} — its SHA-256 was posted as the turn opened, every "
        "die of the turn comes from it ✓"
    ),
    "dice_revealed_mixed": (
        "🎲 The turn's dice seed: {seed} — its SHA-256 was posted as the turn opened; every "
        "die of the turn comes from it and both sealed receipts ✓"
    ),
    "dice_revealed_bad": (
        "🎲 The turn's dice seed: {seed} — ✗ a die of the turn does not come from it"
    ),
    "sealed": "🔒 {fighter} has sent the turn {turn}. Receipt: {receipt}",
    "sealed_default": (
        "🔒 {fighter}: the deadline has passed, a default defense is sealed for turn {turn}. "
        "Receipt: {receipt}"
    ),
    # the deadline (deadline.py)
    "deadline_set": (
        "⏰ Each turn now has {count} hour; at the deadline {policy}.",
        "⏰ Each turn now has {count} hours; at the deadline {policy}.",
    ),
    "deadline_off": "⏰ The turns have no deadline now.",
    "deadline_missing": "⏰ {fighter} has not sent turn {turn} by the deadline.",
    # the declared actions with their rolls
    "action_attack": "{fighter}: attack «{move}» {side} — d10 {face} → {total}",
    "action_trick": "{fighter}: trick — d10 {face} → {total} against {difficulty}",
    "action_block": "{fighter}: block {side} — d10 {face} → {total}",
    "action_dodge": "{fighter}: dodge {way} — d10 {face} → {total}",
    "action_full_block": "{fighter}: full defense, block {side} — d10 {faces} → {total}",
    "action_full_dodge": "{fighter}: full defense, dodge {way} — d10 {faces} → {total}",
    "action_none": "{fighter}: no action this turn",
    "action_undrawn": "🔒 {fighter}: the turn is sealed; its dice are drawn once both turns are in",
    "action_default": "🛡 {fighter}: the turn was not sent in time, a default defense was sealed.",
    # the steps
    "bled": "🩸 {fighter} bleeds: −{hp} HP (turns left: {left})",
    "stood_up": "{fighter} spends an action getting up.",
    "sp_spent": "{fighter} spends {cost} SP (left: {sp}).",
    "hit": "💥 {fighter} → {target}: a hit («{move}» {side}, {total}), damage {damage} — {why}",
    "hit_blows": (
        "💥 {fighter} → {target}: a hit («{move}» {side}, {total}), damage {damage} "
        "(blows {blows}, armor {armor} from each) — {why}"
    ),
    "pierced": (
        "🗡 {fighter} → {target}: the block is pierced («{move}» {side}, {total}), "
        "damage {damage} — {why}"
    ),
    "turned": "🛡 {fighter} → {target}: the blow is turned («{move}» {side}, {total}) — {why}",
    "parried": "🛡 {fighter} → {target}: parried («{move}» {side}, {total}) — {why}",
    "dodged": "💨 {fighter} → {target}: dodged («{move}» {side}, {total}) — {why}",
    "stopped": "🛡 {fighter} → {target}: stopped («{move}» {side}, {total}) — {why}",
    "fumbled": "❌ {fighter} → {target}: the attack misses («{move}» {side}) — {why}",
    "knocked_down": "⬇️ {fighter} is knocked down.",
    "bleeding_started": "🩸 {fighter} is bleeding.",
    "flanked": "↪️ {fighter} flanks: +{bonus} to the next turn's attack.",
    "trick_rolled": "🎭 {fighter}: the trick succeeds ({total} against {difficulty}).",
    "trick_failed": "🎭 {fighter}: the trick fails ({total} against {difficulty}).",
    "trick_lost": "🎭 {fighter}: the opponent's trick is higher — {why}",
    "trick_won": "🎭 {fighter}: the trick succeeds, higher than the opponent's ({total} against "
    "{other}) — {why}",
    "tricks_tied_neither": "🎭 The tricks tie: neither works — {why}",
    "trick_cancelled": "🎭 {fighter}: the trick is cancelled by damage ({damage}) — {why}",
    "effect_attack_bonus": "✨ {fighter}: {source}, +{value} to the next turn's attack — {why}",
    "effect_defense_bonus": "✨ {fighter}: {source}, +{value} to the next turn's defense — {why}",
    "effect_knockdown": "✨ {fighter}: {source}, the opponent is knocked down — {why}",
    "effect_bleeding": "✨ {fighter}: {source}, the opponent bleeds — {why}",
    "effect_lose_action": (
        "✨ {fighter}: {source}, the opponent loses an action next turn — {why}"
    ),
    "effect_sp": "✨ {fighter}: {source}, +{value} SP — {why}",
    "sp_recovered": "🔋 {fighter} gets {sp} SP back at the start of the next turn — {why}",
    "overspent": (
        "😩 {fighter} spends {deficit} SP more than there is: exhausted, turns: {turns}."
    ),
    "exhausted": "😩 {fighter} has no SP left: exhausted next turn.",
    "loses_action": "{fighter} loses an action next turn, the series is broken — {why}",
    "series": "{fighter}: a series of attacks ({length}).",
    "extra_action": "⭐ {fighter} gets an extra action next turn — {why}",
    "died": "☠️ {fighter} falls ({hp} HP).",
    "duel_stopped": "🏁 The GM stopped the duel at turn {turn}. Where the fighters stand:",
    # the GM's changes
    "adjusted_roll": (
        "✏️ The GM: {fighter}, action {action} — the d10 shows {face} (was {was}): {reason}"
    ),
    "adjusted_roll_second": (
        "✏️ The GM: {fighter}, action {action} — the second d10 shows {face} (was {was}): {reason}"
    ),
    "adjusted_value": "✏️ The GM: {fighter}, {field} — {value} (was {was}): {reason}",
    # after the turn
    "status": "{fighter}: HP {hp}, SP {sp}, AP {ap}",
    "state_dead": "{fighter}: dead",
    "state_exhausted": "{fighter}: exhausted (turns: {turns})",
    "state_bleeding": "{fighter}: bleeding (turns: {turns})",
    "state_standing_up": "{fighter}: knocked down, spends an action getting up",
    "state_lost_action": "{fighter}: one action fewer (parried)",
    "state_extra_action": "{fighter}: one extra action",
    "state_attack_bonus": "{fighter}: +{bonus} to the first attack",
    "state_defense_bonus": "{fighter}: +{bonus} to defense",
    "state_series": "{fighter}: a series of {length} attacks goes on",
    "receipt": "🔓 {fighter}: receipt {code} ✓ checks out",
    "receipt_bad": "🔓 {fighter}: receipt {code} ✗ does not check out",
    "receipt_replaced": (
        "🔓 {fighter}, the turn changed before the reveal: receipt {code} ✓ checks out"
    ),
    "receipt_replaced_bad": (
        "🔓 {fighter}, the turn changed before the reveal: receipt {code} ✗ does not check out"
    ),
    "turn_changed": (
        "✏️ {fighter} changed the turn before the reveal ({count} time).",
        "✏️ {fighter} changed the turn before the reveal ({count} times).",
    ),
}

SIDES: dict[str, Template] = {
    "left": "from the left",
    "right": "from the right",
    "top": "from the top",
    "other": "from an unknown side",
}
WAYS: dict[str, Template] = {
    "left": "to the left",
    "right": "to the right",
    "top": "upwards",
    "other": "to an unknown side",
}

POLICIES: dict[str, Template] = {
    "ask": "the GM is told who has not sent the turn and may seal a default defense for them",
    "defend": "a default defense is sealed for whoever has not sent the turn",
    "wait": "the turn waits for both, and the fighters are reminded",
    "other": "the GM decides",
}

SOURCES: dict[str, Template] = {
    "trick": "the trick works",
    "dodge": "after the dodge",
    "other": "an effect",
}
FIELDS: dict[str, Template] = {
    "hp": "HP",
    "sp": "SP",
    "exhausted_turns": "turns of exhaustion",
    "bleeding_turns": "turns of bleeding",
    "standing_up": "knocked down (1 yes, 0 no)",
    "lost_actions": "actions lost",
    "extra_actions": "extra actions",
    "attack_bonus": "attack bonus",
    "defense_bonus": "defense bonus",
    "other": "a value",
}

WHY: dict[str, Template] = {
    "attack": "d10 plus the attack bonus",
    "damage": "damage is dX + X/2",
    "armor": "armor is taken from every blow",
    "ap_damage": "AP do not raise damage (the orochi excepted)",
    "critical_attack": "a critical attack beats the defense",
    "critical_attack_dodge": "a dodge to the opposite side beat even a critical attack",
    "critical_attack_block": "a block on the same side beat even a critical attack",
    "block_wrong_side": "the wrong side: the blow pierces for half the guaranteed damage",
    "block_turned": "the right side turns the blow even on a failed roll",
    "parry": "a successful block on the right side is a parry",
    "parry_effect": "a parry costs the attacker an action and breaks the series",
    "block_critical": "a critical block stops every attack but unblockable ones",
    "block_critical_parry": "a critical block on the right side parries",
    "attack_critical_failure": "a 1 on the d10 is a critical failure: the attack misses",
    "block_critical_failure": "a critically failed block is broken whatever the side",
    "unblockable": "an unblockable attack pierces a block",
    "unblockable_parry": "only a parry or a dodge stops an unblockable attack",
    "dodge": "the dodge beat the attack",
    "tie": "a tie goes to the defense",
    "dodge_opposite": "a dodge to the opposite side works even on a failed roll, not on a 1",
    "dodge_failed": "the dodge did not beat the attack",
    "dodge_one": "a dodge covers one attack",
    "dodge_effect": "some classes act after a dodge",
    "dodge_critical": "a critical dodge avoids every attack",
    "flanking": "flanking: the margin of the dodge is a bonus to the next attack",
    "undefended": "no defense",
    "knocked_down_hit": "attacks on a fighter knocked down this turn hit",
    "knockdown": "knocked down: an action goes to getting up",
    "bleeding": "bleeding: 2 HP a turn for three turns",
    "critical": "a natural 10 is a critical success, a 1 a critical failure",
    "critical_extra": "a critical attack gives an extra action next turn",
    "trick": "a trick succeeds on 6+",
    "trick_effect": "the trick's effect is the class's",
    "trick_cancelled": "damage taken this turn cancels a trick",
    "trick_critical": "a critical trick works even after damage",
    "trick_contest": "of two tricks the higher wins, or a tie",
    "sp_spent": "attacks cost SP",
    "sp_block": "a block not broken gives 1 SP back",
    "sp_dodge": "a successful dodge gives 1 SP back",
    "sp_full_defense": "full defense gives 2 SP back, 1 if broken",
    "overspent": "exhausted for as many turns as the SP overspent",
    "exhaustion": "no SP at the start of a turn is exhaustion",
    "series": "attacks in a row or with one defense between are a series",
    "death": "HP at zero or below: dead",
    "gm": "the GM's decision",
    "other": "by the rules",
}

describe.register(FAMILY, TEMPLATES)
describe.register("duel_side", SIDES)
describe.register("duel_way", WAYS)
describe.register("duel_why", WHY)
describe.register("duel_field", FIELDS)
describe.register("duel_source", SOURCES)
describe.register("duel_policy", POLICIES)
describe.kinds(
    FAMILY,
    fighter=NAME,
    target=NAME,
    side=label("duel_side"),
    way=label("duel_way"),
    why=label("duel_why"),
    field=label("duel_field"),
    source=label("duel_source"),
    policy=label("duel_policy"),
)

_WITHOUT_WHY = frozenset(
    {"bled", "stood_up", "sp_spent", "knocked_down", "bleeding_started", "flanked", "died"}
    | {"trick_rolled", "trick_failed", "overspent", "exhausted", "series"}
)


def _move_name(fighters: Mapping[str, FighterState], fighter: str, code: str) -> str:
    fs = fighters.get(fighter)
    move = fs.fighter.move(code) if fs else None
    return move.name if move else code


def sealed_notice(fighter: str, turn: int, receipt: str, default: bool = False) -> Description:
    """The thread's line when a fighter submits: who and the receipt's short code (its first
    12 hex characters, as a hidden roll's notice shows; the whole commitment is revealed with
    the turn, whose hash begins with the code), nothing else."""
    params = {"fighter": fighter, "turn": turn, "receipt": short_code(receipt)}
    return Description(f"{FAMILY}.sealed_default" if default else f"{FAMILY}.sealed", params)


def dice_notice(turn: int, seed: str) -> Description:
    """The topic's line when a turn opens: the whole SHA-256 of the turn's dice seed
    (dice.py) — a prefix would let a host find another seed with the same one — the seed
    itself comes with the published turn."""
    return Description(f"{FAMILY}.dice_committed", {"turn": turn, "hash": dice_hash(seed)})


def stopped_post(state: DuelState) -> list[Description]:
    """The topic's post when the GM stops the duel: the turn, and each fighter as they
    stand (the whole duel is in the export)."""
    out = [Description(f"{FAMILY}.duel_stopped", {"turn": state.turn})]
    for f in state.fighters:
        out += describe_fighter(f)
    return out


def deadline_notice(deadline: Deadline | None) -> Description:
    """The thread's line when the GM sets (or lifts) the duel's deadline."""
    if deadline is None:
        return Description(f"{FAMILY}.deadline_off", {})
    return Description(
        f"{FAMILY}.deadline_set", {"count": deadline.hours, "policy": deadline.policy}
    )


def missing_notice(fighter: str, turn: int) -> Description:
    return Description(f"{FAMILY}.deadline_missing", {"fighter": fighter, "turn": turn})


def describe_step(step: Step, fighters: Mapping[str, FighterState]) -> Description:
    """One step of the resolution; ``fighters`` name the moves (by their class)."""
    params: dict[str, Any] = {"fighter": step.fighter, **step.params}
    key = step.code
    if "move" in params:
        params["move"] = _move_name(fighters, step.fighter, str(params["move"]))
    if "direction" in params:
        params["side"] = params.pop("direction")
    if key == "hit" and len(params.get("blows", ())) > 1:
        key = "hit_blows"
    if "blows" in params:
        params["blows"] = " + ".join(str(b) for b in params["blows"])
    if key == "effect":
        key = f"effect_{params.pop('effect')}"
    if key not in _WITHOUT_WHY:
        params["why"] = step.rule
    return Description(f"{FAMILY}.{key}", params)


def describe_action(fighter: str, action: Action, roll: ActionRoll, move: str) -> Description:
    check = roll.check
    base: dict[str, Any] = {"fighter": fighter, "face": check.die.value, "total": check.total}
    if isinstance(action, Attack):
        return Description(
            f"{FAMILY}.action_attack", base | {"move": move, "side": action.direction}
        )
    if isinstance(action, Trick):
        return Description(f"{FAMILY}.action_trick", base | {"difficulty": check.target})
    if isinstance(action, Block):
        return Description(f"{FAMILY}.action_block", base | {"side": action.direction})
    if isinstance(action, Dodge):
        return Description(f"{FAMILY}.action_dodge", base | {"way": action.direction})
    assert isinstance(action, FullDefense)
    faces = " / ".join(str(c.die.value) for c in roll.checks)
    if action.dodge:
        return Description(
            f"{FAMILY}.action_full_dodge", base | {"faces": faces, "way": action.direction}
        )
    return Description(
        f"{FAMILY}.action_full_block", base | {"faces": faces, "side": action.direction}
    )


def default_mark(fighter: str) -> Description:
    """The line before a turn that is the default defense sealed at the deadline."""
    return Description(f"{FAMILY}.action_default", {"fighter": fighter})


def describe_submission(sub: Submission, fighters: Mapping[str, FighterState]) -> list[Description]:
    if not sub.actions:
        return [Description(f"{FAMILY}.action_none", {"fighter": sub.fighter})]
    if not sub.drawn:  # a seeded turn's dice come once both are sealed (dice.py)
        return [Description(f"{FAMILY}.action_undrawn", {"fighter": sub.fighter})]
    out = []
    for action, roll in zip(sub.actions, sub.rolls, strict=True):
        move = _move_name(fighters, sub.fighter, action.move) if isinstance(action, Attack) else ""
        out.append(describe_action(sub.fighter, action, roll, move))
    return out


def describe_adjustment(a: Step) -> Description:
    params = {"fighter": a.fighter, **a.params}
    if a.code == "adjusted_roll" and params.pop("check", 0) == 1:  # full defense's second
        return Description(f"{FAMILY}.adjusted_roll_second", params)
    params.pop("check", None)
    if a.code == "adjusted_value":
        # a yes/no field shows as a number: 1 yes, 0 no
        params["value"], params["was"] = int(params["value"]), int(params["was"])
    return Description(f"{FAMILY}.{a.code}", params)


def describe_fighter(fs: FighterState) -> list[Description]:
    """The fighter as the next turn starts: HP, SP, AP and every state."""
    who = {"fighter": fs.id}
    if fs.dead:
        return [
            Description(f"{FAMILY}.status", who | {"hp": fs.hp, "sp": fs.sp, "ap": 0}),
            Description(f"{FAMILY}.state_dead", who),
        ]
    ap = 0 if fs.exhausted else TURN_AP  # «он не может использовать АП»
    out = [Description(f"{FAMILY}.status", who | {"hp": fs.hp, "sp": fs.sp, "ap": ap})]
    states: list[tuple[str, dict[str, Any], bool]] = [
        ("state_exhausted", {"turns": max(fs.exhausted_turns, 1)}, fs.exhausted),
        ("state_bleeding", {"turns": fs.bleeding_turns}, fs.bleeding_turns > 0),
        ("state_standing_up", {}, fs.standing_up),
        ("state_lost_action", {}, fs.lost_actions > 0),
        ("state_extra_action", {}, fs.extra_actions > 0),
        ("state_attack_bonus", {"bonus": fs.attack_bonus}, fs.attack_bonus > 0),
        ("state_defense_bonus", {"bonus": fs.defense_bonus}, fs.defense_bonus > 0),
        ("state_series", {"length": fs.series.length}, fs.series.length > 1),
    ]
    out += [Description(f"{FAMILY}.{key}", who | params) for key, params, on in states if on]
    return out


def post(
    proposal: Proposal,
    receipts: Mapping[str, tuple[str, str]] | None = None,
    replaced: Sequence[tuple[str, str, str]] = (),
    defaults: Collection[str] = (),
    seed: str = "",
    replaced_subs: Sequence[Submission] = (),
) -> list[Description]:
    """The forum post of a published turn: ``receipts`` maps a fighter to (receipt, salt);
    ``replaced``: (fighter, receipt, salt) of the submissions changed before both were in
    (``replaced_subs``: those submissions, to check their receipts); ``defaults``: the
    fighters whose turn is the default defense sealed at the deadline. Each receipt is one
    short line with its code and whether it checks out; the hashed text itself is on the
    verification page."""
    fighters = {f.id: f for f in proposal.after}
    subs = {s.fighter: s for s in proposal.submissions}
    out = [Description(f"{FAMILY}.turn", {"turn": proposal.turn})]
    changed: dict[str, int] = {}
    for fighter, _, _ in replaced:
        changed[fighter] = changed.get(fighter, 0) + 1
    for sub in proposal.submissions:
        if sub.fighter in defaults:
            out.append(default_mark(sub.fighter))
        if sub.fighter in changed:  # «ход изменён до раскрытия»
            params = {"fighter": sub.fighter, "count": changed[sub.fighter]}
            out.append(Description(f"{FAMILY}.turn_changed", params))
        # the dice the turn was resolved with: a die the GM changed shows its new face here,
        # its sealed face in the adjustment's line below
        out += describe_submission(adjusted(sub, proposal.adjustments), fighters)
    out += [describe_step(s, fighters) for s in proposal.steps]
    out += [describe_adjustment(a) for a in proposal.adjustments]
    for f in proposal.after:
        out += describe_fighter(f)
    for fighter, (receipt, salt) in (receipts or {}).items():
        ok = fighter in subs and subs[fighter].receipt_checks(receipt, salt)
        out.append(_receipt_line("receipt", fighter, receipt, ok))
    for i, (fighter, receipt, salt) in enumerate(replaced):
        ok = i < len(replaced_subs) and replaced_subs[i].receipt_checks(receipt, salt)
        out.append(_receipt_line("receipt_replaced", fighter, receipt, ok))
    if seed:  # every sealed die (the replaced submissions' too) is the seed's (dice.py)
        posted = dice_hash(seed)
        mixed = receipts_of(proposal.submissions, receipts or {})
        every = (*proposal.submissions, *replaced_subs)
        ok = all(verify_dice(seed, posted, s, mixed) for s in every)
        # a turn sealed before the receipts were mixed in: its dice came from the seed alone
        key = "dice_revealed_bad" if not ok else "dice_revealed_mixed" if mixed else "dice_revealed"
        out.append(Description(f"{FAMILY}.{key}", {"seed": seed, "hash": short_code(posted)}))
    return out


def _receipt_line(key: str, fighter: str, receipt: str, ok: bool) -> Description:
    code = key if ok else f"{key}_bad"
    return Description(f"{FAMILY}.{code}", {"fighter": fighter, "code": short_code(receipt)})


def published_post(published: Published) -> list[Description]:
    """The post of a turn as it was published, its receipts revealed (the thread, the Mini
    App and the export show the same lines)."""
    reveals = {r.fighter: (r.receipt, r.salt) for r in published.reveals}
    replaced = [(s.submission.fighter, s.receipt, s.salt) for s in published.replaced]
    defaults = {r.fighter for r in published.reveals if r.default}
    subs = [s.submission for s in published.replaced]
    return post(published.proposal, reveals, replaced, defaults, published.seed, subs)
