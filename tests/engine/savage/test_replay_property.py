"""Property: whatever commands are played, replay(log) rebuilds the state without a seed,
the log survives JSON, and undo drops exactly the last step (DESIGN.md decision 1)."""

from __future__ import annotations

import json
import random
from functools import reduce

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.savage import (
    AcceptDamage,
    ActNow,
    Attack,
    DeclareActions,
    Defend,
    DrawNewCard,
    Encounter,
    Hold,
    Interrupt,
    NextTurn,
    RuleError,
    SetCondition,
    Soak,
    Support,
    Test,
    TraitRoll,
    Unshake,
    decide_with_state,
    evolve,
    replay,
    undo,
)
from engine.savage.modifiers import LABELS

from .helpers import Game, char, group, json_round_trip, produced_labels

HERO = (
    "Ловкость d8, Дух d8, Сила d8, Выносливость d8; "
    "Драка d8, Атлетика d8, Стрельба d8, Провокация d8"
)


def _cast(game: Game) -> list[str]:
    game.add("a", char(f"Ичиго (Дикий) {HERO}; Бенни 2; Черты: Хладнокровие", "a", owner=1))
    game.add("b", char(f"Рукия (Дикий) {HERO}; Черты: Быстрый", "b", owner=2))
    game.add("c", char(f"Гриммджо (Дикий) {HERO}; Черты: Нерешительный", "c"))
    game.add("h", *group("Пустой (Статист, ×3) Драка d6, Сила d8; Черты: Стойкий", "h"))
    return ["a", "b", "c", "h-1", "h-2", "h-3"]


def _random_command(r: random.Random, ids: list[str]):  # type: ignore[no-untyped-def]
    a, t = r.choice(ids), r.choice(ids)
    return r.choice(
        [
            NextTurn(),
            NextTurn(),
            Attack(a, t, damage="str+d8", wild_attack=r.random() < 0.3),
            Attack(a, t, skill="shooting", damage="2d6", range="medium", cover="light"),
            Attack(a, t, damage="3d10", free=True),
            Hold(a),
            ActNow(a),
            Interrupt(a),
            DeclareActions(a, r.randint(1, 3)),
            Support(a, t, "fighting"),
            Test(a, t, "taunt", effect=r.choice(["distracted", "vulnerable"])),
            Soak(a),
            AcceptDamage(a),
            Unshake(a),
            Defend(a),
            DrawNewCard(a),
            TraitRoll(a, "spirit"),
            SetCondition(t, r.choice(["stunned", "entangled", "bound", "shaken"])),
        ]
    )


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9))
def test_random_fights_replay_exactly(seed: int) -> None:
    r = random.Random(seed)
    game = Game()
    ids = _cast(game)
    for _ in range(120):
        state_before, log_len = game.state, len(game.log)
        try:
            game.run(_random_command(r, ids), rng=r)
        except RuleError:
            assert game.state == state_before
            continue
        if len(game.log) > log_len:
            assert undo(game.log) == tuple(game.log[:log_len])
            assert replay(game.log[:log_len]) == state_before
    assert replay(game.log) == game.state
    assert produced_labels(game.log) <= set(LABELS)
    assert replay(json_round_trip(game.log)) == game.state
    assert Encounter.from_dict(json.loads(json.dumps(game.state.to_dict()))) == game.state
    # cards are conserved: pile + discards + cards in front of combatants = 54
    held = [c.card for c in game.state.combatants if c.card is not None]
    deck = game.state.deck
    assert len(deck.draw) + len(deck.discard) + len(held) == 54
    assert len({*deck.draw, *deck.discard, *held}) == 54


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9))
def test_the_state_decide_evolved_is_its_events_folded(seed: int) -> None:
    """The service stores the builder's working copy as the step's state (no fold again):
    it must be what folding the step's events on the state decided on gives."""
    r = random.Random(seed)
    game = Game()
    ids = _cast(game)
    for _ in range(100):
        try:
            events, after = decide_with_state(game.state, _random_command(r, ids), r)
        except RuleError:
            continue
        folded = reduce(evolve, events, game.state)
        assert after == folded
        game.state = folded
