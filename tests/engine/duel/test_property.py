"""Random duels: any accepted pair of submissions resolves, and the proposal's numbers add up
to its steps (HP: bleeding and damage; SP: the cost and the recovery)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import describe
from engine.duel import RULES, post
from engine.duel.actions import Action, Attack, Block, Dodge, FullDefense, Trick
from engine.duel.check import plan, submit
from engine.duel.errors import DuelError
from engine.duel.proposal import Proposal
from engine.duel.resolve import BLEED_HP, apply, resolve_turn
from engine.duel.state import DuelState, new_duel

from .helpers import BJORN, MIKO, TAKEDA

SIDES = ("left", "right", "top")


def _action(draw: st.DrawFn) -> Action:
    side = draw(st.sampled_from(SIDES))
    ap = draw(st.integers(0, 2))
    kind = draw(
        st.sampled_from(("attack", "attack2", "trick", "block", "dodge", "full", "fulldodge"))
    )
    if kind == "attack":
        return Attack(side, ap=ap)
    if kind == "attack2":
        return Attack(
            side, move=draw(st.sampled_from(("cleave", "shield_bash", "flurry", "serpent_strike")))
        )
    if kind == "trick":
        return Trick(ap=ap % 2, ease=draw(st.integers(0, 1)))
    if kind == "block":
        return Block(side, ap=ap)
    if kind == "dodge":
        return Dodge(side, ap=ap)
    return FullDefense(side, ap=ap, dodge=kind == "fulldodge")


def _plan(draw: st.DrawFn, state: DuelState, fighter: str) -> list[Action]:
    for _ in range(6):
        actions = [_action(draw) for _ in range(draw(st.integers(0, 3)))]
        try:
            plan(state, fighter, actions)
        except DuelError:
            continue
        return actions
    return []


def _check_sums(state: DuelState, p: Proposal) -> None:
    for before in state.fighters:
        after = p.after_of(before.id)
        mine = [s for s in p.steps if s.fighter == before.id]
        hits = [
            s for s in p.steps if s.code in ("hit", "pierced") and s.params["target"] == before.id
        ]
        bled = BLEED_HP if before.bleeding_turns else 0
        assert after.hp == before.hp - bled - sum(s.params["damage"] for s in hits)
        spent = sum(s.params["cost"] for s in mine if s.code == "sp_spent")
        back = sum(s.params["sp"] for s in mine if s.code == "sp_recovered")
        assert after.sp == before.sp - spent + back
        assert all(s.params["damage"] == sum(s.params["blows"]) for s in hits)


@settings(max_examples=60, deadline=None)
@given(
    st.data(),
    st.sampled_from([(BJORN, TAKEDA), (MIKO, BJORN), (TAKEDA, MIKO)]),
    st.integers(0, 10**6),
)
def test_random_duels_add_up(data: st.DataObject, pair: tuple, seed: int) -> None:  # type: ignore[type-arg]
    rng = random.Random(seed)
    state = new_duel(*pair)
    for _ in range(8):
        if state.over:
            break
        sub_a = submit(state, "a", _plan(data.draw, state, "a"), rng)
        sub_b = submit(state, "b", _plan(data.draw, state, "b"), rng)
        p = resolve_turn(state, sub_a, sub_b)
        assert Proposal.from_dict(p.to_dict()) == p
        assert all(s.rule in RULES for s in p.steps)
        for d in post(p):
            assert describe.placeholders(d.template) <= set(d.params), d
        _check_sums(state, p)
        state = apply(state, p)
