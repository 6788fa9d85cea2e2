"""Event log: JSON round trips, replay without an rng, undo by step (DESIGN.md decision 1)."""

from __future__ import annotations

import json
import random

from engine.savage.cards import Card
from engine.savage.chase import (
    EVENT_TYPES,
    AddParticipant,
    Bump,
    ChangePosition,
    ChaseError,
    ChaseOptions,
    ChaseState,
    Command,
    DeclareActions,
    DropBack,
    EndTurn,
    Flee,
    LayCards,
    ResolveBump,
    ResolveCriticalFailure,
    StartChase,
    StartRound,
    StartTurn,
    decide,
    event_from_dict,
    last_step,
    replay,
    undo,
)

from .helpers import CLUBS_ACTION, duel


def test_state_round_trips_through_json() -> None:
    g = duel(scale=3, round_limit=5, joker_complication="success_shift")
    g.add("gunner", "quarry", None, leader="runner", die=6, wild_card=False)
    g.turn("runner", CLUBS_ACTION, 1, 1)  # complication: critical failure pending
    data = json.loads(json.dumps(g.state.to_dict()))
    assert ChaseState.from_dict(data) == g.state
    assert ChaseOptions.from_dict(g.state.options.to_dict()) == g.state.options
    assert g.state.pending and g.state.turns


def test_every_event_kind_is_registered_and_unique() -> None:
    assert len(EVENT_TYPES) == len({cls.__name__ for cls in EVENT_TYPES.values()})
    assert all(kind for kind in EVENT_TYPES)


def test_undo_drops_every_event_of_the_last_step() -> None:
    g = duel()
    g.turn("runner")
    before = g.state
    events = g.do(ChangePosition("runner", 1), 5, 2)  # a roll and a move: two events
    assert len(events) == 2 and {e.step for e in events} == {before.step + 1}
    log = undo(g.log)
    assert len(log) == len(g.log) - 2
    assert replay(log) == before
    assert last_step(log) == before.step
    # Undo again: the turn start goes too.
    assert replay(undo(log)).turns == ()


def test_replay_from_json_needs_no_dice() -> None:
    g = duel()
    g.turn("runner", CLUBS_ACTION, 3, 2)  # Joker chase card (+2): 5, passed
    g.do(ChangePosition("runner", 1, as_action=True), 8, 2, 3)
    stored = json.dumps([e.to_dict() for e in g.log])
    assert replay(event_from_dict(d) for d in json.loads(stored)) == g.state


def _random_command(rng: random.Random, state: ChaseState) -> Command:
    ids = [p.id for p in state.participants]
    pid = rng.choice(ids)
    other = rng.choice(ids)
    pending = [x.id for x in state.pending] or ["none"]
    d = rng.choice((1, -1))
    return rng.choice(
        [
            StartRound(),
            StartTurn(pid, Card(rng.randint(2, 14), rng.choice(("clubs", "spades", "hearts")))),
            StartTurn(pid, Card(15, "red")),
            EndTurn(pid),
            DeclareActions(pid, rng.randint(1, 3)),
            ChangePosition(pid, d, as_action=rng.random() < 0.5),
            DropBack(pid, rng.randint(1, 2)),
            Bump(pid, other, d),
            Flee(pid),
            ResolveBump(rng.choice(pending), d, rng.randint(0, 2), rng.choice([None, other])),
            ResolveCriticalFailure(rng.choice(pending), rng.choice(("lose_turn", "fatigue"))),
            LayCards(1),
        ]
    )


def test_random_play_replays_and_round_trips() -> None:
    """Seeded random commands: refused ones raise ChaseError only; accepted ones keep the
    log replayable, JSON-safe and undoable."""
    for seed in range(20):
        rng = random.Random(seed)
        state = ChaseState()
        log = list(decide(state, StartChase(ChaseOptions(round_limit=6)), rng))
        state = replay(log)
        for i, (pid, side, movement) in enumerate(
            [("a", "quarry", "foot"), ("b", "quarry", "driving"), ("c", "pursuers", "foot")]
        ):
            events = decide(state, AddParticipant(pid, side, i * 3, movement=movement), rng)
            log += events
            state = replay(events, state)
        accepted = 0
        for _ in range(150):
            if state.ended:
                break
            before = state
            try:
                events = decide(state, _random_command(rng, state), rng)
            except ChaseError:
                continue
            accepted += 1
            log += events
            state = replay(events, state)
            assert all(0 <= p.position < len(state.row) for p in state.participants)
            assert replay(undo(log)) == before
        assert accepted > 10
        assert replay(log) == state
        assert ChaseState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
        assert [event_from_dict(json.loads(json.dumps(e.to_dict()))) for e in log] == log
