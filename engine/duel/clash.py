"""One attack against the defense of the turn (seed 003 «Атака», «Защита оружием», «Защита
уклонением», «Глухая оборона»): the outcome, the rule that decided it, and the damage."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.duel.roll import DuelCheckResult

from .actions import Attack, Block, Dodge, FullDefense
from .check import PlannedAction, SubmissionCheck
from .combatant import FighterState
from .fighter import Fighter, Move
from .options import DuelOptions
from .proposal import Step
from .submission import ActionRoll, Submission

OPPOSITE = {"left": "right", "right": "left"}


@dataclass(frozen=True, slots=True)
class _Roll:
    total: int
    face: int
    direction: str

    @property
    def critical(self) -> bool:
        return self.face == 10

    @property
    def fumble(self) -> bool:
        return self.face == 1


def _roll(check: DuelCheckResult, direction: str) -> _Roll:
    return _Roll(check.total, check.die.value, direction)


@dataclass
class Guard:
    """One fighter's defense during the turn (mutable while the turn is worked out)."""

    block: _Roll | None = None
    full: bool = False  # full defense (a stance)
    dodges: list[_Roll] = field(default_factory=list)  # unused dodges, in order
    full_dodge: _Roll | None = None
    broken: bool = False
    dodged: int = 0  # attacks avoided by a (non-stance) dodge
    avoided: int = 0  # attacks avoided by any dodge (a stance, a critical)
    dodge_hit: bool = False  # an attack got through a dodge
    faced: int = 0  # attacks that came at the block
    dodge_declared: bool = False
    critical_block: bool = False
    critical_dodge: bool = False


@dataclass
class Tally:
    """What one fighter's turn leads to (mutable while the turn is worked out)."""

    hp: int
    damage_taken: int = 0
    knocked_down: bool = False  # this turn: attacks on them hit
    bleeding_started: bool = False
    parried: bool = False  # one of their attacks was parried
    parried_at: list[int] = field(default_factory=list)  # which of their attacks (1, 2, …)
    critical_attack: bool = False
    flank: int = 0
    sp_back: int = 0
    attack_bonus: int = 0
    defense_bonus: int = 0
    lose_action: bool = False  # a trick's effect on them
    effect_knockdown: bool = False  # a trick's or a dodge's effect on them
    effect_bleeding: bool = False


def _is_opposite(attack: str, dodge: str, options: DuelOptions) -> bool:
    if attack == "top":
        return options.top_opposite == "sides" and dodge != "top"
    return OPPOSITE.get(attack) == dodge


def _vs_block(atk: _Roll, block: _Roll, move: Move, options: DuelOptions) -> tuple[str, str]:
    """(outcome, rule) of one attack against a block; outcomes: hit, pierced, turned,
    parried, stopped."""
    if block.fumble:  # «Критический провал защиты - защита пробита»
        return "hit", "block_critical_failure"
    same = atk.direction == block.direction
    if move.unblockable:  # «Защититься можно только парированием или уклонением»
        if options.unblockable_parry and same and block.total >= atk.total:
            return "parried", "unblockable_parry"
        return "hit", "unblockable"
    if block.critical and (not atk.critical or options.critical_clash == "defense"):
        # «Удачный бросок защиты в сочетании с верным направлением защиты позволяет
        # парировать атаку»: a natural 10 on the right side is the best successful block
        if same:
            return "parried", "block_critical_parry"
        return "stopped", "block_critical"
    if atk.critical:  # «Аналогично с блокированием, только защита ... с той же стороны»
        if same and block.total > atk.total:
            return "parried", "critical_attack_block"
        return "hit", "critical_attack"
    if not same:
        return "pierced", "block_wrong_side"
    if block.total >= atk.total:  # «Защита считается успешной, если ... больше или равен»
        return "parried", "parry"
    return "turned", "block_turned"


def _vs_dodge(atk: _Roll, dodge: _Roll, options: DuelOptions) -> tuple[str, str, int]:
    """(outcome, rule, flanking margin) of one attack against one dodge: dodged or hit."""
    opposite = _is_opposite(atk.direction, dodge.direction, options)
    if dodge.fumble:  # «(кроме критического провала)»
        return "hit", "dodge_opposite" if opposite else "critical", 0
    margin = dodge.total - atk.total
    flank = margin if opposite and margin > 0 else 0
    if atk.critical and not (dodge.critical and options.critical_clash == "defense"):
        if opposite and margin > 0:
            return "dodged", "critical_attack_dodge", flank
        return "hit", "critical_attack", 0
    if dodge.critical:
        return "dodged", "dodge_critical", flank
    if margin > 0:
        return "dodged", "dodge", flank
    if margin == 0 and options.dodge_tie == "defense":
        return "dodged", "tie", 0
    if opposite:
        return "dodged", "dodge_opposite", 0
    return "hit", "dodge_failed", 0


def guard_of(checked: SubmissionCheck, sub: Submission) -> Guard:
    g = Guard()
    for p, r in zip(checked.planned, sub.rolls, strict=True):
        a = p.action
        if isinstance(a, Block):
            g.block = _roll(r.check, a.direction)
        elif isinstance(a, Dodge):
            g.dodges.append(_roll(r.check, a.direction))
        elif isinstance(a, FullDefense):
            g.full = True
            if a.dodge:
                g.full_dodge = _roll(r.check, a.direction)
            else:
                g.block = _roll(r.check, a.direction)
    g.critical_block = g.block is not None and g.block.critical
    g.critical_dodge = any(d.critical for d in g.dodges) or bool(
        g.full_dodge and g.full_dodge.critical
    )
    g.dodge_declared = bool(g.dodges)
    if g.block is not None and g.block.fumble:
        g.broken = True
    return g


def _blows(
    fighter: Fighter,
    move: Move,
    roll: ActionRoll,
    damage_ap: int,
    armor: int,
    outcome: str,
    options: DuelOptions,
) -> list[int]:
    """«Урон - состоит из dX+1/2X ... 1/2X - гарантированный урон»; armor from each blow."""
    die = fighter.damage_die(move)
    guaranteed = die // 2
    out = []
    for r in roll.damage:
        if outcome == "pierced":  # «нанося 1/2 гарантированного урона»
            raw = guaranteed // 2 if options.wrong_side_damage == "half" else guaranteed
        else:
            raw = r.results[0].total + guaranteed + damage_ap
        out.append(max(0, raw - armor))
    return out


def attack(
    attacker: FighterState,
    target: FighterState,
    p: PlannedAction,
    roll: ActionRoll,
    guard: Guard,
    mine: Tally,
    theirs: Tally,
    options: DuelOptions,
    index: int,
) -> list[Step]:
    a = p.action
    assert isinstance(a, Attack) and p.move is not None
    move = p.move
    atk = _roll(roll.check, a.direction)
    base: dict[str, Any] = {
        "target": target.id,
        "move": move.code,
        "direction": a.direction,
        "index": index,
        "total": atk.total,
        "face": atk.face,
    }
    steps: list[Step] = []
    if atk.critical:
        mine.critical_attack = True
    if mine.parried_at and mine.parried_at[-1] == index - 1:
        # «Парирование прерывает серию»: the attack after a parried one starts a new series
        series = sum(b.value for b in roll.bonuses if b.code == "series")
        if series:
            atk = _Roll(atk.total - series, atk.face, atk.direction)
            base |= {"total": atk.total, "series_lost": series}
    if atk.fumble and options.attack_fumble == "miss":
        # «Чистая 10 на d10 - критический успех любого действия, 1 на d10 - критический
        # провал»: a natural 1 on an attack misses whatever the defense
        return [Step("fumbled", "attack_critical_failure", attacker.id, base)]
    outcome, rule, flank = _defend(atk, move, guard, theirs, options)
    if outcome in ("hit", "pierced"):
        blows = _blows(
            attacker.fighter, move, roll, a.damage_ap, target.fighter.stats.armor, outcome, options
        )
        damage = sum(blows)
        theirs.hp -= damage
        theirs.damage_taken += damage
        params = base | {"damage": damage, "blows": blows, "armor": target.fighter.stats.armor}
        steps.append(Step(outcome, rule, attacker.id, params))
        if outcome == "hit" and move.knockdown and not theirs.knocked_down:
            theirs.knocked_down = True
            steps.append(Step("knocked_down", "knockdown", target.id, {}))
        if outcome == "hit" and move.bleeding:
            theirs.bleeding_started = True
            steps.append(Step("bleeding_started", "bleeding", target.id, {}))
    else:
        steps.append(Step(outcome, rule, attacker.id, base | {"margin": flank}))
        if outcome == "parried":
            mine.parried = True
            mine.parried_at.append(index)
        if flank:
            theirs.flank = max(theirs.flank, flank)
            steps.append(Step("flanked", "flanking", target.id, {"bonus": flank}))
    return steps


def _defend(
    atk: _Roll, move: Move, guard: Guard, theirs: Tally, options: DuelOptions
) -> tuple[str, str, int]:
    if theirs.knocked_down:  # «автоматически считаются успешными»
        return "hit", "knocked_down_hit", 0
    if guard.critical_dodge and (not atk.critical or options.critical_clash == "defense"):
        best = max(
            [*guard.dodges, *([guard.full_dodge] if guard.full_dodge else [])],
            key=lambda d: d.total,
        )
        flank = (
            best.total - atk.total if _is_opposite(atk.direction, best.direction, options) else 0
        )
        guard.avoided += 1
        return "dodged", "dodge_critical", max(flank, 0)
    dodge = guard.full_dodge
    if dodge is None and guard.dodges:
        dodge = guard.dodges.pop(0)  # «Уклонение защищает только от одной атаки»
        counted = True
    else:
        counted = False
    if dodge is not None:
        outcome, rule, flank = _vs_dodge(atk, dodge, options)
        if guard.full_dodge is not None and not options.full_dodge_covers_all:
            guard.full_dodge = None
        if outcome == "dodged":
            guard.dodged += int(counted)
            guard.avoided += 1
            return outcome, rule, flank
        guard.broken = guard.broken or guard.full
        guard.dodge_hit = True
        if guard.block is None:
            return outcome, rule, 0
    if guard.block is None:
        return "hit", "dodge_one" if guard.dodge_declared else "undefended", 0
    guard.faced += 1
    outcome, rule = _vs_block(atk, guard.block, move, options)
    if outcome == "hit":
        guard.broken = True
    return outcome, rule, 0
