"""One step of a game, over any of its streams, in one transaction: the unit of work.

    async def work(unit: Unit) -> T:
        state = await unit.state(AGGREGATE, key, expected_seq=seen)   # locked, read once
        unit.record(AGGREGATE, key, events, state=after)               # kept in memory
        ...                                                            # follow-up policies
        return outcome
    outcome = await run_unit(game_id, work, actor_id=user)

`run_unit` opens the transaction and locks the game row first (one statement that also reads
the game's `active`, `system`, GM and the actor's role), so every step of a game is
serialised on every database — PostgreSQL by the row lock, SQLite by its write lock, taken
here at once instead of at the first write (two processes on one SQLite file then wait for
each other instead of failing on a stale read snapshot). Each stream is read once (head and
snapshot in one statement; the tail only when the snapshot is behind), the work decides on
states held in memory, and at the end every stream touched is written: the head moved by a
conditional UPDATE (the backstop: a write decided on a stale state can never commit), its
events in one executemany, its snapshot (and at every `checkpoint_every`-th step a checkpoint)
— and the step's notifications (`unit.note`) as one outbox row (engine/services/outbox.py),
delivered after the commit.

An undo reads the log back from the newest checkpoint before the step it takes back, not
from the start: its cost is that of the steps since that checkpoint (see `Unit.undo`).

`expected_seq`: the sequence number the user saw. Checked inside the transaction; a stream
that moved since is refused with `StaleState` and nothing is written — a command is never
re-decided against a state its sender did not see. Without it (a typed command that does not
depend on what was on screen), a conflict runs the work again on the fresh state.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, TypeVar

from tortoise.backends.base.client import BaseDBAsyncClient, TransactionalDBClient
from tortoise.exceptions import IntegrityError, OperationalError

from engine.services import outbox, updates
from engine.services.after_commit import after_commit
from engine.services.aggregates import game_lock
from engine.services.aggregates.game_lock import GameRow
from engine.services.aggregates.log import View, decode, effective, view_at
from engine.services.aggregates.model import (
    CAUSE,
    UNDO,
    Aggregate,
    UndoResult,
    check_key,
    is_marker,
)
from engine.services.aggregates.pending import (
    HeldStream,
    PendingStep,
    last_command,
    pending_rows,
    read_older,
    type_of,
    write_stream,
)
from engine.services.aggregates.sql import (
    EventValues,
    Head,
    HeadMove,
    SnapshotValues,
    advance_heads,
    connection,
    insert_events,
    now,
    read_heads,
    write_checkpoint,
    write_snapshots,
)
from engine.services.aggregates.states import current_states
from engine.services.errors import (
    EventConflict,
    GameEnded,
    NothingToUndo,
    StaleState,
    StreamClosed,
    WrongAggregate,
)
from engine.services.outbox import Note

T = TypeVar("T")
S = TypeVar("S")
E = TypeVar("E")

log = logging.getLogger(__name__)


class Conflict(Exception):
    """Another writer advanced a stream since this unit read it (rolls the transaction
    back; `run_unit` runs the work again)."""


PREFETCH_OPEN = 3  # open streams of a game read together with the first one a step reads


class Unit:
    """The streams of one game read and written by one step (see the module docstring)."""

    def __init__(self, conn: BaseDBAsyncClient, game: GameRow, actor_id: int | None) -> None:
        self.conn = conn
        self.game = game
        self.actor_id = actor_id
        self._streams: dict[str, HeldStream[Any]] = {}
        self._open: dict[str, str] | None = None  # kind -> key of the newest open stream
        self._boards: dict[str, int | None] = {}  # key -> its board message (open streams)
        self._heads: dict[str, Head | None] = {}  # read, not yet made streams (None: none)
        self.notes: list[Note] = []

    # -- reading ---------------------------------------------------------------------------
    async def active_key(self, kind: str) -> str | None:
        """The key of the game's newest open stream of `kind` ("<kind>:3"), or None."""
        if self._open is None:  # read with the game's lock
            self._open, self._boards = {}, {}
            for key, message_id in self.game.open_streams:
                self._open[key.split(":", 1)[0]] = key
                self._boards[key] = message_id
        return self._open.get(kind)

    def board(self, key: str) -> int | None:
        """The chat message showing the open stream (its board), read with `active_key`."""
        return self._boards.get(key)

    async def state(
        self,
        aggregate: Aggregate[S, Any],
        key: str,
        *,
        expected_seq: int | None = None,
        expected_stream: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> S:
        """The stream's state as this unit sees it (its pending steps included). Read from
        the database once; `expected_seq` (and `expected_stream`: the user saw another
        scene of the kind, since closed) are checked against the stored head then. A stream never
        written starts from `aggregate.initial(params)` and is created by the flush."""
        if expected_stream is not None and expected_stream != key:
            raise StaleState(stream=key, expected_stream=expected_stream)
        stream = await self._stream(aggregate, key, params)
        if expected_seq is not None and expected_seq != stream.view.seq:
            raise StaleState(stream=key, seq=stream.view.seq, expected=expected_seq)
        return stream.state

    def seq(self, key: str) -> int:
        """The stream's seq after the pending steps (what the outcome reports)."""
        return self._streams[key].seq

    def step(self, key: str) -> int:
        return self._streams[key].step

    async def _stream(
        self, aggregate: Aggregate[S, Any], key: str, params: Mapping[str, Any] | None = None
    ) -> HeldStream[S]:
        found = self._streams.get(key)
        if found is not None:
            if found.aggregate.name != aggregate.name:
                raise WrongAggregate(
                    stream=key, aggregate=found.aggregate.name, expected=aggregate.name
                )
            return found
        check_key(key)
        head = await self._head(key)
        if head is None:
            view: View[S] = View(None, aggregate.initial(params or {}), 0, 0)
        else:
            view = await view_at(aggregate, self.conn, head)
        if view.row is not None and view.row.closed:
            raise StreamClosed(stream=key)
        stream = HeldStream(aggregate, key, view, view.state, dict(params or {}))
        self._streams[key] = stream
        return stream

    async def _head(self, key: str) -> Head | None:
        """The stream's row and snapshot. The first read takes those of the game's other
        open streams with it when there are few (a scene and the one following it: the
        follow-up policies read them next), one statement for all."""
        if key in self._heads:
            return self._heads.pop(key)
        keys = [key]
        if len(self.game.open_streams) <= PREFETCH_OPEN:
            keys += [k for k, _ in self.game.open_streams if k != key and k not in self._streams]
        heads = await read_heads(self.conn, self.game.id, keys)
        found = heads.pop(key)
        self._heads.update(heads)
        return found

    # -- deciding ----------------------------------------------------------------------------
    def record(
        self,
        aggregate: Aggregate[S, E],
        key: str,
        events: Iterable[E],
        *,
        state: S | None = None,
        cause: Mapping[str, Any] | None = None,
    ) -> int | None:
        """Keep `events` as the stream's next step (the stream must have been read with
        `state`); `state` is the state after them if the caller has it, else they are folded.
        `cause` (e.g. another stream's step) is kept as a `$cause` marker. Returns the step
        number, None if there are no events."""
        stream = self._streams[key]
        events = tuple(events)
        if not events:
            return None
        to_dict = aggregate.event_to_dict
        rows = [(type_of(p), p) for p in map(to_dict, events)]
        if cause is not None:
            rows.append((CAUSE, dict(cause)))
        stream.steps.append(PendingStep(rows))
        stream.state = aggregate.fold(stream.state, events) if state is None else state
        return stream.step

    async def undo(
        self,
        aggregate: Aggregate[S, E],
        key: str,
        *,
        expected_step: int | None = None,
        caused_by: Mapping[str, Any] | None = None,
    ) -> UndoResult[S, E]:
        """Take back the stream's newest step not undone yet (see `write.undo_last_step`).
        Only on a stream without pending steps of this unit.

        The state after the undo is the state just before that step was written: every
        step after it is an undo or undone, and no undo since took back a step before it
        (it would have taken this newer one first). That state is the fold of the steps
        kept since the newest checkpoint before the step — unless an undo in between took
        back a step the checkpoint includes: then an older checkpoint (or the initial
        state) is taken. So the log is read back only as far as that checkpoint, once per
        unit (repeated undos of `undo_caused` reuse what was read)."""
        stream = await self._stream(aggregate, key)
        if stream.steps and not all(s.snapshot for s in stream.steps):
            raise RuntimeError("undo after a pending command step of the same unit")
        if stream.view.row is None:
            raise NothingToUndo(stream=key)
        past = stream.past or await read_older(self.conn, stream, None, stream.view.step + 1)
        pending = pending_rows(stream)
        while (target := last_command(past.rows + pending)) is None:
            if past.lo == 0:
                raise NothingToUndo(stream=key)
            past = await read_older(self.conn, stream, past, past.step)
        rows = past.rows + pending
        taken = [r for r in rows if r.step == target]
        if caused_by is not None and not any(
            r.type == CAUSE and r.payload == dict(caused_by) for r in taken
        ):
            raise NothingToUndo(stream=key, caused_by=dict(caused_by))
        if expected_step is not None and expected_step != target:
            raise StaleState(stream=key, expected_step=expected_step, last_step=target)
        before = taken[0].seq
        params = stream.view.row.params
        while True:
            kept = [r for r in past.rows if r.seq < before]
            # an undo since the checkpoint of a step it includes: start further back
            reached = [int(r.payload["step"]) for r in kept if r.type == UNDO]
            if reached and min(reached) <= past.step:
                past = await read_older(self.conn, stream, past, min(reached))
                continue
            try:
                base = past.base(aggregate, params)
            except Exception:  # an unreadable cache is not an error: the log is the truth
                log.warning("unreadable checkpoint of stream %s ignored", key, exc_info=True)
                past = await read_older(self.conn, stream, past, 0)
                continue
            break
        stream.past = past
        state = aggregate.fold(base, decode(aggregate, effective(kept)))
        stream.steps.append(PendingStep([(UNDO, {"step": target})], snapshot=True))
        stream.state = state
        undone = tuple(decode(aggregate, [r for r in taken if not is_marker(r.type)]))
        return UndoResult(state, target, undone, stream.step, stream.seq)

    def with_states(self) -> list[Note]:
        """The notes as delivered in this process: each stream's state after the step
        (`state`, `state_seq`) and its board message (`board`), the states of every
        stream the step touched (`states`, by key), the game (`game`, a GameInfo) and its
        GM's language (`gm_language`) added, so the subscribers need not read them again.
        A redelivered row (outbox) has none of them."""
        touched = {key: stream.state for key, stream in self._streams.items()}
        common: dict[str, Any] = {"states": touched}
        if self.game.info is not None:
            common |= {"game": self.game.info, "gm_language": self.game.gm_language}
        out = []
        for n in self.notes:
            extra = dict(common)
            stream = self._streams.get(str(n.info.get("stream")))
            if stream is not None:
                extra |= {
                    "state": stream.state,
                    "state_seq": stream.seq,
                    "board": self.board(stream.key),
                }
            out.append(Note(n.topic, {**n.info, **extra}, n.aggregate))
        return out

    def note(
        self, topic: str, aggregate: Aggregate[Any, Any] | None = None, **info: object
    ) -> None:
        """A notification to deliver once the step is committed (engine.services.notify),
        written to the outbox with the step; `aggregate` encodes its `events`."""
        self.notes.append(outbox.note(topic, aggregate, **info))

    def keep_states(self) -> None:
        """After the commit: the states this step left serve the next reads of its streams
        (engine.services.aggregates.states)."""
        states = current_states()
        for stream in self._streams.values():
            if stream.steps and stream.stream_id is not None:
                states.put(
                    stream.stream_id,
                    stream.key,
                    stream.aggregate,
                    stream.seq,
                    stream.step,
                    stream.state,
                )

    # -- writing -------------------------------------------------------------------------------
    async def flush(self, *, with_row: bool = True) -> int | None:
        """Write every stream touched and the step's outbox row (`with_row`; else
        `write_row` does later); the row's id. However many streams a step touched: one
        statement moves their heads, one inserts their events, one writes their snapshots (a
        stream's first step creates its row first)."""
        at = now()
        moves: list[HeadMove] = []
        events: list[EventValues] = []
        snapshots: list[SnapshotValues] = []
        checkpoints: list[tuple[int, int, int, int, str]] = []
        for stream in self._streams.values():
            if stream.steps:
                await write_stream(
                    self.conn,
                    self.game.id,
                    self.actor_id,
                    stream,
                    at,
                    moves,
                    events,
                    snapshots,
                    checkpoints,
                )
        if not await advance_heads(self.conn, moves):
            raise Conflict
        await insert_events(self.conn, events)
        await write_snapshots(self.conn, snapshots)
        for checkpoint in checkpoints:  # one step in `checkpoint_every`
            await write_checkpoint(self.conn, *checkpoint)
        return await outbox.write(self.conn, self.game.id, self.notes) if with_row else None

    async def tell_and_write_row(self) -> tuple[int | None, list[Note]]:
        """Nested in a caller's transaction that holds what the step tells as well: the
        in-step tellers tell the notes there (outbox.told_in_step), then the row is
        written with those marked told; its id, and the notes to deliver after the commit
        (`with_states`, the told ones marked too)."""
        live = self.with_states()
        told = await outbox.told_in_step(self.game.id, live)

        def marked(notes: list[Note]) -> list[Note]:
            return [outbox.told(n) if i in told else n for i, n in enumerate(notes)]

        self.notes = marked(self.notes)
        return await outbox.write(connection(), self.game.id, self.notes), marked(live)


def _after(
    unit: Unit, game_id: int, item: int | None, notes: list[Note] | None
) -> Callable[[], Awaitable[None]]:
    """What follows a step nested in a handler's `step_with_effects`, once that commits;
    `notes`: as delivered, when the step has them already (else `with_states`)."""

    async def then() -> None:
        unit.keep_states()
        await outbox.deliver(game_id, item, unit.with_states() if notes is None else notes)

    return then


def _busy(exc: OperationalError) -> bool:
    """SQLite's «database is locked» (another process holds the write lock too long)."""
    return "locked" in str(exc) or "busy" in str(exc)


async def run_unit(
    game_id: int,
    work: Callable[[Unit], Awaitable[T]],
    *,
    actor_id: int | None,
    require_active: bool = True,
    max_retries: int = 3,
) -> T:
    """Run `work` in one transaction on the locked game (see the module docstring) and
    deliver its notifications after the commit. `work` raising leaves nothing written."""
    # Inside another transaction, the commit is not this unit's: keep no states then.
    outermost = not isinstance(connection(), TransactionalDBClient)
    # Nested in a step that tells the chat with it (a Mini App step): told in that one
    # transaction, once this unit's part is written (no retry can follow then).
    tells = not outermost and updates.holding_effects() and outbox.tellers_in_step()
    for attempt in range(max_retries + 1):
        try:
            async with updates.step_transaction() as conn:  # the chat update's claim first
                game = await game_lock.lock_game(conn, game_id, actor_id)
                if require_active and not game.active:
                    raise GameEnded(game_id=game_id)
                unit = Unit(conn, game, actor_id)
                result = await work(unit)
                item = await unit.flush(with_row=not tells)
        except (Conflict, IntegrityError):
            continue  # caught outside the transaction: on PostgreSQL it is aborted
        except OperationalError as exc:
            if not _busy(exc):
                raise
            await asyncio.sleep(0.01 * (attempt + 1))
            continue
        delivered = None
        if tells:
            item, delivered = await unit.tell_and_write_row()
        if outermost:
            unit.keep_states()
            await outbox.deliver(game_id, item, unit.with_states())
        elif not after_commit(_after(unit, game_id, item, delivered)):
            await outbox.deliver(game_id, item, unit.with_states())
        return result
    raise EventConflict(game_id=game_id, attempts=max_retries + 1)
