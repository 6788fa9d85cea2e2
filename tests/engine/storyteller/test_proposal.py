"""The GM's review of an attack (DESIGN.md decision 5): a proposal rolled once, adjusted
with the dice kept, published as exactly the roll the GM saw, or dropped."""

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
    Configure,
    Drop,
    Propose,
    Publish,
    StartTurn,
    Yield,
)
from engine.storyteller.decide import decide, preview
from engine.storyteller.errors import StorytellerError
from engine.storyteller.evolve import replay, undo
from engine.storyteller.fight import Fight

from .helpers import character, script

MAX = character("Макс", s=3, d=3, extra="Способности: Рукопашный бой 3")
THUG = character("Бандит", d=2, extra="Способности: Рукопашный бой 2")


def _fight() -> tuple[Fight, list[ev.Event]]:
    log: list[ev.Event] = []
    state = Fight()
    for cmd, faces in (
        (AddFighter("max", MAX, owner=7), []),
        (AddFighter("thug", THUG), []),
        (StartTurn(), [9, 2]),  # Max 3+2+9=14, the thug 2+2+2=6
    ):
        out = decide(state, cmd, script(faces))
        log.extend(out)
        state = replay(out, state)
    return state, log


def _resolved(events: tuple[ev.Event, ...]) -> ev.AttackResolved:
    return next(e for e in events if isinstance(e, ev.AttackResolved))


def test_propose_adjust_publish_is_the_roll_the_gm_saw() -> None:
    state, _ = _fight()
    # the thug has not acted: should he defend, he interrupts with his Willpower point
    punch = Attack("max", "thug", "Кулак", interrupt="point")
    # the player proposes: Dex 3 + Brawl 3, difficulty 6; damage Strength 3; soak Stamina 2
    out = decide(state, Propose(punch, by=7), script([8, 7, 3, 2, 1, 9], [6, 6, 2, 2], [3, 3]))
    (proposed,) = out
    assert isinstance(proposed, ev.AttackProposed)
    assert len(proposed.proposal.faces) == 6 + 4 + 2
    state = replay(out, state)
    opened = proposed.proposal.opened
    assert opened == proposed.step  # its identity: the step that first proposed it
    # nothing is on the table yet: no wound, the turn unchanged
    assert state.fighter("thug").character.health == () and state.turn is not None
    assert not state.turn.done("max")
    first = _resolved(preview(state))
    assert first.attack.net == 3 - 1 and first.extra == 1  # 8, 7, 9; the 1 takes one away
    # more dice than were rolled: the first faces stay, the rest are drawn and kept
    more = decide(state, Adjust(Overrides(dice=8)), script([10, 10, 5, 5, 5, 5]))
    assert isinstance(more[0], ev.AttackProposed)
    assert more[0].proposal.faces[:12] == proposed.proposal.faces
    # the GM makes it harder (difficulty 8): the same six faces count again
    out = decide(state, Adjust(Overrides(difficulty=8)), ScriptedRng([]))
    state = replay(out, state)
    second = _resolved(preview(state))
    assert [d.value for d in second.attack.dice] == [8, 7, 3, 2, 1, 9]
    assert second.attack.net == 2 - 1 and second.hit and second.extra == 0
    # the GM gives the thug a block (his interrupt, a point: no die): its four dice come
    # next on the tape (6, 6, 2, 2)
    out = decide(state, Adjust(Overrides(difficulty=8, defense=Defense("block"))), ScriptedRng([]))
    state = replay(out, state)
    shown = preview(state)
    blocked = _resolved(shown)
    assert blocked.defense is not None and blocked.defense_roll is not None
    assert blocked.defense_roll.dice_count == 2 + 2 and blocked.defense_roll.net == 2
    assert not blocked.hit and blocked.damage is None
    assert state.proposal is not None and state.proposal.opened == opened  # still the same
    assert state.step > opened
    published = decide(state, Publish(), ScriptedRng([]))  # no new die is drawn
    assert isinstance(published[0], ev.ProposalPublished)
    assert published[1:] == shown
    after = replay(published, state)
    assert after.proposal is None
    # Max acted and the thug gave up his action for the block: the turn is over
    assert any(isinstance(e, ev.TurnEnded) for e in published) and after.turn is None
    assert after.fighter("thug").character.willpower_points == 0
    # undoing the publication brings the proposal back for the GM
    again = replay(undo([*_fight()[1], *out, *published]))
    assert again.proposal is not None and again.proposal.attack.overrides.difficulty == 8


def test_review_refusals() -> None:
    state, _ = _fight()
    with pytest.raises(StorytellerError) as err:
        decide(state, Publish(), ScriptedRng([]))
    assert err.value.code == "no_proposal"
    with pytest.raises(StorytellerError) as err:  # not their fighter
        decide(state, Propose(Attack("max", "thug"), by=8), random.Random(1))
    assert err.value.code == "not_your_character"
    state = replay(decide(state, Propose(Attack("max", "thug"), by=7), random.Random(1)), state)
    for cmd in (Adjust(Overrides(dice=2), by=7), Publish(by=7), Drop(by=7)):
        with pytest.raises(StorytellerError) as err:
            decide(state, cmd, random.Random(1))
        assert err.value.code == "gm_only"
    with pytest.raises(StorytellerError) as err:  # the review holds the fight
        decide(state, Yield("thug"), random.Random(1))
    assert err.value.code == "proposal_pending"
    dropped = replay(decide(state, Drop(), ScriptedRng([])), state)
    assert dropped.proposal is None and dropped.turn is not None
    assert not dropped.turn.done("max")


def test_a_proposal_survives_the_codec() -> None:
    state, _ = _fight()
    out = decide(state, Propose(Attack("max", "thug", defense=None)), random.Random(3))
    state = replay(out, state)
    assert Fight.from_dict(state.to_dict()) == state
    assert ev.event_from_dict(out[0].to_dict()) == out[0]


def test_the_gm_configures_the_fight() -> None:
    state, _ = _fight()
    options = dataclasses.replace(state.options, gm_review=False, missing_ability="impossible")
    with pytest.raises(StorytellerError) as err:
        decide(state, Configure(options, by=7), ScriptedRng([]))
    assert err.value.code == "gm_only"
    out = decide(state, Configure(options), ScriptedRng([]))
    after = replay(out, state)
    assert after.options == options and not after.options.gm_review
    assert Fight.from_dict(after.to_dict()).options == options
