"""A scripted fight through decide/evolve, each step citing the seed sentence it plays.

Vera and Max (players) against a boss and three thugs; every die is scripted, in the order
decide draws them (engine/storyteller/decide.py, combat.py).
"""

from __future__ import annotations

import dataclasses

import pytest

from engine.dice.rng import ScriptedRng
from engine.storyteller import events as ev
from engine.storyteller.combat import Overrides
from engine.storyteller.commands import (
    INTERRUPT_ROLL,
    AddFighter,
    Ambush,
    Attack,
    Command,
    DeclareActions,
    Delay,
    EndAction,
    FullDefense,
    StartTurn,
    Yield,
)
from engine.storyteller.decide import decide
from engine.storyteller.errors import StorytellerError
from engine.storyteller.events import event_from_dict
from engine.storyteller.evolve import replay, undo
from engine.storyteller.fight import Fight
from engine.storyteller.maneuvers import Situation
from engine.storyteller.options import DEFAULT_OPTIONS

from .helpers import character, script

VERA = character(
    "Вероника",
    s=2,
    d=4,
    p=3,
    w=3,
    extra="Способности: Огнестрельное оружие 3, Уворот 3, Маскировка 3, Фехтование 2\n"
    "Сила воли: 5\nБроня: Кевларовый жилет\nОружие: Пистолет; Нож",
)
MAX = character("Макс", s=3, st=3, extra="Способности: Рукопашный бой 3, Фехтование 3\nОружие: Меч")
BOSS = character(
    "Босс",
    d=3,
    p=3,
    w=3,
    extra="Способности: Огнестрельное оружие 3\nБроня: Бронежилет\nОружие: Пистолет",
)
THUG = "Способности: Рукопашный бой 2, Фехтование 2, Бдительность 1\nСила воли: 3\nОружие: Нож"
THUG1 = character("Бандит 1", s=3, extra=THUG)
THUG2 = character("Бандит 2", s=3, extra=THUG + "\nЗдоровье: поверхностные 5")
THUG3 = character("Бандит 3", s=3, extra=THUG + "\nБроня: Укреплённая одежда")


# the scripted story rolls a new initiative die every turn (the option the GM may set; the
# seed's default keeps the first turn's dice: test_initiative.py)
EVERY_TURN = dataclasses.replace(DEFAULT_OPTIONS, initiative_once=False)


class Game:
    def __init__(self) -> None:
        self.state = Fight(options=EVERY_TURN)
        self.log: list[ev.Event] = []

    def do(self, command: Command, *faces: list[int]) -> tuple[ev.Event, ...]:
        rng = script(*faces)
        out = decide(self.state, command, rng)
        assert rng.remaining == 0, "every scripted die is drawn"
        self.log.extend(out)
        self.state = replay(out, self.state)
        return out

    def attack(self, *args: object, **kwargs: object) -> ev.AttackResolved:
        faces = kwargs.pop("faces")
        out = self.do(Attack(*args, **kwargs), *faces)  # type: ignore[arg-type]
        return next(e for e in out if isinstance(e, ev.AttackResolved))

    def marks(self, fid: str) -> tuple[str, ...]:
        return self.state.fighter(fid).character.health


def new_game() -> Game:
    g = Game()
    for fid, c, owner in (
        ("vera", VERA, 1),
        ("max", MAX, 2),
        ("boss", BOSS, None),
        ("thug1", THUG1, None),
        ("thug2", THUG2, None),
        ("thug3", THUG3, None),
    ):
        g.do(AddFighter(fid, c, owner))
    return g


@pytest.fixture
def game() -> Game:
    return new_game()


def test_the_scripted_fight(game: Game) -> None:
    play(game)


def play(g: Game) -> None:
    """The fight, step by step (also told by tests/engine/storyteller/test_describe.py)."""
    # --- the ambush --------------------------------------------------------------------
    # «вы совершаете бросок на Ловкость + Маскировку и сравниваете результат с броском жертвы
    # на Восприятие + Бдительность. Если ваш результат превосходит результат жертвы, вы
    # атакуете первым, и жертва не имеет возможности защищаться. Дополнительные успешные
    # баллы ... добавляются к вашему запасу бросков на атаку.»
    (rolled,) = g.do(Ambush("vera", "thug1"), [8, 9, 7, 3, 2, 2], [6, 2, 3])
    assert isinstance(rolled, ev.AmbushRolled)
    assert rolled.stealth.dice_count == 4 + 3 - 1  # the vest's Dexterity penalty
    assert (rolled.outcome, rolled.bonus) == ("won", 2)
    with pytest.raises(StorytellerError) as err:  # no defense for the victim
        decide(g.state, Attack("vera", "thug1", "Нож", defense="dodge"), ScriptedRng([]))
    assert err.value.code == "cannot_defend"
    hit = g.attack("vera", "thug1", "Нож", faces=[[5, 6, 2, 3, 2, 2, 2], [7, 8, 2, 3]])
    assert hit.attack_pool.dice == 4 + 2 - 1 + 2 and hit.attack_pool.difficulty == 4
    assert hit.defense is None and hit.hit and hit.extra == 1
    assert g.marks("thug1") == ("lethal", "lethal") and g.state.ambush is None

    # --- turn 1: initiative with a tie -------------------------------------------------
    # «бросают один кубик и добавляют результат к своей инициативе (Ловкость +
    # Сообразительность)»; «Урон, полученный ранее, может повлиять на инициативу»
    g.do(StartTurn(), [3, 6, 3, 5, 5, 2])
    turn = g.state.turn
    assert turn is not None
    assert [(r.fighter, r.total) for r in turn.rolls] == [
        ("vera", 10),
        ("max", 10),
        ("boss", 9),
        ("thug1", 8),
        ("thug2", 7),
        ("thug3", 6),
    ]
    # «Если у двух игроков инициативы совпадают, они считаются действующими одновременно.»
    assert turn.up() == ("vera", "max")
    # «Если игрок решает отложить свое действие, он может вступить в игру в любой момент
    # после своей очереди»
    g.do(Delay("vera"))
    # --- a blocked punch, after a Willpower interrupt ------------------------------------
    # Max declares two actions: a punch now, a parry later (DESIGN.md: the first loses 2 dice)
    g.do(DeclareActions("max", 2))
    # «Ваш персонаж может защититься в любой момент ... если он успешно пройдет бросок на Силу
    # воли» — Thug 2 rolls Willpower 3 at difficulty 6, then blocks (Dex + Brawl − wounds)
    punch = g.attack(
        "max",
        "thug2",
        "Кулак",
        defense="block",
        interrupt=INTERRUPT_ROLL,
        faces=[[7, 2, 3], [6, 8, 3], [7, 9]],
    )
    interrupt = next(e for e in g.log if isinstance(e, ev.InterruptRolled))
    assert interrupt.success and interrupt.roll is not None and interrupt.roll.dice_count == 3
    assert punch.attack_pool.dice == 2 + 3 - 2 and punch.defense_pool is not None
    assert punch.defense_pool.dice == 2 + 2 - 2
    # «Если у нападающего меньше или столько же успешных баллов, как у защищающегося, то атака
    # не достигает цели.»
    assert not punch.hit and punch.damage is None
    # «Игрок может отказаться от своего задуманного действия»: Thug 2 lost his turn
    assert g.state.turn is not None and g.state.turn.done("thug2")
    g.do(EndAction("max"))
    assert g.state.turn is not None and g.state.turn.up() == ("boss",)

    # --- a lethal shot at a mortal in armor ---------------------------------------------
    # «Смертные могут поглощать только поверхностные повреждения, если у них нет специальной
    # защиты, такой как броня.» «рейтинг брони добавляется к уровню Выносливости»
    shot = g.attack("boss", "vera", faces=[[6, 7, 8, 2], [6, 6, 7, 8, 2, 3], [6, 7, 2]])
    assert shot.attack_pool.dice == 3 + 3 - 2  # the flak jacket's penalty
    assert shot.damage is not None and shot.damage.pool.dice == 4 + 2
    assert shot.damage.soak_pool is not None and shot.damage.soak_pool.dice == 3  # armor only
    assert shot.damage.levels == 2 and g.marks("vera") == ("lethal", "lethal")

    # --- the delayed action: an aimed shot ignoring armor -------------------------------
    # «Игрок может даже прервать действие персонажа, идущего после него.» (Thug 1 is up)
    assert g.state.turn is not None and g.state.turn.up() == ("thug1",)
    g.do(DeclareActions("vera", 2))
    # «Прицелившись, ваш персонаж может обойти броню ... а также нанести дополнительный урон»;
    # «Маленькая (кисть руки, голова, оружие): +2 // +1»
    aimed = g.attack(
        "vera",
        "boss",
        "Пистолет",
        situation=Situation(aim="small"),
        faces=[[8, 9, 10], [6, 6, 6, 6, 2, 2, 2]],
    )
    assert aimed.attack_pool.dice == 4 + 3 - 1 - 1 - 2  # vest, Hurt, two actions
    assert aimed.attack_pool.difficulty == 6 + 2
    assert aimed.damage is not None and aimed.damage.pool.dice == 4 + 2 + 1
    assert aimed.damage.soak_pool is None and not aimed.damage.armor_destroyed
    assert g.state.fighter("boss").character.armor == BOSS.armor
    assert g.marks("boss") == ("lethal",) * 4
    g.do(EndAction("vera"))

    # --- a parry with counter-damage ----------------------------------------------------
    # «Если ваш бросок по защите превосходит бросок противника, все ваши дополнительные
    # успешные баллы добавляются к основному урону вашего оружия.» (Max's second action)
    parry = g.attack(
        "thug1",
        "max",
        defense="parry",
        faces=[[4, 2, 3], [8, 9], [6, 7, 8, 2, 2, 3]],
    )
    assert parry.defense_source == "actions" and parry.defense_pool is not None
    assert parry.defense_pool.dice == 2 + 3 - 3
    assert parry.counter is not None and parry.counter.pool.dice == 3 + 2 + 1
    assert g.marks("thug1") == ("lethal",) * 5

    # --- a dodged blade -----------------------------------------------------------------
    # «Уклонение от удара (Ловкость + Уворот)» with Vera's second declared action
    dodge = g.attack("thug3", "vera", defense="dodge", faces=[[5, 2, 2, 3], [7, 3]])
    assert dodge.defense_pool is not None and dodge.defense_pool.dice == 4 + 3 - 1 - 1 - 3
    assert not dodge.hit
    assert isinstance(g.log[-1], ev.TurnEnded) and g.state.turn is None

    # --- turn 2 -------------------------------------------------------------------------
    g.do(StartTurn(), [4, 5, 4, 5, 3, 2])
    turn = g.state.turn
    assert turn is not None
    assert [r.fighter for r in turn.rolls] == ["vera", "max", "boss", "thug1", "thug3", "thug2"]
    # «Если ваш персонаж решает только защищаться на протяжении всего хода ... он не может
    # совершать атаки.»
    g.do(FullDefense("vera"))
    g.do(DeclareActions("max", 2))
    # --- bashing overflowing into lethal, an Incapacitated fighter ----------------------
    # DESIGN.md: «bashing that overflows the track becomes lethal»
    overflow = g.attack("max", "thug2", "Кулак", faces=[[9, 9, 9], [6, 6, 6, 2, 2], [2, 3]])
    assert overflow.damage is not None and overflow.damage.levels == 3
    assert overflow.damage.converted == 1
    assert g.marks("thug2") == ("lethal",) + ("bashing",) * 6
    assert any(isinstance(e, ev.Incapacitated) and e.fighter == "thug2" for e in g.log)
    # --- armor destroyed ----------------------------------------------------------------
    # «Если урон, нанесенный одной атакой до поглощения, в два раза превышает рейтинг брони,
    # то броня считается уничтоженной.»
    broke = g.attack("max", "thug3", faces=[[8, 9], [6, 6, 7, 2, 2, 2], [6]])
    assert broke.damage is not None and broke.damage.armor_destroyed
    assert broke.damage.roll.net == 3 >= 2 * 1
    assert g.state.fighter("thug3").character.armor is None

    # --- a full defense against three attackers with shrinking pools --------------------
    # «для отражения каждой последующей атаки, вы будете использовать меньшее количество
    # кубиков бросков. Когда количество бросков исчерпано, персонаж больше не сможет
    # защищаться.»
    pools = []
    for attacker, faces in (
        ("boss", [[6, 2], [6, 7, 2, 2, 2]]),
        ("thug1", [[4, 5], [6, 6, 2, 2]]),
        ("thug3", [[4, 2, 2], [2, 2, 2], [6, 2, 2, 2], [2, 2, 2]]),
    ):
        out = g.attack(attacker, "vera", defense="dodge", faces=faces)
        assert out.defense_source == "full" and out.defense_pool is not None
        pools.append(out.defense_pool.dice)
    assert pools == [5, 4, 3]
    assert g.marks("vera") == ("lethal",) * 3
    assert isinstance(g.log[-1], ev.TurnEnded)  # Thug 2 is out of the fight

    # the log replays and round-trips through the codec
    start = Fight(options=EVERY_TURN)
    assert replay(g.log, start) == g.state
    assert replay((event_from_dict(e.to_dict()) for e in g.log), start) == g.state
    assert replay(undo(g.log), start).turn is not None  # undo drops the last step


def test_a_gm_adjustment_is_a_different_input(game: Game) -> None:
    g = game
    g.do(StartTurn(), [10, 1, 1, 1, 1, 1])
    # the proposal: Dex 4 + Firearms 3 − 1 at difficulty 6; the GM raises it to 8
    rng = [[6, 6, 6, 6, 6, 2], [6] * 8, [2] * 4]
    plain = decide(g.state, Attack("vera", "boss"), script(*rng))
    adjusted = decide(
        g.state, Attack("vera", "boss", overrides=Overrides(difficulty=8)), script(*rng)
    )
    first, second = (
        next(e for e in out if isinstance(e, ev.AttackResolved)) for out in (plain, adjusted)
    )
    assert first.attack.net == 5 and first.hit and first.damage is not None
    assert first.damage.levels == 8
    assert second.attack_pool.difficulty == 8 and second.attack.net == 0 and not second.hit


def test_willpower_point_interrupt_and_refusals(game: Game) -> None:
    g = game
    g.do(StartTurn(), [10, 9, 1, 1, 1, 1])
    # «либо потратить одну единицу Силы воли, чтобы автоматически перейти в защиту»
    out = g.attack(
        "vera", "max", "Нож", defense="dodge", interrupt="point", faces=[[2, 2, 2, 2, 2], [2, 2]]
    )
    assert out.defense_source == "interrupt"
    assert g.state.fighter("max").character.willpower_points == MAX.willpower_points - 1
    with pytest.raises(StorytellerError) as err:  # gave up his action
        decide(g.state, Attack("max", "vera"), ScriptedRng([]))
    assert err.value.code == "already_acted"
    with pytest.raises(StorytellerError) as err:
        decide(g.state, Ambush("vera", "thug1"), ScriptedRng([]))
    assert err.value.code == "ambush_in_fight"
    with pytest.raises(StorytellerError) as err:
        decide(g.state, StartTurn(by=1), ScriptedRng([]))
    assert err.value.code == "gm_only"
    with pytest.raises(StorytellerError) as err:
        decide(g.state, Attack("boss", "vera", by=1), ScriptedRng([]))
    assert err.value.code == "not_your_character"


def test_full_defense_limits(game: Game) -> None:
    g = game
    g.do(StartTurn(), [1, 10, 9, 1, 1, 1])  # max 14, boss 15, vera 8, …
    turn = g.state.turn
    assert turn is not None and turn.up() == ("boss",)
    g.do(Delay("boss"))
    g.do(FullDefense("max"))
    # «Однако, он не может защититься от атаки персонажа, чья очередь наступает раньше»
    with pytest.raises(StorytellerError) as err:
        decide(g.state, Attack("boss", "max", defense="dodge"), ScriptedRng([]))
    assert err.value.code == "cannot_defend"
    # «Если ваш персонаж решает только защищаться … он не может совершать атаки.»
    with pytest.raises(StorytellerError) as err:
        decide(g.state, Attack("max", "boss"), ScriptedRng([]))
    assert err.value.code == "already_acted"  # the full defense took his turn
    # «Когда количество бросков исчерпано, персонаж больше не сможет защищаться.» Max blocks
    # with Dex 2 + Brawl 3: five defenses, then none
    state = g.state
    for n in range(5):
        state = state.replace_fighter("max", defenses=n)
        out = decide(state, Attack("vera", "max", "Кулак", defense="block"), script([2] * 20))
        attack = next(e for e in out if isinstance(e, ev.AttackResolved))
        assert attack.defense_pool is not None and attack.defense_pool.dice == 5 - n
    state = state.replace_fighter("max", defenses=5)
    with pytest.raises(StorytellerError) as err:
        decide(state, Attack("vera", "max", "Кулак", defense="block"), ScriptedRng([]))
    assert err.value.code == "no_defense_dice"


def test_everyone_yields_nothing_happens(game: Game) -> None:
    # «Если все, включая Ведущего, уступили ход, то никаких действий не происходит»
    g = game
    g.do(StartTurn(), [10, 9, 8, 7, 6, 5])
    assert g.state.turn is not None
    for r in g.state.turn.rolls:  # each in turn yields
        out = g.do(Yield(r.fighter))
    assert isinstance(out[-1], ev.TurnEnded) and out[-1].nothing_happened
    assert g.state.turn is None


def test_willpower_success_costs_a_point_and_the_fallen_cannot_act(game: Game) -> None:
    g = game
    g.do(StartTurn(), [10, 1, 1, 1, 1, 1])
    hit = g.attack(
        "vera",
        "thug2",
        "Нож",
        situation=Situation(willpower=True),
        faces=[[2, 2, 2, 2, 2], [6, 6, 6]],
    )
    assert hit.attack.net == 1 and hit.hit
    assert g.state.fighter("vera").character.willpower_points == VERA.willpower_points - 1
    # Thug 2 had five bashing marks: three lethal levels fill his track
    assert any(isinstance(e, ev.Incapacitated) and e.fighter == "thug2" for e in g.log)
    with pytest.raises(StorytellerError) as err:
        decide(g.state, Attack("thug2", "vera"), ScriptedRng([]))
    assert err.value.code == "incapacitated"
    # a full track with no bashing mark left: the next level kills (DESIGN.md default)
    doomed = g.state.replace_fighter(
        "thug1", character=dataclasses.replace(THUG1, health=("lethal",) * 7)
    )
    out = decide(doomed, Attack("boss", "thug1"), script([6, 6, 2, 2], [6] * 5))
    assert any(isinstance(e, ev.Died) and e.fighter == "thug1" for e in out)


def test_actions_declared_with_the_attack(game: Game) -> None:
    """The picker's split: «declare N actions, the first pool loses N dice and each next one
    one die more» (DESIGN.md; the seed's «Множественные действия» is absent) made with the
    attack in one step — the same checks and events as /actions, then the attack."""
    g = game
    g.do(StartTurn(), [10, 1, 1, 1, 1, 1])  # Вероника is up
    out = g.do(Attack("vera", "boss", "Пистолет", actions=2), [2] * 4)
    assert isinstance(out[0], ev.ActionsDeclared) and out[0].count == 2
    shot = next(e for e in out if isinstance(e, ev.AttackResolved))
    assert shot.attack_pool.dice == 4 + 3 - 1 - 2  # the vest; the first of two loses 2
    turn = g.state.turn
    assert g.state.fighter("vera").actions == 2 and turn is not None and not turn.done("vera")
    second = g.attack("vera", "boss", "Пистолет", faces=[[2] * 3])
    assert second.attack_pool.dice == 4 + 3 - 1 - 3  # the next one a die more
    # the refusals are /actions's: too many actions, or not the fighter's turn
    fresh = new_game()
    fresh.do(StartTurn(), [10, 1, 1, 1, 1, 1])
    for command, code in (
        (Attack("vera", "boss", "Пистолет", actions=4), "bad_actions"),
        (DeclareActions("vera", 4), "bad_actions"),
        (Attack("max", "boss", "Меч", actions=2), "not_your_turn"),
        (DeclareActions("max", 2), "not_your_turn"),
    ):
        with pytest.raises(StorytellerError) as err:
            decide(fresh.state, command, ScriptedRng([]))
        assert err.value.code == code, command
