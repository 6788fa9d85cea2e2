"""The deviations an independent audit of seed 002 (``002_99de998f6ccf4084.txt``) found in
the engine (issue 25, item 6); each test quotes the sentence it holds the engine to and
fails on the code before the fix. (Aggravated healing: tests/engine/storyteller/test_healing.py.)
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine.dice.rng import ScriptedRng
from engine.storyteller import events as ev
from engine.storyteller.combat import Defense, Overrides
from engine.storyteller.commands import (
    AddFighter,
    Adjust,
    Attack,
    Command,
    Configure,
    DeclareActions,
    Delay,
    FullDefense,
    Propose,
    Publish,
    StartTurn,
)
from engine.storyteller.decide import decide, preview
from engine.storyteller.errors import StorytellerError
from engine.storyteller.evolve import replay
from engine.storyteller.fight import Fight
from engine.storyteller.options import DEFAULT_OPTIONS
from engine.storyteller.presets import preset_named, preset_pool

from .helpers import character, script

# Dexterity 1 + Dodge 1: a dodge of two dice
GUARD = character("Страж", d=1, extra="Способности: Уворот 1")
THUG = character("Бандит", d=2, extra="Способности: Рукопашный бой 2")


class Table:
    def __init__(self) -> None:
        self.state = Fight()

    def do(self, command: Command, rng: object = None) -> tuple[ev.Event, ...]:
        out = decide(self.state, command, rng or random.Random(7))  # type: ignore[arg-type]
        self.state = replay(out, self.state)
        return out


def _resolved(events: tuple[ev.Event, ...]) -> ev.AttackResolved:
    return next(e for e in events if isinstance(e, ev.AttackResolved))


def _guard_on_full_defense() -> Table:
    t = Table()
    t.do(AddFighter("guard", GUARD))
    for n in (1, 2, 3):
        t.do(AddFighter(f"thug{n}", THUG, owner=n))
    # initiative: the guard 1 + 2 + 10 = 13 goes first; each thug 2 + 2 + 1 = 5
    t.do(StartTurn(), ScriptedRng([10, 1, 1, 1]))
    t.do(FullDefense("guard"))
    return t


def test_a_defense_set_in_the_review_counts_toward_full_defense() -> None:
    # seed 002 «Сложные оборонительные маневры»: «для отражения каждой последующей атаки, вы
    # будете использовать меньшее количество кубиков бросков. Когда количество бросков
    # исчерпано, персонаж больше не сможет защищаться.»
    t = _guard_on_full_defense()
    typed = _resolved(t.do(Attack("thug1", "guard", "Кулак", defense="dodge")))
    assert typed.defense_pool is not None and typed.defense_pool.dice == 2
    assert t.state.fighter("guard").defenses == 1
    # the second attacker's proposal had no defense; the GM sets the dodge in the review
    t.do(Propose(Attack("thug2", "guard", "Кулак"), by=2))
    t.do(Adjust(Overrides(defense=Defense("dodge"))))
    shown = _resolved(preview(t.state))
    assert shown.defense_pool is not None and shown.defense_pool.dice == 1
    assert shown.defense_source == "full"
    t.do(Publish())
    assert t.state.fighter("guard").defenses == 2
    # the third one finds no die left, whoever sets the defense
    t.do(Propose(Attack("thug3", "guard", "Кулак"), by=3))
    with pytest.raises(StorytellerError) as err:
        t.do(Adjust(Overrides(defense=Defense("dodge"))))
    assert err.value.code == "no_defense_dice"


def test_the_review_keeps_the_typed_refusals_of_a_defense() -> None:
    # «Прервать действие ... Если у него еще не было хода»: a fighter who has acted cannot
    # defend; setting the defense from the review buttons is refused as the typed one is
    t = _guard_on_full_defense()
    t.do(Attack("thug1", "guard", "Кулак"))  # thug 1 has acted
    with pytest.raises(StorytellerError) as typed:
        decide(t.state, Attack("thug2", "thug1", defense="dodge"), ScriptedRng([]))
    with pytest.raises(StorytellerError) as interrupt:
        decide(
            t.state, Attack("thug2", "thug1", defense="dodge", interrupt="roll"), ScriptedRng([])
        )
    assert interrupt.value.code == "cannot_interrupt"
    t.do(Propose(Attack("thug2", "thug1", "Кулак"), by=2))
    with pytest.raises(StorytellerError) as tapped:
        t.do(Adjust(Overrides(defense=Defense("block"))))
    assert typed.value.code == tapped.value.code == "cannot_defend"


def test_a_defenders_specialty_rolls_its_tens_again() -> None:
    # seed 002 «Системы действий»: «Даже если бросок неудачный, игроки, у которых персонажи
    # специализированы и выброшена хотя бы одна "десятка", могут сделать дополнительный бросок.»
    nimble = character(
        "Ловкач", d=1, extra="Способности: Уворот 1\nСпециализации: Уворот (перекаты)"
    )
    t = Table()
    t.do(AddFighter("nimble", nimble))
    t.do(AddFighter("thug", THUG, owner=1))
    t.do(StartTurn(), ScriptedRng([10, 1]))
    t.do(FullDefense("nimble"))
    # attack 4 dice: two successes; dodge 2 dice: a 10 and a 7, the 10 rolled again: 8 —
    # three successes, the attack misses
    out = t.do(
        Attack("thug", "nimble", "Кулак", defense="dodge"), script([7, 7, 2, 3], [10, 7], [8])
    )
    attack = _resolved(out)
    assert attack.defense_pool is not None and attack.defense_pool.specialty
    assert attack.defense_roll is not None and attack.defense_roll.net == 3
    assert not attack.hit
    # without a specialty no die is added (the guard: 10 and 7 are two successes)
    t = _guard_on_full_defense()
    out = t.do(
        Attack("thug1", "guard", "Кулак", defense="dodge"),
        script([7, 7, 7, 3], [10, 7], [2, 2], [2, 2]),
    )
    attack = _resolved(out)
    assert attack.defense_pool is not None and not attack.defense_pool.specialty
    assert attack.defense_roll is not None and attack.defense_roll.net == 2 and attack.hit


def test_the_games_actions_limit_holds_for_attacks_and_defenses() -> None:
    # the seed points at «Множественные действия» (absent); the game's limit (/options
    # действия 4) is the one every step honours, not only the declaration
    t = Table()
    t.do(Configure(dataclasses.replace(DEFAULT_OPTIONS, max_actions=4)))
    strong = character("Силач", d=5, extra="Способности: Рукопашный бой 5, Уворот 5")
    t.do(AddFighter("strong", strong, owner=1))
    t.do(AddFighter("thug", THUG))
    t.do(StartTurn(), ScriptedRng([1, 10]))  # the thug 14 is up first, the strong one 8
    t.do(Delay("thug"))
    t.do(DeclareActions("strong", 4, by=1))
    first = _resolved(t.do(Attack("strong", "thug", "Кулак", by=1)))
    assert first.attack_pool.dice == 5 + 5 - 4  # the first of four actions loses four dice
    # the delayed thug attacks him now: his dodge is his second action (five dice fewer)
    resolved = _resolved(t.do(Attack("thug", "strong", "Кулак", defense="dodge")))
    assert resolved.defense_source == "actions"
    assert resolved.defense_pool is not None and resolved.defense_pool.dice == 5 + 5 - 5


def test_repair_takes_any_of_its_four_pools() -> None:
    # seed 002: «3. Ремонт (Ловкость / Восприятие + Ремесло / Технология)»
    repair = preset_named("ремонт")
    assert set(repair.pools) == {
        ("dexterity", "crafts"),
        ("dexterity", "technology"),
        ("perception", "crafts"),
        ("perception", "technology"),
    }
    mechanic = character("Механик", p=4, extra="Способности: Технология 3")
    pools = {preset_pool(mechanic, repair, i).dice for i in range(4)}
    assert 4 + 3 in pools  # Perception + Technology
