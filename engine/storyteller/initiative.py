"""Initiative and the order of a turn (seed 002 «Инициатива», «Уступить ход», «Прервать
действие»).

* «все игроки бросают один кубик и добавляют результат к своей инициативе (Ловкость +
  Сообразительность)» ... «Урон, полученный ранее, может повлиять на инициативу» — d10 +
  Dexterity + Wits − the wound penalty.
* «Игрок с наибольшим результатом ходит первым» ... «Если у двух игроков инициативы
  совпадают, они считаются действующими одновременно» — fighters of equal totals form one
  group, which acts in any order among itself.
* «Если игрок решает отложить свое действие, он может вступить в игру в любой момент после
  своей очереди ... Игрок может даже прервать действие персонажа, идущего после него. Если два
  игрока решают подождать и сделать ход одновременно, первым действует игрок с более высокой
  инициативой.»
* «вы можете уступить свой ход ... Вы можете выполнить свое задуманное действие позже, в конце
  хода. Если все, включая Ведущего, уступили ход, то никаких действий не происходит».
* «Ваш персонаж может защититься в любой момент ... если он успешно пройдет бросок на Силу
  воли или потратит единицу Силы воли» — see ``defensive_interrupt``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from engine.dice.rng import Rng
from engine.storyteller.dice.results import PoolResult

from .character import Character
from .errors import StorytellerError
from .options import DEFAULT_OPTIONS, Options
from .pools import Part, build


@dataclass(frozen=True, slots=True)
class InitiativeRoll:
    fighter: str
    die: int
    rating: int  # Dexterity + Wits
    penalty: int  # the wound penalty
    total: int


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn's order and what each fighter has done of it. ``rolls`` are highest first
    (equal totals keep the order the fighters were given in)."""

    rolls: tuple[InitiativeRoll, ...]
    acted: tuple[str, ...] = ()
    delayed: tuple[str, ...] = ()  # waiting, may act at any moment
    yielded: tuple[str, ...] = ()  # act at the end of the turn, in the order they yielded
    gave_up: tuple[str, ...] = ()  # gave up the planned action to defend (an interrupt)
    # taken out by someone acting at the same time: still makes this turn's action
    last_action: tuple[str, ...] = ()

    def total(self, fighter: str) -> int:
        return next(r.total for r in self.rolls if r.fighter == fighter)

    def done(self, fighter: str) -> bool:
        return fighter in self.acted or fighter in self.gave_up

    def pending(self) -> tuple[str, ...]:
        busy = {*self.acted, *self.delayed, *self.yielded, *self.gave_up}
        return tuple(r.fighter for r in self.rolls if r.fighter not in busy)

    def up(self) -> tuple[str, ...]:
        """Whose turn it is: the group of the highest pending total (acting simultaneously),
        then, once nobody is pending, the first who yielded."""
        pending = self.pending()
        if pending:
            top = self.total(pending[0])
            return tuple(f for f in pending if self.total(f) == top)
        waiting = [f for f in self.yielded if not self.done(f)]
        if waiting and not self.all_yielded():
            return (waiting[0],)
        return ()

    def all_yielded(self) -> bool:
        """«Если все ... уступили ход, то никаких действий не происходит»: nobody acted and
        every fighter still able to act yielded."""
        return not self.acted and bool(self.yielded) and not self.pending() and not self.delayed

    def over(self) -> bool:
        """Nobody is up and nobody waits on a delayed action (the GM may still end a turn
        whose delayed fighters never act: the next turn's initiative ends it)."""
        return self.all_yielded() or (not self.up() and not self.delayed)

    def simultaneous(self) -> tuple[tuple[str, ...], ...]:
        """The order as groups of equal totals."""
        groups: list[list[str]] = []
        for r in self.rolls:
            if groups and self.total(groups[-1][0]) == r.total:
                groups[-1].append(r.fighter)
            else:
                groups.append([r.fighter])
        return tuple(tuple(g) for g in groups)


def roll_initiative(
    fighters: Sequence[tuple[str, Character]],
    rng: Rng,
    options: Options = DEFAULT_OPTIONS,
    kept: Mapping[str, int] | None = None,
) -> Turn:
    """d10 + Dexterity + Wits − wound penalty for each, in the order given. ``kept``: the
    dice rolled at the start of the fight («В начале боя все игроки бросают один кубик»),
    reused — only the wound penalty is counted anew («Урон, полученный ранее, может
    повлиять на инициативу»); a fighter without one rolls."""
    kept = kept or {}
    rolls = []
    for fid, c in fighters:
        die = kept[fid] if fid in kept else rng.randint(1, 10)
        rating = c.rating("dexterity") + c.rating("wits")
        penalty = c.penalty(options.health)
        rolls.append(InitiativeRoll(fid, die, rating, penalty, die + rating - penalty))
    ordered = sorted(rolls, key=lambda r: -r.total)  # stable: ties keep the given order
    return Turn(tuple(ordered))


def _check_up(turn: Turn, fighter: str) -> None:
    if turn.done(fighter):
        raise StorytellerError("already_acted")
    if fighter not in turn.up():
        raise StorytellerError("not_your_turn")


def can_act(turn: Turn, fighter: str) -> bool:
    return not turn.done(fighter) and (fighter in turn.up() or fighter in turn.delayed)


def act(turn: Turn, fighter: str) -> Turn:
    """The fighter takes its action: on its turn, or at any moment when it delayed."""
    if turn.done(fighter):
        raise StorytellerError("already_acted")
    if not can_act(turn, fighter):
        raise StorytellerError("not_your_turn")
    delayed = tuple(f for f in turn.delayed if f != fighter)
    return dataclasses.replace(turn, acted=(*turn.acted, fighter), delayed=delayed)


def delay(turn: Turn, fighter: str) -> Turn:
    _check_up(turn, fighter)
    return dataclasses.replace(turn, delayed=(*turn.delayed, fighter))


def yield_turn(turn: Turn, fighter: str) -> Turn:
    _check_up(turn, fighter)
    if fighter in turn.yielded:  # yielding again at the end: the action is lost
        return dataclasses.replace(turn, acted=(*turn.acted, fighter))
    return dataclasses.replace(turn, yielded=(*turn.yielded, fighter))


def delayed_order(turn: Turn, fighters: Iterable[str]) -> tuple[str, ...]:
    """Delayed fighters acting at the same moment: «первым действует игрок с более высокой
    инициативой»."""
    chosen = set(fighters)
    for f in chosen:
        if f not in turn.delayed:
            raise StorytellerError("not_delayed")
    return tuple(r.fighter for r in turn.rolls if r.fighter in chosen)


@dataclass(frozen=True, slots=True)
class Interrupt:
    """A defensive interrupt: ``success`` lets the fighter defend against this attack;
    ``roll`` is the Willpower roll (None when a point was spent)."""

    fighter: str
    success: bool
    spent_point: bool
    roll: PoolResult | None


def defensive_interrupt(
    turn: Turn, fighter: str, character: Character, rng: Rng, *, spend_point: bool
) -> tuple[Turn, Interrupt]:
    """Seed «Прервать действие»: «совершить успешный бросок на Силу воли (рефлекторное
    действие) с сложностью 6 и использованием запаса бросков равного вашей Силе воли, либо
    потратить одну единицу Силы воли, чтобы автоматически перейти в защиту. Если ваш бросок
    неудачен, считается, что вы не смогли защититься и должны продолжать свое предыдущее
    действие.» «Маневры по защите»: «Если у него еще не было хода».

    On success the fighter gives up its planned action («Игрок может отказаться от своего
    задуманного действия»); spending the point is the caller's (the fight's) to record."""
    if turn.done(fighter):
        raise StorytellerError("cannot_interrupt")
    if spend_point:
        if character.willpower_points < 1:
            raise StorytellerError("no_willpower")
        result = None
        success = True
    else:
        pool = build([Part("willpower", character.willpower)], [Part("base", 6)])
        result = pool.roll(rng)
        success = result.net > 0
    if success:
        delayed = tuple(f for f in turn.delayed if f != fighter)
        turn = dataclasses.replace(turn, gave_up=(*turn.gave_up, fighter), delayed=delayed)
    return turn, Interrupt(fighter, success, spend_point, result)
