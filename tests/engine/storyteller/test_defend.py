"""The defender chooses (issue 25, item 2): an attack on a player's character without a
defense named asks its player, offering only the defenses the seed allows at that moment
(«Маневры по защите»), each with its pool; the time to choose is the game's option and its
default the largest pool that spends nothing."""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine.storyteller import events as ev
from engine.storyteller.combat import BLOCK, DODGE, PARRY
from engine.storyteller.commands import (
    INTERRUPT_POINT,
    INTERRUPT_ROLL,
    AddFighter,
    Attack,
    Defend,
    FullDefense,
    Propose,
    Publish,
    StartTurn,
)
from engine.storyteller.decide import (
    DefenseChoice,
    decide,
    default_defense,
    defense_choices,
    overdue,
    preview,
)
from engine.storyteller.errors import StorytellerError
from engine.storyteller.evolve import replay
from engine.storyteller.fight import Fight
from engine.storyteller.options import DEFAULT_OPTIONS

from .helpers import character, script

# Olga: Dexterity 3, Brawl 2, Dodge 3, Melee 1 with a knife; the thug has a knife and a gun
OLGA = character(
    "Ольга",
    d=3,
    w=2,
    extra="Способности: Рукопашный бой 2, Уворот 3, Фехтование 1\nСила воли: 2\nОружие: Нож",
)
THUG = character("Бандит", s=3, d=2, extra="Способности: Фехтование 2\nОружие: Нож; Пистолет")
OLGA_ID = 5


def _fight(initiative: list[int]) -> Fight:
    state = Fight()
    for command, faces in (
        (AddFighter("olga", OLGA, owner=OLGA_ID), []),
        (AddFighter("thug", THUG), []),
        (StartTurn(), initiative),
    ):
        state = replay(decide(state, command, script(faces)), state)
    return state


def _propose(state: Fight, attack: Attack, now: float = 100.0) -> Fight:
    by = OLGA_ID if attack.attacker == "olga" else None
    return replay(decide(state, Propose(attack, now=now, by=by), random.Random(7)), state)


def test_a_player_who_has_not_acted_chooses_an_interrupt_with_its_pool() -> None:
    # the thug (initiative 2+2+9=13) attacks first; Olga (3+2+1=6) has not acted:
    # «Прервать действие ради защиты» — her only way to defend, by a roll or a point
    state = _fight([1, 9])
    knife = Attack("thug", "olga", "Нож")
    state = _propose(state, knife)
    assert state.proposal is not None and state.proposal.asking
    assert state.proposal.until == 100.0 + DEFAULT_OPTIONS.defense_seconds
    choices = defense_choices(state)
    # a knife is lethal: «атаки, наносящие смертельные повреждения, не могут быть
    # заблокированы, если персонаж не обладает способностью поглощать повреждения»
    assert BLOCK not in {c.kind for c in choices}
    assert choices == (
        DefenseChoice(None),
        DefenseChoice(DODGE, INTERRUPT_ROLL, None, 6),  # Dexterity 3 + Dodge 3
        DefenseChoice(DODGE, INTERRUPT_POINT, None, 6),
        DefenseChoice(PARRY, INTERRUPT_ROLL, "Нож", 4),  # Dexterity 3 + Melee 1
        DefenseChoice(PARRY, INTERRUPT_POINT, "Нож", 4),
    )
    # the default spends nothing: an interrupt costs the action (or a point) — no defense
    assert default_defense(state) == DefenseChoice(None)
    # her player taps «dodge, Willpower point»: the proposal is the GM's to review
    chosen = decide(state, Defend(DODGE, INTERRUPT_POINT, by=OLGA_ID), random.Random(3))
    after = replay(chosen, state)
    assert after.proposal is not None and not after.proposal.asking
    resolved = next(e for e in preview(after) if isinstance(e, ev.AttackResolved))
    assert resolved.defense is not None and resolved.defense.kind == DODGE


def test_only_the_defenders_player_or_the_gm_chooses_and_only_once() -> None:
    state = _propose(_fight([1, 9]), Attack("thug", "olga", "Нож"))
    with pytest.raises(StorytellerError) as refused:
        decide(state, Defend(None, by=OLGA_ID + 1), script([]))
    assert refused.value.code == "not_your_character"
    after = replay(decide(state, Defend(None), script([])), state)  # the GM decides instead
    with pytest.raises(StorytellerError) as again:
        decide(after, Defend(None, by=OLGA_ID), script([]))
    assert again.value.code == "not_asking"


def test_a_refused_defense_is_refused_when_tapped_too() -> None:
    # one rule path: the choice a button carries is decided like the typed word
    state = _propose(_fight([1, 9]), Attack("thug", "olga", "Пистолет"))
    assert BLOCK not in {c.kind for c in defense_choices(state)}  # «Блокировать дальнобойные»
    with pytest.raises(StorytellerError) as refused:
        decide(state, Defend(BLOCK, INTERRUPT_POINT, by=OLGA_ID), random.Random(3))
    assert refused.value.code == "no_block_ranged"


def test_a_full_defense_is_chosen_plain_and_is_the_default_at_the_end_of_time() -> None:
    # Olga first (3+2+9=14), declares full defense; the thug (2+2+1=5) attacks later
    state = _fight([9, 1])
    state = replay(decide(state, FullDefense("olga", by=OLGA_ID), script([])), state)
    state = _propose(state, Attack("thug", "olga", "Нож"), now=0.0)
    choices = defense_choices(state)
    assert [(c.kind, c.interrupt, c.dice) for c in choices] == [
        (None, None, 0),
        (DODGE, None, 6),
        (PARRY, None, 4),
    ]
    assert not overdue(state, 59.0) and overdue(state, 60.0)
    assert default_defense(state).kind == DODGE  # the largest pool
    no_default = dataclasses.replace(
        state, options=dataclasses.replace(state.options, defense_by_default=False)
    )
    assert default_defense(no_default) == DefenseChoice(None)


def test_no_choice_no_question_and_the_gm_may_publish_at_once() -> None:
    # Olga acted first and took no full defense: nothing to choose, nobody is asked
    state = _fight([9, 1])
    state = _propose(state, Attack("olga", "thug", "Нож"))
    state = replay(decide(state, Publish(), script([])), state)
    state = _propose(state, Attack("thug", "olga", "Нож"))
    assert state.proposal is not None and not state.proposal.asking
    # a game that gives no time: the GM sets the defense in the review
    quick = dataclasses.replace(DEFAULT_OPTIONS, defense_seconds=0)
    fight = dataclasses.replace(_fight([1, 9]), options=quick)
    fight = _propose(fight, Attack("thug", "olga", "Нож"))
    assert fight.proposal is not None and not fight.proposal.asking
    # an NPC target is never asked in the group: its defense is the GM's, in the review
    fight = _fight([9, 1])
    fight = _propose(fight, Attack("olga", "thug", "Нож"))
    assert fight.proposal is not None and not fight.proposal.asking
