"""Who may attack and defend in a Storyteller fight, and the defense a target makes against
an attack (decide.py's attack reads them)."""

from __future__ import annotations

from engine.dice.rng import Rng

from . import events as ev
from .combat import DEFENSE_ABILITY, Defense
from .commands import INTERRUPT_POINT, INTERRUPT_ROLL, Attack
from .errors import StorytellerError
from .fight import Fight, Fighter
from .initiative import Turn, defensive_interrupt
from .pools import action_pool, multiple_actions


def able(state: Fight, fid: str) -> None:
    if not state.can_fight(fid):
        raise StorytellerError("incapacitated")


def defense_of(
    state: Fight, cmd: Attack, target: Fighter, rng: Rng, step: int, out: list[ev.Event]
) -> tuple[Defense | None, str | None]:
    """The defense the target can make against this attack, and how it has it.

    A defense the GM sets in the review (``overrides.defense``) takes the same path as the
    typed one: it counts toward a full defense's shrinking pools and a multiple action's
    dice («для отражения каждой последующей атаки, вы будете использовать меньшее количество
    кубиков бросков. Когда количество бросков исчерпано, персонаж больше не сможет
    защищаться»), and every refusal of the typed defense refuses it too."""
    chosen = cmd.overrides.defense
    if chosen is None and cmd.defense is None:
        return None, None
    kind = chosen.kind if chosen is not None else cmd.defense
    assert kind is not None
    weapon = chosen.weapon if chosen is not None else cmd.defense_weapon
    able(state, target.id)
    turn = state.turn

    def pool_left(penalty: int) -> Defense:
        dice = action_pool(
            target.character,
            "dexterity",
            DEFENSE_ABILITY[kind],
            options=state.options,
            actions_penalty=penalty,
        ).dice
        if dice <= 0:
            raise StorytellerError("no_defense_dice")
        # «игроки, у которых персонажи специализированы и выброшена хотя бы одна "десятка",
        # могут сделать дополнительный бросок» — the defender's specialty (in the defense's
        # ability or Dexterity) counts on its defense roll; action_pool checks it is there
        return Defense(kind, penalty, weapon, specialty=True)

    if turn is None:  # a tied ambush: «жертва имеет возможность защититься»
        if state.ambush is not None and not state.ambush.situation.no_defense:
            return pool_left(0), "ambush_tie"
        raise StorytellerError("cannot_defend")
    if target.full_defense:
        # «он защищается от нападений тех противников, чья очередь ходить совпадает с его или
        # наступает после него ... для отражения каждой последующей атаки, вы будете
        # использовать меньшее количество кубиков»
        if turn.total(cmd.attacker) > turn.total(target.id):
            raise StorytellerError("cannot_defend")
        return pool_left(target.defenses), "full"
    if target.actions > 1 and target.actions_used < target.actions:
        # «Если множественное действие включает нападение и защиту ... применяется система
        # множественного действия»
        penalties = multiple_actions(target.actions, state.options)
        return pool_left(penalties[target.actions_used]), "actions"
    if cmd.interrupt in (INTERRUPT_ROLL, INTERRUPT_POINT):
        spend = cmd.interrupt == INTERRUPT_POINT
        _, result = defensive_interrupt(turn, target.id, target.character, rng, spend_point=spend)
        if spend:
            out.append(ev.WillpowerSpent(step, target.id, "interrupt"))
        out.append(ev.InterruptRolled(step, target.id, result.success, spend, result.roll))
        # «Если ваш бросок неудачен, считается, что вы не смогли защититься»
        return (pool_left(0), "interrupt") if result.success else (None, None)
    raise StorytellerError("cannot_defend")


def simultaneous(state: Fight, turn: Turn | None, attacker: str, victim: str) -> bool:
    """«Если у двух игроков инициативы совпадают, они считаются действующими одновременно»:
    the victim has not acted yet and shares the attacker's total (options.simultaneous_ties)."""
    if not state.options.simultaneous_ties or turn is None or attacker == victim:
        return False
    rolled = {r.fighter for r in turn.rolls}
    if attacker not in rolled or victim not in turn.pending():
        return False
    return turn.total(attacker) == turn.total(victim)


def able_to_attack(state: Fight, fid: str) -> None:
    """Able, or taken out by someone acting at the same time and still owed its action."""
    turn = state.turn
    if turn is not None and fid in turn.last_action and not turn.done(fid):
        return
    able(state, fid)
