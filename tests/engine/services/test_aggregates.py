"""The event-sourced aggregate store, driven by a toy deck whose decide draws random numbers."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

import pytest
from pypika_tortoise import PostgreSQLQuery, SQLLiteQuery
from tortoise import timezone
from tortoise.backends.asyncpg.executor import AsyncpgExecutor
from tortoise.backends.sqlite.executor import SqliteExecutor

from engine import services
from engine.services import aggregates as agg
from engine.services.aggregates import log as agg_log
from engine.services.aggregates import sql as agg_sql
from engine.services.aggregates import states as agg_states
from engine.services.aggregates import unit as agg_unit
from engine.store.db import close_db, init_db
from engine.store.models import Stream, StreamCheckpoint, StreamEvent, StreamSnapshot
from tests.conftest import DB_BACKEND
from tests.engine.services.conftest import CHAT, GM

KEY = "deck:1"

# The game's lock and its read (engine/services/aggregates/game_lock.py): one UPDATE …
# RETURNING on SQLite; on PostgreSQL the row lock, then the read.
LOCK = ["SELECT", "SELECT"] if DB_BACKEND == "postgres" else ["UPDATE"]


# --- the toy aggregate -------------------------------------------------------------------


@dataclass(frozen=True)
class Drawn:
    value: int  # drawn by decide and stored, so replays need no rng
    seen: int  # draws in the state decide looked at: exposes decisions on a stale state

    def to_dict(self) -> dict[str, Any]:
        return {"type": "Drawn", "value": self.value, "seen": self.seen}

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Drawn:
        return Drawn(value=d["value"], seen=d["seen"])


@dataclass(frozen=True)
class Deck:
    label: str = ""
    draws: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "draws": list(self.draws)}

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Deck:
        return Deck(label=d["label"], draws=tuple(d["draws"]))


class DeckFull(Exception):
    pass


def _initial(params: Mapping[str, Any]) -> Deck:
    return Deck(label=str(params.get("label", "")))


def _evolve(state: Deck, event: Drawn) -> Deck:
    return replace(state, draws=(*state.draws, event.value))


def make_deck(**options: Any) -> agg.Aggregate[Deck, Drawn]:
    fields: dict[str, Any] = {
        "name": "deck",
        "initial": _initial,
        "evolve": _evolve,
        "event_to_dict": Drawn.to_dict,
        "event_from_dict": Drawn.from_dict,
        "state_to_dict": Deck.to_dict,
        "state_from_dict": Deck.from_dict,
    }
    return agg.Aggregate(**(fields | options))


DECK = make_deck()


def draw(rng: random.Random, n: int = 1, *, limit: int = 100) -> Callable[[Deck], list[Drawn]]:
    """The pure decide of a command "draw n cards", closed over its rng."""

    def decide(state: Deck) -> list[Drawn]:
        if len(state.draws) + n > limit:
            raise DeckFull
        return [Drawn(rng.randint(1, 1000), len(state.draws) + i) for i in range(n)]

    return decide


async def run(decide: Callable[[Deck], list[Drawn]], key: str = KEY, game_id: int = 0) -> Any:
    return await agg.execute(DECK, game_id, key, decide, actor_id=GM)


def full_replay(steps: list[agg.Step], aggregate: agg.Aggregate[Deck, Drawn] = DECK) -> Deck:
    """Replay the history by hand: command steps not taken back by an undo."""
    events = [
        aggregate.event_from_dict(e)
        for s in steps
        if s.kind == "command" and s.undone_by is None
        for e in s.events
    ]
    return aggregate.replay(events)


# --- execute / load ----------------------------------------------------------------------


async def test_execute_appends_steps_and_load_equals_replay(game: services.GameInfo) -> None:
    rng, twin = random.Random(7), random.Random(7)
    first = await agg.execute(DECK, game.id, KEY, draw(rng, 2), actor_id=GM, params={"label": "A"})
    assert (first.step_id, first.seq, first.attempts) == (1, 2, 1)
    assert first.events == (Drawn(twin.randint(1, 1000), 0), Drawn(twin.randint(1, 1000), 1))
    second = await agg.execute(DECK, game.id, KEY, draw(rng), actor_id=None, params={"label": "B"})
    assert (second.step_id, second.seq) == (2, 3)
    assert second.state == Deck("A", (*first.state.draws, twin.randint(1, 1000)))  # params kept

    assert await agg.load(DECK, game.id, KEY) == (second.state, 3)
    assert await agg.load(DECK, game.id, KEY, rebuild=True) == (second.state, 3)
    steps = await agg.history(game.id, KEY)
    assert [(s.step, s.kind, s.actor_id, s.first_seq, s.last_seq) for s in steps] == [
        (1, "command", GM, 1, 2),
        (2, "command", None, 3, 3),
    ]
    assert steps[0].events[0] == {"type": "Drawn", "value": first.events[0].value, "seen": 0}
    assert replace(full_replay(steps), label="A") == second.state


async def test_an_unknown_stream_is_the_initial_state(game: services.GameInfo) -> None:
    assert await agg.load(DECK, game.id, "deck:9") == (Deck(), 0)
    assert await agg.history(game.id, "deck:9") == []
    with pytest.raises(services.NoGame):
        await agg.load(DECK, 404, KEY)
    with pytest.raises(services.NoGame):
        await agg.execute(DECK, 404, KEY, draw(random.Random(1)), actor_id=GM)


async def test_state_survives_a_restart(db_url: str) -> None:
    ctx = await init_db(db_url)
    try:
        await services.touch_user(GM, "Мастер")
        game = await services.create_game(
            chat_id=CHAT, topic_id=None, system="savage", name="g", creator_id=GM
        )
        rng = random.Random(3)
        for n in (1, 3, 2):
            await agg.execute(DECK, game.id, KEY, draw(rng, n), actor_id=GM)
        await agg.undo_last_step(DECK, game.id, KEY, actor_id=GM)
        before = await agg.load(DECK, game.id, KEY)
        steps_before = await agg.history(game.id, KEY)
    finally:
        await close_db(ctx)

    ctx = await init_db(db_url)
    try:
        assert await agg.load(DECK, game.id, KEY) == before
        assert await agg.load(DECK, game.id, KEY, rebuild=True) == before
        assert await agg.history(game.id, KEY) == steps_before
        assert before[0] == full_replay(steps_before) and before[1] == 7  # 6 draws + 1 undo
        after = await agg.execute(DECK, game.id, KEY, draw(random.Random(4)), actor_id=GM)
        assert after.state.draws[:-1] == before[0].draws and after.step_id == 5
    finally:
        await close_db(ctx)


async def test_empty_decision_writes_nothing(game: services.GameInfo) -> None:
    result = await run(lambda state: [], game_id=game.id)
    assert (result.events, result.step_id, result.seq) == ((), None, 0)
    assert not await Stream.exists(game_id=game.id)


async def test_a_decide_that_raises_writes_nothing(game: services.GameInfo) -> None:
    rng = random.Random(5)
    with pytest.raises(DeckFull):  # on a new stream: not even the stream row
        await run(draw(rng, 3, limit=2), game_id=game.id)
    assert not await Stream.exists(game_id=game.id)

    await run(draw(rng, 2), game_id=game.id)
    before = (await agg.load(DECK, game.id, KEY), await agg.history(game.id, KEY))
    with pytest.raises(DeckFull):
        await run(draw(rng, 1, limit=2), game_id=game.id)
    assert (await agg.load(DECK, game.id, KEY), await agg.history(game.id, KEY)) == before
    assert (await Stream.get(game_id=game.id, key=KEY)).head_seq == 2


async def test_a_reserved_event_type_is_refused(game: services.GameInfo) -> None:
    bad = make_deck(event_to_dict=lambda e: {"type": "$undo", "step": 1})
    with pytest.raises(ValueError, match="reserved"):
        await agg.execute(bad, game.id, KEY, draw(random.Random(1)), actor_id=GM)
    assert not await StreamEvent.exists()


# --- concurrency -------------------------------------------------------------------------


async def test_concurrent_executes_all_apply_in_sequence(game: services.GameInfo) -> None:
    """Five simultaneous commands, on a new stream (creation race) and then on an existing
    one: every command is applied, each decided on the state left by the previous one."""
    for round_ in range(2):
        rngs = [random.Random(i) for i in range(5)]
        results = await asyncio.gather(*(run(draw(r), game_id=game.id) for r in rngs))
        state, seq = await agg.load(DECK, game.id, KEY)
        assert seq == 5 * (round_ + 1) and len(state.draws) == seq
        seen = sorted(e.seen for r in results for e in r.events)
        assert seen == list(range(5 * round_, 5 * (round_ + 1)))  # never two on one state
        assert sorted(r.step_id for r in results) == list(range(5 * round_ + 1, seq + 1))
    logged = [Drawn.from_dict(e) for s in await agg.history(game.id, KEY) for e in s.events]
    assert [e.seen for e in logged] == list(range(10))
    assert state == full_replay(await agg.history(game.id, KEY))


async def test_a_decision_on_a_stale_state_is_rejected_and_retried(
    game: services.GameInfo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Force what a lost race looks like: the first attempt reads the state as it was
    before the last step. The conditional head update must refuse it; decide runs again."""
    await run(draw(random.Random(1)), game_id=game.id)
    real_read = agg_unit.view_at
    calls = 0

    async def stale_once(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        view = await real_read(*args, **kwargs)
        return replace(view, state=Deck(), seq=0, step=0) if calls == 1 else view

    monkeypatch.setattr(agg_unit, "view_at", stale_once)
    decided: list[int] = []

    def decide(state: Deck) -> list[Drawn]:
        decided.append(len(state.draws))
        return [Drawn(50, len(state.draws))]

    result = await run(decide, game_id=game.id)
    assert decided == [0, 1] and result.attempts == 2
    assert (result.seq, result.step_id, result.events) == (2, 2, (Drawn(50, 1),))
    steps = await agg.history(game.id, KEY)
    assert [[e["seen"] for e in s.events] for s in steps] == [[0], [1]]


async def test_retries_are_bounded(
    game: services.GameInfo, monkeypatch: pytest.MonkeyPatch
) -> None:
    await run(draw(random.Random(1)), game_id=game.id)
    real_read = agg_unit.view_at

    async def always_stale(*args: Any, **kwargs: Any) -> Any:
        return replace(await real_read(*args, **kwargs), seq=0, step=0)

    monkeypatch.setattr(agg_unit, "view_at", always_stale)
    calls: list[Deck] = []

    def decide(state: Deck) -> list[Drawn]:
        calls.append(state)
        return [Drawn(1, 0)]

    with pytest.raises(services.EventConflict) as conflict:
        await agg.execute(DECK, game.id, KEY, decide, actor_id=GM, max_retries=2)
    assert conflict.value.code == "event_conflict" and len(calls) == 3
    assert (await Stream.get(game_id=game.id, key=KEY)).head_seq == 1
    assert await StreamEvent.all().count() == 1


async def test_the_log_rejects_a_second_event_at_the_same_seq(game: services.GameInfo) -> None:
    """The UNIQUE (stream, seq) constraint backs the conditional update up."""
    from tortoise.exceptions import IntegrityError

    await run(draw(random.Random(1)), game_id=game.id)
    stream = await Stream.get(game_id=game.id, key=KEY)
    with pytest.raises(IntegrityError):
        await StreamEvent.create(stream_id=stream.id, seq=1, step=2, type="Drawn", payload={})


# --- snapshots ---------------------------------------------------------------------------


async def test_snapshot_plus_tail_equals_full_replay(game: services.GameInfo) -> None:
    deck = make_deck(snapshot_every=3)
    rng = random.Random(11)
    for _ in range(7):
        await agg.execute(deck, game.id, KEY, draw(rng), actor_id=GM)
    snap = await StreamSnapshot.get(stream__key=KEY)
    assert snap.seq == 6  # written at 3 and 6; seq 7 is the tail
    state, seq = await agg.load(deck, game.id, KEY)
    assert seq == 7 and len(state.draws) == 7
    assert (state, seq) == await agg.load(deck, game.id, KEY, rebuild=True)
    assert state == full_replay(await agg.history(game.id, KEY), deck)
    assert Deck.from_dict(snap.state).draws == state.draws[:6]


async def test_snapshot_is_used_while_its_version_matches(game: services.GameInfo) -> None:
    rng = random.Random(2)
    for _ in range(3):
        await run(draw(rng), game_id=game.id)
    truth = await agg.load(DECK, game.id, KEY)
    # Each read after tampering is a fresh process's: the states this one kept are dropped.
    kept = agg_states.current_states()
    # Tamper with the cache: proves `load` reads it (and not only the log) ...
    await StreamSnapshot.filter(stream__key=KEY).update(state={"label": "X", "draws": [1]})
    kept.clear()
    assert await agg.load(DECK, game.id, KEY) == (Deck("X", (1,)), 3)
    # ... and that a version mismatch makes the log win, and the next write repairs it.
    await StreamSnapshot.filter(stream__key=KEY).update(version=DECK.version + 1)
    kept.clear()
    assert await agg.load(DECK, game.id, KEY) == truth
    await StreamSnapshot.filter(stream__key=KEY).update(state={"broken": True}, version=1)
    kept.clear()
    assert await agg.load(DECK, game.id, KEY) == truth  # unreadable: rebuilt too
    v2 = make_deck(version=2, snapshot_every=1000)  # a new state format
    assert await agg.load(v2, game.id, KEY) == truth
    after = await agg.execute(v2, game.id, KEY, draw(rng), actor_id=GM)
    snap = await StreamSnapshot.get(stream__key=KEY)
    assert (snap.version, snap.seq, Deck.from_dict(snap.state)) == (2, 4, after.state)


async def test_an_undo_in_the_tail_forces_a_rebuild(game: services.GameInfo) -> None:
    deck = make_deck(snapshot_every=2)
    rng = random.Random(8)
    for _ in range(2):
        await agg.execute(deck, game.id, KEY, draw(rng), actor_id=GM)
    old = await StreamSnapshot.get(stream__key=KEY)
    assert old.seq == 2
    await agg.execute(deck, game.id, KEY, draw(rng), actor_id=GM)
    undo = await agg.undo_last_step(deck, game.id, KEY, actor_id=GM)
    # Put the older (still valid) snapshot back: its tail is [Drawn, $undo of that step].
    await StreamSnapshot.filter(id=old.id).update(seq=old.seq, state=old.state)
    assert await agg.load(deck, game.id, KEY) == (undo.state, 4)
    assert len(undo.state.draws) == 2


# --- undo --------------------------------------------------------------------------------


async def test_undo_walks_back_and_is_logged(game: services.GameInfo) -> None:
    rng = random.Random(9)
    states = [(await run(draw(rng, n), game_id=game.id)).state for n in (1, 2, 1)]

    first = await agg.undo_last_step(DECK, game.id, KEY, actor_id=GM)
    assert (first.undone_step, first.step_id, first.seq, first.state) == (3, 4, 5, states[1])
    assert first.undone_events == (Drawn(states[2].draws[-1], 3),)
    second = await agg.undo_last_step(DECK, game.id, KEY, actor_id=GM, expected_step=2)
    assert (second.undone_step, second.step_id, second.seq, second.state) == (2, 5, 6, states[0])
    assert await agg.load(DECK, game.id, KEY) == (states[0], 6)
    assert await agg.load(DECK, game.id, KEY, rebuild=True) == (states[0], 6)

    steps = await agg.history(game.id, KEY)
    assert [(s.step, s.kind, s.undoes, s.undone_by) for s in steps] == [
        (1, "command", None, None),
        (2, "command", None, 5),
        (3, "command", None, 4),
        (4, "undo", 3, None),
        (5, "undo", 2, None),
    ]
    assert steps[3].events == ({"step": 3},) and steps[3].actor_id == GM

    # No redo: a new command continues from the undone state; undo then takes it back.
    new = await run(draw(rng), game_id=game.id)
    assert new.state.draws[:-1] == states[0].draws and new.events[0].seen == 1
    third = await agg.undo_last_step(DECK, game.id, KEY, actor_id=GM)
    assert (third.undone_step, third.state) == (6, states[0])
    assert full_replay(await agg.history(game.id, KEY)) == states[0]


async def test_steps_caused_by_another_streams_step_are_undone_with_it(
    game: services.GameInfo,
) -> None:
    rng = random.Random(11)
    cause, other = {"stream": "fight:1", "step": 7}, {"stream": "fight:1", "step": 8}
    plain = await run(draw(rng), game_id=game.id)
    caused = [
        await agg.execute(DECK, game.id, KEY, draw(rng, n), actor_id=GM, cause=cause)
        for n in (2, 1)
    ]
    assert caused[-1].seq == 1 + 3 + 2  # each caused step ends with its $cause marker
    # the marker is no event: state, snapshots and replays ignore it; history shows it
    assert await agg.load(DECK, game.id, KEY) == (caused[-1].state, caused[-1].seq)
    assert (await agg.load(DECK, game.id, KEY, rebuild=True))[0] == caused[-1].state
    steps = await agg.history(game.id, KEY)
    assert [s.cause for s in steps] == [None, cause, cause]
    assert all(e["type"] == "Drawn" for s in steps for e in s.events)
    assert full_replay(steps) == caused[-1].state

    lazy = make_deck(snapshot_every=100)  # the snapshot stays behind: markers in the tail
    tail = await agg.execute(lazy, game.id, KEY, draw(rng), actor_id=GM, cause=other)
    assert await agg.load(lazy, game.id, KEY) == (tail.state, tail.seq)
    await agg.undo_last_step(lazy, game.id, KEY, actor_id=GM)
    assert await agg.undo_caused(DECK, game.id, KEY, other, actor_id=GM) == []
    undone = await agg.undo_caused(DECK, game.id, KEY, cause, actor_id=GM)
    assert [u.undone_step for u in undone] == [3, 2]  # newest first, then stops at step 1
    assert await agg.load(DECK, game.id, KEY) == (plain.state, undone[-1].seq)


async def test_a_step_made_since_stops_the_undo_of_caused_steps(
    game: services.GameInfo,
) -> None:
    rng, cause = random.Random(12), {"stream": "fight:1", "step": 1}
    first = await agg.execute(DECK, game.id, KEY, draw(rng), actor_id=GM, cause=cause)
    since = await run(draw(rng), game_id=game.id)  # somebody's own step came after it
    assert await agg.undo_caused(DECK, game.id, KEY, cause, actor_id=GM) == []
    assert await agg.load(DECK, game.id, KEY) == (since.state, since.seq)
    assert first.state.draws == since.state.draws[:1]


async def test_nothing_to_undo(game: services.GameInfo) -> None:
    with pytest.raises(services.NothingToUndo) as empty:
        await agg.undo_last_step(DECK, game.id, KEY, actor_id=GM)
    assert empty.value.code == "nothing_to_undo"
    await run(draw(random.Random(1)), game_id=game.id)
    await agg.undo_last_step(DECK, game.id, KEY, actor_id=GM)
    with pytest.raises(services.NothingToUndo):
        await agg.undo_last_step(DECK, game.id, KEY, actor_id=GM)
    assert [s.kind for s in await agg.history(game.id, KEY)] == ["command", "undo"]
    assert await agg.load(DECK, game.id, KEY) == (Deck(), 2)


async def test_undo_of_a_step_that_is_no_longer_last_is_refused(
    game: services.GameInfo,
) -> None:
    """Two GMs click "undo" on the same screen: only one step goes."""
    rng = random.Random(4)
    await run(draw(rng), game_id=game.id)
    await run(draw(rng), game_id=game.id)
    results = await asyncio.gather(
        *(agg.undo_last_step(DECK, game.id, KEY, actor_id=GM, expected_step=2) for _ in "ab"),
        return_exceptions=True,
    )
    assert sorted(type(r).__name__ for r in results) == ["EventConflict", "UndoResult"]
    assert [s.undone_by for s in await agg.history(game.id, KEY)][:2] == [None, 3]


# --- history ---------------------------------------------------------------------------


async def test_a_bounded_history_is_the_end_of_the_full_one(game: services.GameInfo) -> None:
    rng = random.Random(28)
    for n in (1, 2, 1, 3):
        await run(draw(rng, n), game_id=game.id)
    await agg.undo_last_step(DECK, game.id, KEY, actor_id=GM)  # step 5 undoes step 4
    await agg.execute(DECK, game.id, KEY, draw(rng), actor_id=GM, cause={"by": 1})
    full = await agg.history(game.id, KEY)
    assert [s.step for s in full] == [1, 2, 3, 4, 5, 6]
    for last in (0, 1, 2, 3, 6, 10):
        assert await agg.history(game.id, KEY, last=last) == full[len(full) - min(last, 6) :]
    assert await agg.history(game.id, KEY, after=2) == full[2:]
    assert await agg.history(game.id, KEY, after=2, last=2) == full[4:]
    assert await agg.history(game.id, KEY, after=6) == []
    window = await agg.history(game.id, KEY, last=3)
    assert [(s.step, s.undone_by, s.undoes, s.cause) for s in window] == [
        (4, 5, None, None),  # its undo is newer, so always in the range
        (5, None, 4, None),
        (6, None, None, {"by": 1}),
    ]
    assert await agg.history(game.id, "deck:9", last=3) == []
    with pytest.raises(ValueError):
        await agg.history(game.id, KEY, last=-1)
    with pytest.raises(services.NoGame):
        await agg.history(404, KEY, last=3)


async def test_history_reads_what_the_models_read(game: services.GameInfo) -> None:
    """History goes by plain SQL: its times, actors and payloads are the ORM's."""
    await run(draw(random.Random(29), 2), game_id=game.id)
    await agg.execute(DECK, game.id, KEY, draw(random.Random(30)), actor_id=None)
    rows = await StreamEvent.filter(stream__key=KEY).order_by("seq")
    steps = await agg.history(game.id, KEY)
    assert [(s.created_at, s.actor_id) for s in steps] == [
        (rows[0].created_at, GM),
        (rows[2].created_at, None),
    ]
    assert steps[0].created_at.tzinfo is not None
    assert [e for s in steps for e in s.events] == [r.payload for r in rows]


# --- undo from checkpoints ---------------------------------------------------------------


async def test_undo_equals_a_full_replay_after_many_steps(
    game: services.GameInfo,
) -> None:
    """Random commands, caused steps, single undos and walks of several undos (crossing
    checkpoints every 3 steps, and undos of steps older checkpoints include): every undo's
    state is the full replay of the kept steps, `load` agrees, and a model of the rules
    (newest command step not undone, no redo) picks the same step."""
    deck = make_deck(checkpoint_every=3, snapshot_every=2)
    rng, dice = random.Random(21), random.Random(22)
    model: list[tuple[int, tuple[int, ...], dict[str, Any] | None]] = []  # kept command steps
    step = undos = 0
    for i in range(160):
        roll = dice.random()
        if roll < 0.55 or not model:
            cause = {"stream": "fight:1", "step": i} if dice.random() < 0.2 else None
            n = dice.randint(1, 3)
            done = await agg.execute(
                deck, game.id, KEY, draw(rng, n, limit=10_000), actor_id=GM, cause=cause
            )
            step += 1
            model.append((step, tuple(e.value for e in done.events), cause))
            continue
        walk = 1 if roll < 0.8 else dice.randint(2, 6)
        for _ in range(min(walk, len(model))):
            last, values, cause = model[-1]
            if cause is not None and dice.random() < 0.5:
                undone = await agg.undo_caused(deck, game.id, KEY, cause, actor_id=GM)
                assert [u.undone_step for u in undone] == [last]  # one step per cause here
                result = undone[-1]
            else:
                result = await agg.undo_last_step(
                    deck, game.id, KEY, actor_id=GM, expected_step=last
                )
            step += 1
            undos += 1
            model.pop()
            assert result.undone_step == last and result.step_id == step
            assert tuple(e.value for e in result.undone_events) == values
            truth = await agg.load(deck, game.id, KEY, rebuild=True)
            assert (result.state, result.seq) == truth
            assert result.state.draws == tuple(v for _, vs, _ in model for v in vs)
            assert await agg.load(deck, game.id, KEY) == truth
    assert undos > 40 and await StreamCheckpoint.filter(stream__key=KEY).count() > 40
    state, _ = await agg.load(deck, game.id, KEY, rebuild=True)
    assert state.draws == tuple(v for _, vs, _ in model for v in vs)
    assert full_replay(await agg.history(game.id, KEY), deck) == state


async def test_undo_past_a_checkpoint_an_undo_made_stale(game: services.GameInfo) -> None:
    """The checkpoint at step 5 includes steps 4 and 5, taken back by the undos at steps
    6 and 7: undoing step 9 must start from an older checkpoint (or the start)."""
    deck = make_deck(checkpoint_every=5)
    rng = random.Random(23)
    for _ in range(5):
        await agg.execute(deck, game.id, KEY, draw(rng), actor_id=GM)
    for _ in range(2):
        await agg.undo_last_step(deck, game.id, KEY, actor_id=GM)
    for _ in range(2):
        await agg.execute(deck, game.id, KEY, draw(rng), actor_id=GM)
    points = await StreamCheckpoint.filter(stream__key=KEY).order_by("seq")
    assert [(p.seq, p.step) for p in points] == [(5, 5)]
    undo = await agg.undo_last_step(deck, game.id, KEY, actor_id=GM, expected_step=9)
    truth = await agg.load(deck, game.id, KEY, rebuild=True)
    assert (undo.state, undo.seq) == truth and len(undo.state.draws) == 4  # 1, 2, 3 and 8
    # walking on back over the start, across the checkpoints the walk itself wrote
    for expected in (8, 3, 2, 1):
        undo = await agg.undo_last_step(deck, game.id, KEY, actor_id=GM)
        assert undo.undone_step == expected
        assert (undo.state, undo.seq) == await agg.load(deck, game.id, KEY, rebuild=True)
    assert undo.state == Deck()
    with pytest.raises(services.NothingToUndo):
        await agg.undo_last_step(deck, game.id, KEY, actor_id=GM)


async def test_an_undo_reads_the_log_back_to_a_checkpoint_only(
    game: services.GameInfo,
) -> None:
    """Tamper with the log before the checkpoint and with the checkpoint: the undo shows
    both are what it read (the checkpoint's state, none of the older events), while a
    rebuild replays the log."""
    deck = make_deck(checkpoint_every=4)
    rng = random.Random(24)
    for _ in range(6):
        await agg.execute(deck, game.id, KEY, draw(rng), actor_id=GM)
    stream = await Stream.get(game_id=game.id, key=KEY)
    await StreamEvent.filter(stream_id=stream.id, seq=1).update(
        payload={"type": "Drawn", "value": -1, "seen": 0}
    )
    point = await StreamCheckpoint.get(stream_id=stream.id)
    assert (point.seq, point.step, point.version) == (4, 4, 1)
    await StreamCheckpoint.filter(id=point.id).update(state={"label": "cp", "draws": [7, 7, 7, 7]})
    undo = await agg.undo_last_step(deck, game.id, KEY, actor_id=GM)
    fifth = (await agg.history(game.id, KEY))[4].events[0]["value"]
    assert undo.state == Deck("cp", (7, 7, 7, 7, fifth))
    assert (await agg.load(deck, game.id, KEY, rebuild=True))[0].draws[0] == -1


async def test_a_checkpoint_of_another_version_is_never_used(game: services.GameInfo) -> None:
    rng = random.Random(25)
    deck = make_deck(checkpoint_every=2)
    for _ in range(5):
        await agg.execute(deck, game.id, KEY, draw(rng), actor_id=GM)
    # wrong states in every checkpoint: reading one would show
    await StreamCheckpoint.filter(stream__key=KEY).update(state={"label": "X", "draws": []})
    v2 = make_deck(version=2, checkpoint_every=2)  # a new state format
    undo = await agg.undo_last_step(v2, game.id, KEY, actor_id=GM)
    assert (undo.state, undo.seq) == await agg.load(v2, game.id, KEY, rebuild=True)
    assert len(undo.state.draws) == 4
    # an unreadable checkpoint of the right version is ignored too
    await StreamCheckpoint.filter(stream__key=KEY).update(state={"broken": True})
    undo = await agg.undo_last_step(deck, game.id, KEY, actor_id=GM)
    assert (undo.state, undo.seq) == await agg.load(deck, game.id, KEY, rebuild=True)
    assert len(undo.state.draws) == 3
    # the undo steps wrote checkpoints of their own version (step 6 of v2)
    points = await StreamCheckpoint.filter(stream__key=KEY).order_by("seq")
    assert [(p.step, p.version) for p in points] == [(2, 1), (4, 1), (6, 2)]


async def test_a_checkpoint_off_a_step_boundary_is_never_used(game: services.GameInfo) -> None:
    deck = make_deck(checkpoint_every=2)
    rng = random.Random(26)
    for n in (2, 2, 1):
        await agg.execute(deck, game.id, KEY, draw(rng, n), actor_id=GM)
    # claims to end step 2 at seq 3, inside step 2 (seqs 3-4): not this log's
    await StreamCheckpoint.filter(stream__key=KEY).update(seq=3, state={"label": "X", "draws": []})
    undo = await agg.undo_last_step(deck, game.id, KEY, actor_id=GM)
    assert (undo.state, undo.seq) == await agg.load(deck, game.id, KEY, rebuild=True)
    assert len(undo.state.draws) == 4


async def test_an_undo_is_seven_statements_however_long_the_log(
    game: services.GameInfo, caplog: pytest.LogCaptureFixture
) -> None:
    """The execute's five plus the checkpoint SELECT and one SELECT of the events since (the
    snapshot is an upsert); the SELECT's range starts at the checkpoint, not at the start
    of the log."""
    deck = make_deck(checkpoint_every=10)
    rng = random.Random(27)
    for _ in range(43):
        await agg.execute(deck, game.id, KEY, draw(rng, 2), actor_id=GM)
    with caplog.at_level(logging.DEBUG, logger="tortoise.db_client"):
        undo = await agg.undo_last_step(deck, game.id, KEY, actor_id=GM)
    statements = [r.getMessage().split()[0].upper() for r in caplog.records]
    assert statements == [*LOCK, "SELECT", "SELECT", "SELECT", "UPDATE", "INSERT", "INSERT"]
    events = next(r.getMessage() for r in caplog.records if "FROM stream_events" in r.getMessage())
    assert "80, 86" in events  # seq > 80 (the checkpoint after step 40) up to the head
    assert (undo.state, undo.seq) == await agg.load(deck, game.id, KEY, rebuild=True)


# --- streams -----------------------------------------------------------------------------


async def test_open_list_close_streams(game: services.GameInfo) -> None:
    assert await agg.active_stream(game.id, "deck") is None
    one = await agg.open_stream(DECK, game.id, params={"label": "first"})
    two = await agg.open_stream(DECK, game.id, kind="deck")
    other = await agg.open_stream(DECK, game.id, kind="chase")
    assert (one.key, two.key, other.key) == ("deck:1", "deck:2", "chase:1")
    assert (await agg.active_stream(game.id, "deck")).key == "deck:2"  # type: ignore[union-attr]

    await run(draw(random.Random(1)), key="deck:1", game_id=game.id)
    assert (await agg.load(DECK, game.id, "deck:1"))[0].label == "first"
    closed = await agg.close_stream(DECK, game.id, "deck:2")
    assert closed is not None and closed.closed
    assert (await agg.active_stream(game.id, "deck")).key == "deck:1"  # type: ignore[union-attr]
    assert [s.key for s in await agg.list_streams(game.id, "deck")] == ["deck:1", "deck:2"]
    assert [s.key for s in await agg.list_streams(game.id, include_closed=False)] == [
        "deck:1",
        "chase:1",
    ]
    assert await agg.close_stream(DECK, game.id, "deck:7") is None
    with pytest.raises(services.StreamClosed):
        await run(draw(random.Random(1)), key="deck:2", game_id=game.id)
    with pytest.raises(services.StreamClosed):
        await agg.undo_last_step(DECK, game.id, "deck:2", actor_id=GM)


async def test_concurrent_opens_get_distinct_numbers(game: services.GameInfo) -> None:
    opened = await asyncio.gather(*(agg.open_stream(DECK, game.id) for _ in range(3)))
    assert sorted(s.key for s in opened) == ["deck:1", "deck:2", "deck:3"]


async def test_a_stream_belongs_to_one_aggregate(game: services.GameInfo) -> None:
    await run(draw(random.Random(1)), game_id=game.id)
    other = make_deck(name="chase")
    with pytest.raises(services.WrongAggregate) as wrong:
        await agg.execute(other, game.id, KEY, draw(random.Random(1)), actor_id=GM)
    assert wrong.value.code == "wrong_aggregate"
    with pytest.raises(services.WrongAggregate):
        await agg.load(other, game.id, KEY)
    with pytest.raises(services.WrongAggregate):
        await agg.undo_last_step(other, game.id, KEY, actor_id=GM)


async def test_an_ended_game_is_read_only(game: services.GameInfo) -> None:
    await run(draw(random.Random(1)), game_id=game.id)
    await services.end_game(game.id, actor_id=GM)
    with pytest.raises(services.GameEnded):
        await run(draw(random.Random(1)), game_id=game.id)
    with pytest.raises(services.GameEnded):
        await agg.undo_last_step(DECK, game.id, KEY, actor_id=GM)
    assert (await agg.load(DECK, game.id, KEY))[1] == 1


# --- the SQL path ------------------------------------------------------------------------


def test_statements_are_rendered_in_each_drivers_placeholder_style() -> None:
    @dataclass
    class Conn:
        executor_class: Any
        query_class: Any

    text = "UPDATE t SET a = ? WHERE id = ? AND b = ?"
    sqlite = Conn(SqliteExecutor, SQLLiteQuery)
    postgres = Conn(AsyncpgExecutor, PostgreSQLQuery)
    assert agg_sql.sql(sqlite, text) == text  # type: ignore[arg-type]
    assert agg_sql.sql(postgres, text) == "UPDATE t SET a = $1 WHERE id = $2 AND b = $3"  # type: ignore[arg-type]


async def test_rows_written_in_sql_read_back_through_the_models(
    game: services.GameInfo, db_backend: str
) -> None:
    """The raw INSERT/UPDATEs write what the ORM reads: JSON (non-ASCII too), a 64-bit
    actor id, aware timestamps, the head and the snapshot. Runs on both backends."""
    deck = make_deck(
        event_to_dict=lambda e: {**e.to_dict(), "note": "Кости «д6»", "nested": {"a": [1, None]}}
    )
    start = timezone.now()
    first = await agg.execute(deck, game.id, KEY, draw(random.Random(1), 3), actor_id=GM)
    second = await agg.execute(deck, game.id, KEY, draw(random.Random(2)), actor_id=None)
    assert agg_sql.connection().capabilities.dialect == db_backend

    stream = await Stream.get(game_id=game.id, key=KEY)
    assert (stream.head_seq, stream.head_step, stream.aggregate) == (4, 2, "deck")
    assert stream.updated_at >= stream.created_at >= start - timedelta(seconds=5)
    rows = await StreamEvent.filter(stream_id=stream.id).order_by("seq")
    assert [(r.seq, r.step, r.type, r.actor_id) for r in rows] == [
        (1, 1, "Drawn", GM),
        (2, 1, "Drawn", GM),
        (3, 1, "Drawn", GM),
        (4, 2, "Drawn", None),
    ]
    events = (*first.events, *second.events)
    for row, event in zip(rows, events, strict=True):
        assert row.payload == {**event.to_dict(), "note": "Кости «д6»", "nested": {"a": [1, None]}}
        assert row.created_at.tzinfo is not None
        assert abs(row.created_at - timezone.now()) < timedelta(minutes=1)
    assert len({r.created_at for r in rows[:3]}) == 1  # one step, one time
    snap = await StreamSnapshot.get(stream_id=stream.id)
    assert (snap.seq, snap.version, snap.state) == (4, 1, second.state.to_dict())
    assert snap.updated_at.tzinfo is not None
    assert await agg.load(deck, game.id, KEY, rebuild=True) == (second.state, 4)


async def test_a_warm_execute_is_five_statements(
    game: services.GameInfo, caplog: pytest.LogCaptureFixture
) -> None:
    """The game row locked and read (`LOCK`: one UPDATE … RETURNING on SQLite), head and
    snapshot in one SELECT (no tail when the snapshot is at the head), the conditional head
    UPDATE, one executemany of the events, the snapshot upsert."""
    rng = random.Random(3)
    await run(draw(rng, 2), game_id=game.id)
    with caplog.at_level(logging.DEBUG, logger="tortoise.db_client"):
        await run(draw(rng, 5), game_id=game.id)
    statements = [r.getMessage().split()[0].upper() for r in caplog.records]
    assert statements == [*LOCK, "SELECT", "UPDATE", "INSERT", "INSERT"]


async def test_every_kth_step_adds_the_checkpoint_insert(
    game: services.GameInfo, caplog: pytest.LogCaptureFixture
) -> None:
    """A step that reaches a multiple of `checkpoint_every` also keeps the state (one more
    INSERT, of the JSON the snapshot upsert wrote); the others stay five statements."""
    deck = make_deck(checkpoint_every=3)
    rng = random.Random(3)
    sent: list[list[str]] = []
    for _ in range(4):
        caplog.clear()
        with caplog.at_level(logging.DEBUG, logger="tortoise.db_client"):
            await agg.execute(deck, game.id, KEY, draw(rng, 2), actor_id=GM)
        sent.append([r.getMessage().split()[0].upper() for r in caplog.records])
    assert sent[1] == sent[3] == [*LOCK, "SELECT", "UPDATE", "INSERT", "INSERT"]
    assert sent[2] == [*LOCK, "SELECT", "UPDATE", "INSERT", "INSERT", "INSERT"]
    point = await StreamCheckpoint.get(stream__key=KEY)
    snap_at_3 = (await agg.load(deck, game.id, KEY, rebuild=True))[0].draws[:6]
    assert (point.seq, point.step, point.version) == (6, 3, 1)
    assert Deck.from_dict(point.state).draws == snap_at_3


async def test_a_decision_with_its_state_is_not_folded_again(game: services.GameInfo) -> None:
    evolved: list[Drawn] = []

    def counting(state: Deck, event: Drawn) -> Deck:
        evolved.append(event)
        return _evolve(state, event)

    deck = make_deck(evolve=counting)
    rng = random.Random(6)

    def decide(state: Deck) -> agg.Decision[Deck, Drawn]:
        events = tuple(draw(rng, 3)(state))
        return agg.Decision(events, deck.fold(state, events))  # as an engine's builder does

    result = await agg.execute(deck, game.id, KEY, decide, actor_id=GM)
    assert len(evolved) == 3  # decide's own fold only
    assert result.seq == 3 and result.state.draws == tuple(e.value for e in result.events)
    assert await agg.load(deck, game.id, KEY, rebuild=True) == (result.state, 3)
    snap = await StreamSnapshot.get(stream__key=KEY)
    assert Deck.from_dict(snap.state) == result.state

    empty = await agg.execute(deck, game.id, KEY, lambda s: agg.Decision((), s), actor_id=GM)
    assert (empty.events, empty.step_id, empty.seq) == ((), None, 3)


async def test_a_snapshot_ahead_of_the_head_is_never_trusted(game: services.GameInfo) -> None:
    rng = random.Random(12)
    for _ in range(3):
        await run(draw(rng), game_id=game.id)
    truth = await agg.load(DECK, game.id, KEY, rebuild=True)
    await StreamSnapshot.filter(stream__key=KEY).update(seq=9, state={"label": "X", "draws": []})
    assert await agg.load(DECK, game.id, KEY) == truth
    after = await run(draw(rng), game_id=game.id)  # decided on the log's state, repairs it
    assert after.state.draws[:-1] == truth[0].draws
    snap = await StreamSnapshot.get(stream__key=KEY)
    assert (snap.seq, Deck.from_dict(snap.state)) == (4, after.state)


async def test_a_read_stops_at_the_head_it_read(game: services.GameInfo) -> None:
    """The head row is the log's extent: an event past it (as a writer that has not
    advanced the head yet would have) is not part of the state, snapshot or not."""
    deck = make_deck(snapshot_every=2)
    rng = random.Random(13)
    for _ in range(3):
        await agg.execute(deck, game.id, KEY, draw(rng), actor_id=GM)
    truth = await agg.load(deck, game.id, KEY)
    assert truth[1] == 3 and (await StreamSnapshot.get(stream__key=KEY)).seq == 2
    stream = await Stream.get(game_id=game.id, key=KEY)
    await StreamEvent.create(stream_id=stream.id, seq=4, step=4, type="Drawn", payload={})
    assert await agg.load(deck, game.id, KEY) == truth  # snapshot at 2 + tail up to 3
    assert await agg.load(deck, game.id, KEY, rebuild=True) == truth


async def two_stream_step(game_id: int, rng: random.Random) -> None:
    """One step that draws on two open streams of the game (as a fight and the chase that
    follows it do)."""

    async def work(unit: agg_unit.Unit) -> None:
        for key in ("deck:1", "deck:2"):
            state = await unit.state(DECK, key)
            unit.record(DECK, key, draw(rng)(state), state=None)

    await agg_unit.run_unit(game_id, work, actor_id=GM)


async def test_a_step_on_two_streams_reads_and_writes_them_together(
    game: services.GameInfo, caplog: pytest.LogCaptureFixture
) -> None:
    """Both open streams' heads in one SELECT, both heads moved by one UPDATE, the events
    of both in one INSERT and both snapshots in one upsert."""
    rng = random.Random(5)
    for _ in range(2):
        await agg.open_stream(DECK, game.id, kind="deck")
    await two_stream_step(game.id, rng)
    with caplog.at_level(logging.DEBUG, logger="tortoise.db_client"):
        await two_stream_step(game.id, rng)
    statements = [r.getMessage().split()[0].upper() for r in caplog.records]
    assert statements == [*LOCK, "SELECT", "UPDATE", "INSERT", "INSERT"]
    for key in ("deck:1", "deck:2"):
        state, seq = await agg.load(DECK, game.id, key)
        assert seq == 2 and state == (await agg.load(DECK, game.id, key, rebuild=True))[0]


async def test_a_step_whose_second_stream_moved_meanwhile_is_decided_again(
    game: services.GameInfo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first attempt sees deck:2 one step behind its head: the shared head UPDATE moves
    only deck:1, so the whole step is refused (nothing of it is written) and run again."""
    rng = random.Random(6)
    for _ in range(2):
        await agg.open_stream(DECK, game.id, kind="deck")
    await two_stream_step(game.id, rng)
    await run(draw(rng), key="deck:2", game_id=game.id)
    real_view_at = agg_unit.view_at
    stale = {"deck:2": 1}

    async def behind(aggregate: Any, conn: Any, head: Any) -> Any:
        view = await real_view_at(aggregate, conn, head)
        if stale.pop(head.key, 0):
            return replace(view, seq=view.seq - 1, step=view.step - 1)
        return view

    monkeypatch.setattr(agg_unit, "view_at", behind)
    await two_stream_step(game.id, rng)
    assert not stale  # the stale read happened
    one, two = await agg.load(DECK, game.id, "deck:1"), await agg.load(DECK, game.id, "deck:2")
    assert (one[1], two[1]) == (2, 3)  # once each, not twice on deck:1
    assert [len(s.events) for s in await agg.history(game.id, "deck:1")] == [1, 1]


# --- the states a process keeps ------------------------------------------------------------


async def test_a_kept_state_serves_reads_until_another_worker_moves_the_head(
    game: services.GameInfo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The state a step left is what the next read returns (not decoded again); a step of
    another worker (its own cache) moves the head, and the next read goes to the store."""
    rng = random.Random(4)
    await run(draw(rng), game_id=game.id)
    second = await run(draw(rng), game_id=game.id)
    assert (await agg.load(DECK, game.id, KEY))[0] is second.state
    other_worker = agg_states.States()
    with monkeypatch.context() as patch:
        patch.setattr(agg_log, "current_states", lambda: other_worker)
        patch.setattr(agg_unit, "current_states", lambda: other_worker)
        third = await run(draw(rng), game_id=game.id)
    state, seq = await agg.load(DECK, game.id, KEY)
    assert seq == 3 and state == third.state and len(state.draws) == 3
    assert state == (await agg.load(DECK, game.id, KEY, rebuild=True))[0]


async def test_a_unit_inside_a_rolled_back_transaction_keeps_no_state(
    game: services.GameInfo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A unit nested in another transaction does not own its commit: when the outer one
    rolls back and another worker's step reaches the same seq, this process must not serve
    the lost state."""
    from tortoise.transactions import in_transaction

    rng = random.Random(9)
    await run(draw(rng), game_id=game.id)
    with pytest.raises(DeckFull):
        async with in_transaction():
            await run(lambda s: [Drawn(-1, len(s.draws))], game_id=game.id)
            raise DeckFull
    other_worker = agg_states.States()
    with monkeypatch.context() as patch:
        patch.setattr(agg_log, "current_states", lambda: other_worker)
        patch.setattr(agg_unit, "current_states", lambda: other_worker)
        await run(lambda s: [Drawn(-2, len(s.draws))], game_id=game.id)
    state, seq = await agg.load(DECK, game.id, KEY)
    assert seq == 2 and state.draws[-1] == -2
    assert state == (await agg.load(DECK, game.id, KEY, rebuild=True))[0]
