"""Fighters and duels for the duel engine's tests."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.duel import KENSEI, OROCHI, RAIDER, Fighter, Stats
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
