"""Checking a turn's submission before it is accepted, and rolling its dice.

Every refusal is a ``DuelError``; an accepted plan yields its SP bill (``SubmissionCheck``):
«Боец может их выполнить, даже если у него в данный момент недостаточно СП. В этом случае он
получает истощение на столько ходов, сколько минусов получил к пулу СП.»
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.dice import roll
from engine.dice.results import RollResult
from engine.dice.rng import Rng, ScriptedRng
from engine.duel.roll import TRICK_TARGET, DuelCheckResult
from engine.duel.roll import duel as duel_check

from .actions import DEFENSES, DIRECTIONS, Action, Attack, Block, Dodge, FullDefense, Trick
from .combatant import FighterState
from .dice import TurnDice, slot_names
from .errors import DuelError
from .fighter import MAX_AP_PER_ACTION, TURN_AP, Move
from .state import DuelState
from .submission import ActionRoll, Bonus, Submission

BASE_ACTIONS = 2  # «Стандартно в свой ход боец может заявить два действия.»
TRICK_SP = 1  # «Расходует 1СП.»
SECOND_ATTACK_SP = 1  # «Защитное действие можно потратить на атаку, но она будет на 1СП дороже»
MAX_SITUATIONAL = 5  # a player's situational bonus or malus on one roll


@dataclass(frozen=True, slots=True)
class PlannedAction:
    action: Action
    sp: int
    bonuses: tuple[Bonus, ...]
    target: int | None = None  # a trick's difficulty
    move: Move | None = None  # an attack's move


@dataclass(frozen=True, slots=True)
class SubmissionCheck:
    """The accepted plan: per action its SP, bonuses and target; the SP bill of the turn."""

    planned: tuple[PlannedAction, ...]
    allowed: int  # actions this turn
    sp_before: int

    @property
    def cost(self) -> int:
        return sum(p.sp for p in self.planned)

    @property
    def sp_after(self) -> int:
        return self.sp_before - self.cost

    @property
    def deficit(self) -> int:
        """«получает -2 к пулу СП ... и состояние истощения на два раунда»: only what this
        turn spent beyond the pool counts (a pool already below zero is not billed again)."""
        return max(0, self.cost - max(self.sp_before, 0))


def allowed_actions(fs: FighterState) -> int:
    """Two, less one after a parry («лишает атакующего одного действия на следующий ход»),
    less one standing up («тратит одно действие на то, чтобы подняться на ноги»), plus one
    after a critical attack («получает дополнительное действие в следующем раунде»);
    exhausted: «У него есть только одно действие на защиту»."""
    n = max(0, BASE_ACTIONS + fs.extra_actions - fs.lost_actions - int(fs.standing_up))
    return min(n, 1) if fs.exhausted else n


def allowed(fs: FighterState) -> dict[str, object]:
    """What the fighter may still declare this turn (the submission form's choices)."""
    cls = fs.fighter.fighter_class
    n = 0 if fs.dead else allowed_actions(fs)
    fresh = not fs.exhausted and n > 0
    return {
        "actions": n,
        "attack": fresh,
        "trick": fresh,
        "defenses": min(n, 1 + fs.extra_actions),
        "full_defense": fresh and n >= 2,
        "full_dodge": fresh and n >= 2 and cls.full_dodge,
        "ap": TURN_AP if fresh else 0,
        "ap_to_damage": cls.ap_to_damage,
        "extra_attacks": cls.extra_attacks if fresh else 0,
        "moves": [
            {"code": m.code, "sp": m.sp, "second_sp": m.sp + SECOND_ATTACK_SP} for m in cls.moves
        ]
        if fresh
        else [],
    }


def plan(state: DuelState, fighter_id: str, actions: Sequence[Action]) -> SubmissionCheck:
    """Check the declared actions against every rule of the seed; their SP and bonuses."""
    if state.over:
        raise DuelError("duel_over")
    fs = state.fighter(fighter_id)
    if fs.dead:
        raise DuelError("dead")
    cls = fs.fighter.fighter_class
    limit = allowed_actions(fs)
    _check_directions(actions)
    _check_counts(fs, actions, limit)
    _check_ap(fs, actions)
    planned: list[PlannedAction] = []
    series = fs.series.broken() if fs.standing_up else fs.series
    # attacks beyond the first at their move's cost: the critical's extra action and the
    # class's extra attacks; any other costs 1 SP more
    free = fs.extra_actions + cls.extra_attacks
    first_taken = False
    carried = fs.attack_bonus
    stats = fs.fighter.stats
    for action in actions:
        if isinstance(action, Attack):
            move = fs.fighter.move(action.move)
            if move is None:
                raise DuelError("unknown_move", {"move": action.move[:40]})
            sp = move.sp
            if first_taken:
                if free:
                    free -= 1
                else:
                    sp += SECOND_ATTACK_SP
            first_taken = True
            series = series.attack()
            bonuses = [Bonus("stat", stats.attack), Bonus("ap", action.ap)]
            bonuses.append(Bonus("situational", action.situational))
            if carried:  # «одноразовый бонус к атаке»: the first attack takes it
                bonuses.append(Bonus("bonus", carried))
                carried = 0
            if series.length > 1 and state.options.series_bonus:
                bonuses.append(Bonus("series", state.options.series_bonus))
            planned.append(PlannedAction(action, sp, _nonzero(bonuses), move=move))
        elif isinstance(action, Trick):
            first_taken = True
            series = series.broken()
            target = TRICK_TARGET - action.ease
            bonuses = [Bonus("ap", action.ap), Bonus("situational", action.situational)]
            planned.append(PlannedAction(action, TRICK_SP, _nonzero(bonuses), target))
        else:
            dodging = isinstance(action, Dodge) or (
                isinstance(action, FullDefense) and action.dodge
            )
            stat = stats.dodge if dodging else stats.block
            series = series.defense(action.actions)
            bonuses = [
                Bonus("stat", stat),
                Bonus("ap", action.ap),
                Bonus("trick", fs.defense_bonus),
                Bonus("situational", action.situational),
            ]
            planned.append(PlannedAction(action, 0, _nonzero(bonuses)))
    return SubmissionCheck(tuple(planned), limit, fs.sp)


def _nonzero(bonuses: list[Bonus]) -> tuple[Bonus, ...]:
    return tuple(b for b in bonuses if b.value)


def _check_directions(actions: Sequence[Action]) -> None:
    """«Атаковать можно слева, справа или сверху»: no other side, for an attack or a
    defense (the blocks and dodges name the same three)."""
    for a in actions:
        direction = getattr(a, "direction", None)
        if direction is not None and direction not in DIRECTIONS:
            raise DuelError("duel_bad_side", {"direction": str(direction)[:20]})


def _check_counts(fs: FighterState, actions: Sequence[Action], limit: int) -> None:
    cls = fs.fighter.fighter_class
    attacks = sum(1 for a in actions if isinstance(a, Attack))
    others = sum(a.actions for a in actions if not isinstance(a, Attack))
    declared = attacks + others
    if fs.exhausted and (attacks or any(not isinstance(a, Block | Dodge) for a in actions)):
        raise DuelError("exhausted_defense_only")
    # the class's extra attacks are attacks only
    extra = cls.extra_attacks if not fs.exhausted else 0
    if declared > limit + min(extra, attacks) or others > limit:
        raise DuelError("too_many_actions", {"declared": declared, "allowed": limit})
    defenses = [a for a in actions if isinstance(a, DEFENSES)]
    # «Второе действие: защита»: one defense, two with a critical's extra action
    most = 1 + fs.extra_actions
    if len(defenses) > most:
        raise DuelError("too_many_defenses", {"count": most})
    if any(isinstance(a, FullDefense) for a in defenses) and len(defenses) > 1:
        raise DuelError("full_defense_alone")
    for a in defenses:
        if isinstance(a, FullDefense) and a.dodge and not cls.full_dodge:
            raise DuelError("no_full_dodge")
    tricks = [i for i, a in enumerate(actions) if isinstance(a, Trick)]
    if len(tricks) > 1:
        raise DuelError("one_trick")
    if tricks and tricks[0] != 0:  # «Первое действие: атака, или трюк»
        raise DuelError("trick_first")


def _check_ap(fs: FighterState, actions: Sequence[Action]) -> None:
    """«Одно АП добавляет +1 к действию. К одному и тому же действию в течение одного хода
    нельзя добавлять более 3-х АП ... За счет АП нельзя увеличивать урон (есть исключение -
    орочи)»; exhausted: «он не может использовать АП»."""
    spent = 0
    for a in actions:
        parts = [a.ap] if not isinstance(a, Attack | Trick) else []
        if isinstance(a, Attack):
            parts = [a.ap, a.damage_ap]
            if a.damage_ap and not fs.fighter.fighter_class.ap_to_damage:
                raise DuelError("no_ap_to_damage")
        elif isinstance(a, Trick):
            parts = [a.ap, a.ease]
        if any(p < 0 for p in parts):
            raise DuelError("ap_negative")
        if abs(a.situational) > MAX_SITUATIONAL:
            raise DuelError("bad_situational", {"max": MAX_SITUATIONAL})
        if a.ap_spent() > MAX_AP_PER_ACTION:
            raise DuelError("ap_per_action", {"max": MAX_AP_PER_ACTION})
        spent += a.ap_spent()
    if spent and fs.exhausted:
        raise DuelError("exhausted_no_ap")
    if spent > TURN_AP:
        raise DuelError("ap_total", {"max": TURN_AP, "spent": spent})


def _check_text(bonuses: Sequence[Bonus], target: int | None) -> str:
    text = "d10" + "".join(f"{b.value:+d}" for b in bonuses)
    return text if target is None else f"{text} цн {target}"


def submit(
    state: DuelState,
    fighter_id: str,
    actions: Sequence[Action],
    rng: Rng,
    comment: str = "",
    dice: TurnDice | None = None,
    draw: bool = True,
) -> Submission:
    """Check the plan and roll its dice: the d10 checks (engine.duel.roll) and, for each blow
    of an attack, its damage die («бросок на урон атаки, здесь тип дайса может разниться»).
    ``dice``: where the faces come from, slot by slot (dice.py: the turn's seed, or ``rng``
    with the faces of the fighter's earlier submissions this turn kept); none: ``rng``.
    ``draw`` False: the choices only, the dice drawn once both turns are sealed
    (``draw_dice``)."""
    checked = plan(state, fighter_id, actions)
    source = dice or TurnDice(state.turn, fighter_id, rng)
    rolls = _roll(state, fighter_id, checked, actions, source) if draw else ()
    return Submission(fighter_id, state.turn, tuple(actions), rolls, comment[:500])


def draw_dice(state: DuelState, sub: Submission, dice: TurnDice) -> Submission:
    """A sealed submission's dice, drawn from ``dice`` (the turn's seed and both receipts)."""
    checked = plan(state, sub.fighter, sub.actions)
    return replace(sub, rolls=_roll(state, sub.fighter, checked, sub.actions, dice))


def _roll(
    state: DuelState,
    fighter_id: str,
    checked: SubmissionCheck,
    actions: Sequence[Action],
    source: TurnDice,
) -> tuple[ActionRoll, ...]:
    fighter = state.fighter(fighter_id).fighter
    rolls = []
    for p, (checks_at, prefix) in zip(checked.planned, slot_names(actions), strict=True):
        text = _check_text(p.bonuses, p.target)
        checks = tuple(duel_check(text, ScriptedRng([source.face(slot, 10)])) for slot in checks_at)
        damage: tuple[RollResult, ...] = ()
        if p.move is not None:
            die = fighter.damage_die(p.move)
            damage = tuple(
                roll(f"d{die}", ScriptedRng([source.face(f"{prefix}.blow{j}", die)]))
                for j in range(1, p.move.hits + 1)
            )
        rolls.append(ActionRoll(checks, p.bonuses, damage))
    return tuple(rolls)


def check_submission(state: DuelState, fighter_id: str, submission: Submission) -> SubmissionCheck:
    """The plan's check, and its dice: one check per action (two for full defense) with the
    plan's bonuses and target, one damage die of the right size per blow."""
    if submission.fighter != fighter_id:
        raise DuelError("unknown_fighter", {"fighter": submission.fighter})
    if submission.turn != state.turn:
        raise DuelError("wrong_turn", {"got": submission.turn, "turn": state.turn})
    checked = plan(state, fighter_id, submission.actions)
    fighter = state.fighter(fighter_id).fighter
    if len(submission.rolls) != len(checked.planned):
        raise DuelError("bad_dice")
    for p, r in zip(checked.planned, submission.rolls, strict=True):
        count = 2 if isinstance(p.action, FullDefense) else 1
        hits = p.move.hits if p.move else 0
        die = fighter.damage_die(p.move) if p.move else 0
        if (
            r.bonuses != p.bonuses
            or len(r.checks) != count
            or not all(_sound(c, p) for c in r.checks)
            or len(r.damage) != hits
            or any(_damage_sides(d) != die for d in r.damage)
        ):
            raise DuelError("bad_dice")
    return checked


def _sound(c: DuelCheckResult, p: PlannedAction) -> bool:
    face = c.die.value
    return (
        c.die.sides == 10
        and 1 <= face <= 10
        and c.total == face + sum(b.value for b in p.bonuses)
        and c.target == p.target
        and c.critical == ("success" if face == 10 else "failure" if face == 1 else None)
    )


def _damage_sides(r: object) -> int:
    try:
        (group,) = r.results[0].tokens  # type: ignore[attr-defined]  # else caught below
        return int(group.sides) if len(group.dice) == 1 else -1
    except (AttributeError, IndexError, ValueError):
        return -1
