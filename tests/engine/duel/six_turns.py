"""The six scripted turns of tests/engine/duel/test_duel.py (the test cites the seed for each
rule where it applies), shared with the tests of the descriptions and the export.

Бьорн (raider: Атака 2, Блок 1, Уклонение 0, Урон d8, Хп 24, Броня 1) against Такеда
(kensei: Атака 1, Блок 0, Уклонение 2, Урон d6, Хп 16, Броня 0). Dice are scripted per
submission in the order they are rolled: per action its d10 (two for full defense), then one
damage die per blow of an attack.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from engine.dice.rng import ScriptedRng
from engine.duel import DEFAULT_OPTIONS, KENSEI, RAIDER, Fighter, Stats
from engine.duel.actions import Action, Attack, Block, Dodge, FullDefense, Trick
from engine.duel.check import submit
from engine.duel.options import NEW_GAME_OPTIONS
from engine.duel.proposal import Proposal
from engine.duel.resolve import apply, resolve_turn
from engine.duel.state import DuelState, new_duel
from engine.services import duel as duels


async def use_the_scripts_readings(game_id: int, gm_id: int) -> None:
    """The game's readings for its next duels set to those the script's dice were written for
    (`DEFAULT_OPTIONS`, a game created before issue 26's item 8): under a new game's readings
    the scripted duel takes other turns."""
    for f in dataclasses.fields(DEFAULT_OPTIONS):
        value = getattr(DEFAULT_OPTIONS, f.name)
        if getattr(NEW_GAME_OPTIONS, f.name) != value:
            await duels.set_rule(game_id, f.name, value, actor_id=gm_id)


BJORN = Fighter("Бьорн", Stats(attack=2, block=1, dodge=0, damage_die=8, hp=24, armor=1), RAIDER)
TAKEDA = Fighter("Такеда", Stats(attack=1, block=0, dodge=2, damage_die=6, hp=16, armor=0), KENSEI)


TURNS: list[tuple[list[Action], list[int], list[Action], list[int]]] = [
    # turn 1
    (
        [Attack("left"), Block("right")], [6, 3, 3],
        [Attack("right"), Dodge("right")], [7, 4, 2],
    ),
    # turn 2
    (
        [Attack("top"), Attack("left")], [5, 6, 4, 2],
        [Trick(), Block("top")], [7, 8],
    ),
    # turn 3
    (
        [Dodge("left")], [9],
        [Attack("right"), Block("left")], [5, 2, 4],
    ),
    # turn 4
    (
        [Attack("left", move="shield_bash"), Attack("right", move="cleave")], [5, 1, 3, 2],
        [Trick(), Dodge("left")], [10, 4],
    ),
    # turn 5
    (
        [Block("left")], [6],
        [Attack("left", move="flurry")], [10, 3, 4],
    ),
    # turn 6
    (
        [Block("top")], [10],
        [Attack("top"), FullDefense("right", dodge=True)], [8, 5, 3, 6],
    ),
]  # fmt: skip


def turn(
    state: DuelState,
    a: Sequence[Action],
    a_faces: list[int],
    b: Sequence[Action],
    b_faces: list[int],
) -> Proposal:
    rng_a, rng_b = ScriptedRng(a_faces), ScriptedRng(b_faces)
    sub_a = submit(state, "a", a, rng_a)
    sub_b = submit(state, "b", b, rng_b)
    assert rng_a.remaining == rng_b.remaining == 0  # every scripted die was rolled
    return resolve_turn(state, sub_a, sub_b)


def play() -> list[tuple[DuelState, Proposal]]:
    """Every turn: the state it starts from and its proposal (applied as it is)."""
    state = new_duel(BJORN, TAKEDA)
    out = []
    for script in TURNS:
        p = turn(state, *script)
        out.append((state, p))
        state = apply(state, p)
    return out
