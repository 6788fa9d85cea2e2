"""The proposed resolution of a turn (seed 003), pure: ``resolve_turn`` reads both checked
submissions and lists every step with the seed rule it applied; ``apply`` moves the duel to
the next turn with the (possibly GM-edited) proposal's fighters.

Order: bleeding, standing up, SP spent, the attacks (the first fighter's, then the
second's; each in its declared order), the tricks, then what carries over to the next turn
(SP recovery, exhaustion, lost and extra actions, bonuses, series) and deaths.
"""

from __future__ import annotations

from dataclasses import replace

from engine.duel.roll import DuelCheckResult

from .actions import Attack, Block, Dodge, FullDefense, Trick
from .check import SubmissionCheck, check_submission
from .clash import Guard, Tally, attack, guard_of
from .combatant import FighterState
from .errors import DuelError
from .fighter import TrickEffect
from .options import DuelOptions
from .proposal import Proposal, Step
from .state import DuelState
from .submission import Submission

BLEED_HP = 2  # «Жертва теряет по 2ХП в течение трех ходов.»
BLEED_TURNS = 3
CRITICAL_SP = 2  # «...и восстановить 2СП»
FULL_DEFENSE_SP = 2  # «Заняв оборонительную стойку, боец в начале след. хода восстанавливает 2 СП»


def resolve_turn(
    state: DuelState, sub_a: Submission, sub_b: Submission, options: DuelOptions | None = None
) -> Proposal:
    opts = options or state.options
    a, b = state.fighters
    subs = {s.fighter: s for s in (sub_a, sub_b)}
    if set(subs) != {a.id, b.id}:
        raise DuelError("missing_submission")
    checked = {f.id: check_submission(state, f.id, subs[f.id]) for f in state}
    tally = {f.id: Tally(hp=f.hp) for f in state}
    guards = {f.id: guard_of(checked[f.id], subs[f.id]) for f in state}
    steps: list[Step] = []
    for f in state:
        t = tally[f.id]
        if f.bleeding_turns:  # «Этот урон не отменяет трюки и восстановление СП»
            t.hp -= BLEED_HP
            steps.append(
                Step("bled", "bleeding", f.id, {"hp": BLEED_HP, "left": f.bleeding_turns - 1})
            )
        if f.standing_up:
            steps.append(Step("stood_up", "knockdown", f.id, {}))
        c = checked[f.id]
        if c.cost:
            steps.append(Step("sp_spent", "sp_spent", f.id, {"cost": c.cost, "sp": c.sp_after}))
    for f in state:
        other = state.opponent(f.id)
        c, sub = checked[f.id], subs[f.id]
        index = 0
        for p, r in zip(c.planned, sub.rolls, strict=True):
            if isinstance(p.action, Attack):
                index += 1
                steps += attack(
                    f, other, p, r, guards[other.id], tally[f.id], tally[other.id], opts, index
                )
    steps += _tricks(state, checked, subs, tally, opts)
    steps += _dodge_effects(state, guards, tally)
    after = tuple(_next(f, checked[f.id], guards[f.id], tally, opts, steps) for f in state)
    for f in after:
        if f.dead:
            steps.append(Step("died", "death", f.id, {"hp": f.hp}))
    return Proposal(state.turn, (subs[a.id], subs[b.id]), tuple(steps), (after[0], after[1]))


def _tricks(
    state: DuelState,
    checked: dict[str, SubmissionCheck],
    subs: dict[str, Submission],
    tally: dict[str, Tally],
    opts: DuelOptions,
) -> list[Step]:
    rolls: dict[str, DuelCheckResult] = {}
    for f in state:
        for p, r in zip(checked[f.id].planned, subs[f.id].rolls, strict=True):
            if isinstance(p.action, Trick):
                rolls[f.id] = r.check
    if len(rolls) == 2 and opts.trick_contest == "opposed":
        won, steps = _opposed(rolls, opts)
    else:
        won, steps = _checked(rolls, opts)
    for fid, c in rolls.items():
        if not won[fid]:
            continue
        if tally[fid].damage_taken > 0 and c.critical != "success":
            steps.append(
                Step("trick_cancelled", "trick_cancelled", fid, {"damage": tally[fid].damage_taken})
            )
            continue
        rule = "trick_critical" if tally[fid].damage_taken > 0 else "trick_effect"
        effect = state.fighter(fid).fighter.fighter_class.trick
        steps.append(_effect(effect, "trick", rule, fid, tally[fid], tally[state.opponent(fid).id]))
    return steps


def _opposed(
    rolls: dict[str, DuelCheckResult], opts: DuelOptions
) -> tuple[dict[str, bool], list[Step]]:
    """The reading ``trick_contest = "opposed"``: «В случае если противник также заявляет
    трюк, успешным считается больший результат, либо ничья» — two tricks are one opposed
    roll, the higher total succeeds whatever the difficulty; a natural 1 fails all the same
    («1 на d10 - критический провал»)."""
    steps: list[Step] = []
    won = {fid: c.critical != "failure" for fid, c in rolls.items()}
    (ia, ca), (ib, cb) = rolls.items()
    if won[ia] and won[ib]:
        if ca.total != cb.total:
            won[ia if ca.total < cb.total else ib] = False
        elif opts.trick_tie == "neither":
            won = dict.fromkeys(won, False)
            steps.append(Step("tricks_tied_neither", "trick_contest", ia, {}))
            return won, steps
    for fid, c in rolls.items():
        other = cb if fid == ia else ca
        params: dict[str, int | None] = {"total": c.total, "other": other.total}
        if c.critical == "failure":
            code, rule = "trick_failed", "trick"
            params["difficulty"] = c.target
        else:
            code, rule = ("trick_won" if won[fid] else "trick_lost"), "trick_contest"
        steps.append(Step(code, rule, fid, params))
    return won, steps


def _checked(
    rolls: dict[str, DuelCheckResult], opts: DuelOptions
) -> tuple[dict[str, bool], list[Step]]:
    """Each trick its own check against the fixed difficulty («d10 против фиксированной
    сложности, с успехом на 6+»); of two successes the higher wins («успешным считается
    больший результат, либо ничья»)."""
    steps: list[Step] = []
    won = {fid: bool(c.success) for fid, c in rolls.items()}
    for fid, c in rolls.items():
        params = {"total": c.total, "face": c.die.value, "difficulty": c.target}
        steps.append(Step("trick_rolled" if won[fid] else "trick_failed", "trick", fid, params))
    if len(rolls) == 2 and all(won.values()):  # «успешным считается больший результат, либо ничья»
        (ia, ca), (ib, cb) = rolls.items()
        if ca.total != cb.total:
            loser = ia if ca.total < cb.total else ib
            won[loser] = False
            steps.append(Step("trick_lost", "trick_contest", loser, {}))
        elif opts.trick_tie == "neither":
            won = dict.fromkeys(won, False)
            steps.append(Step("tricks_tied_neither", "trick_contest", ia, {}))
    return won, steps


def _effect(effect: TrickEffect, source: str, rule: str, fid: str, me: Tally, them: Tally) -> Step:
    """A class's effect for the next turn (a trick's, or one after a dodge)."""
    if effect.kind == "attack_bonus":
        me.attack_bonus += effect.value
    elif effect.kind == "defense_bonus":
        me.defense_bonus += effect.value
    elif effect.kind == "sp":
        me.sp_back += effect.value
    elif effect.kind == "knockdown":
        them.effect_knockdown = True
    elif effect.kind == "bleeding":
        them.effect_bleeding = True
    elif effect.kind == "lose_action":
        them.lose_action = True
    params = {"effect": effect.kind, "value": effect.value, "source": source}
    return Step("effect", rule, fid, params)


def _dodge_effects(
    state: DuelState, guards: dict[str, Guard], tally: dict[str, Tally]
) -> list[Step]:
    """«Кроме того, некоторым классам доступны особые действия после уклонения.»"""
    steps = []
    for f in state:
        effect = f.fighter.fighter_class.dodge_effect
        if effect is not None and guards[f.id].avoided:
            other = state.opponent(f.id).id
            steps.append(_effect(effect, "dodge", "dodge_effect", f.id, tally[f.id], tally[other]))
    return steps


def _recovery(g: Guard, opts: DuelOptions) -> tuple[int, str] | None:
    """SP back at the start of the next turn, and the rule."""
    if g.full:  # the stance: 2, 1 if broken (a critical adds nothing to the stance's 2)
        if g.broken:
            return 1, "sp_full_defense"
        if g.critical_block or g.critical_dodge:
            return CRITICAL_SP, "block_critical" if g.critical_block else "dodge_critical"
        return FULL_DEFENSE_SP, "sp_full_defense"
    sp, rule = 0, ""
    if g.block is not None and not g.broken:
        if g.critical_block:
            sp, rule = CRITICAL_SP, "block_critical"
        elif g.faced or opts.idle_block_recovers:
            sp, rule = 1, "sp_block"
    if g.critical_dodge and not g.dodge_hit:
        sp, rule = sp + CRITICAL_SP, "dodge_critical"
    elif g.dodged:
        sp, rule = sp + g.dodged, rule or "sp_dodge"
    return (sp, rule) if sp else None


def _next(
    f: FighterState,
    c: SubmissionCheck,
    g: Guard,
    tally: dict[str, Tally],
    opts: DuelOptions,
    steps: list[Step],
) -> FighterState:
    t = tally[f.id]
    sp = c.sp_after + t.sp_back
    back = _recovery(g, opts)
    if back is not None:
        gained = back[0]
        if opts.sp_cap is not None:
            gained = max(0, min(gained, opts.sp_cap - sp))
        sp += gained
        steps.append(Step("sp_recovered", back[1], f.id, {"sp": gained, "total": sp}))
    exhausted = max(0, f.exhausted_turns - 1) + c.deficit
    # the reading ``exhaustion = "counter"``: the pool an overspend left at 0 or below is paid
    # by its turns of exhaustion («истощение на два раунда»), not by more of them
    in_debt = opts.exhaustion == "counter" and sp <= 0 and (c.deficit > 0 or f.in_debt)
    if c.deficit:
        steps.append(
            Step("overspent", "overspent", f.id, {"deficit": c.deficit, "turns": exhausted})
        )
    elif sp <= 0 and not in_debt:
        steps.append(Step("exhausted", "exhaustion", f.id, {"sp": sp}))
    series = f.series.broken() if f.standing_up else f.series
    attacks = 0
    for p in c.planned:
        a = p.action
        if isinstance(a, Attack):
            attacks += 1
            series = series.attack()
            if attacks in t.parried_at:  # «Парирование прерывает серию»: at that attack
                series = series.broken()
        elif isinstance(a, Trick):
            series = series.broken()
        elif isinstance(a, Block | Dodge | FullDefense):
            series = series.defense(a.actions)
    if t.parried:
        steps.append(Step("loses_action", "parry_effect", f.id, {}))
    elif series.length > 1 and any(isinstance(p.action, Attack) for p in c.planned):
        steps.append(Step("series", "series", f.id, {"length": series.length}))
    if t.critical_attack:
        steps.append(Step("extra_action", "critical_extra", f.id, {}))
    bleeding = max(0, f.bleeding_turns - 1)
    if t.bleeding_started or t.effect_bleeding:
        bleeding = BLEED_TURNS
    return replace(
        f,
        hp=t.hp,
        sp=sp,
        exhausted_turns=exhausted,
        in_debt=in_debt,
        bleeding_turns=bleeding,
        standing_up=t.knocked_down or t.effect_knockdown,
        lost_actions=int(t.parried or t.lose_action),
        extra_actions=int(t.critical_attack),
        attack_bonus=t.flank + t.attack_bonus,
        defense_bonus=t.defense_bonus,
        series=series,
    )


def apply(state: DuelState, proposal: Proposal) -> DuelState:
    """The next turn: the proposal's fighters as they are (the GM may have edited them)."""
    if proposal.turn != state.turn:
        raise DuelError("stale_proposal", {"got": proposal.turn, "turn": state.turn})
    if state.over:
        raise DuelError("duel_over")
    ids = tuple(f.id for f in state.fighters)
    by_id = {f.id: f for f in proposal.after}
    if set(by_id) != set(ids):
        raise DuelError("unknown_fighter", {"fighter": ",".join(sorted(by_id))})
    return replace(state, fighters=(by_id[ids[0]], by_id[ids[1]]), turn=state.turn + 1)
