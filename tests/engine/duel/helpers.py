"""Fighters and duels for the duel engine's tests."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine.dice.rng import ScriptedRng
from engine.duel import KENSEI, OROCHI, RAIDER, Fighter, Stats
from engine.duel.actions import Action
from engine.duel.check import submit
from engine.duel.proposal import Proposal, Step
from engine.duel.resolve import resolve_turn
from engine.duel.state import DuelState, FighterState, new_duel

BJORN = Fighter("Бьорн", Stats(attack=2, block=1, dodge=0, damage_die=8, hp=20, armor=1), RAIDER)
TAKEDA = Fighter("Такеда", Stats(attack=1, block=0, dodge=2, damage_die=6, hp=16, armor=0), KENSEI)
MIKO = Fighter("Мико", Stats(attack=1, block=1, dodge=1, damage_die=6, hp=14, armor=0), OROCHI)


def duel(a: Fighter = BJORN, b: Fighter = TAKEDA, **options: Any) -> DuelState:
    state = new_duel(a, b)
    return replace(state, options=replace(state.options, **options)) if options else state


def with_fighter(state: DuelState, fighter_id: str, **changes: Any) -> DuelState:
    """The state with one fighter's carried-over values changed."""
    fighters = tuple(replace(f, **changes) if f.id == fighter_id else f for f in state.fighters)
    assert len(fighters) == 2
    return replace(state, fighters=fighters)


def fighter(state: DuelState, fighter_id: str) -> FighterState:
    return state.fighter(fighter_id)


def resolve(
    state: DuelState,
    a: Sequence[Action],
    a_faces: list[int],
    b: Sequence[Action],
    b_faces: list[int],
) -> Proposal:
    """Both submissions with scripted dice (per action its d10s, then a die per blow)."""
    rng_a, rng_b = ScriptedRng(a_faces), ScriptedRng(b_faces)
    sub_a, sub_b = submit(state, "a", a, rng_a), submit(state, "b", b, rng_b)
    assert rng_a.remaining == rng_b.remaining == 0
    return resolve_turn(state, sub_a, sub_b)


def steps(p: Proposal, code: str, fighter: str | None = None) -> list[Step]:
    return [s for s in p.steps if s.code == code and fighter in (None, s.fighter)]
