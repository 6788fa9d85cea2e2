"""The states of streams this process wrote or read lately, as of their heads.

Decoding a stream's snapshot (JSON into frozen dataclasses) is the largest part of reading
a scene, and every step and every board reads one. A state is immutable, so the state a
step left serves the next read of that stream as long as its head has not moved: the head
is read anyway (in a step, inside its transaction, with the game locked), so a step of
another worker shows as a moved head and the state is read from the store again.

One cache per ORM context: a fresh database (a test's) starts from nothing, and its stream
ids, which start over, never meet the states of another."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, TypeVar, cast
from weakref import WeakKeyDictionary

from tortoise.context import TortoiseContext, get_current_context

from engine.services.aggregates.model import Aggregate
from engine.services.aggregates.sql import Head

SIZE = 512  # streams kept (a game's open scenes; LRU)

S = TypeVar("S")


class States:
    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        # stream id -> (key, aggregate, version, seq, step, state)
        self._entries: OrderedDict[int, tuple[str, str, int, int, int, object]] = OrderedDict()

    def get(self, head: Head, aggregate: Aggregate[S, Any]) -> S | None:
        """The state at `head` if kept, else None."""
        entry = self._entries.get(head.id)
        if entry is None:
            return None
        key, name, version, seq, step, state = entry
        at = (head.key, aggregate.name, aggregate.version, head.head_seq, head.head_step)
        if (key, name, version, seq, step) != at:
            return None
        self._entries.move_to_end(head.id)
        return cast("S", state)  # put by this aggregate: its name and version matched

    def put(
        self,
        stream_id: int,
        key: str,
        aggregate: Aggregate[S, Any],
        seq: int,
        step: int,
        state: S,
    ) -> None:
        self._entries[stream_id] = (key, aggregate.name, aggregate.version, seq, step, state)
        self._entries.move_to_end(stream_id)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)

    def clear(self) -> None:
        """Forget every state (as a fresh process would start)."""
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


_BY_CONTEXT: WeakKeyDictionary[TortoiseContext, States] = WeakKeyDictionary()
_NONE = States(0)  # no ORM context: keep nothing


def current_states() -> States:
    """The cache of the current ORM context (its database)."""
    ctx = get_current_context()
    if ctx is None:
        return _NONE
    states = _BY_CONTEXT.get(ctx)
    if states is None:
        states = _BY_CONTEXT[ctx] = States()
    return states
