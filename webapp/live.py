"""Live updates: a per-game broadcaster of raw events; each subscriber projects an event for
its own viewer before it leaves the server (hidden content never reaches a player).

`Broadcaster` is the interface; `LocalBroadcaster` serves one process. A Redis fan-out for
several workers implements the same interface: `publish` takes the next number from
``INCR kosti:live:seq:<game>`` and PUBLISHes the event (as JSON, with its full content —
Redis must be private) on ``kosti:live:<game>``; each worker listens (PSUBSCRIBE) and hands
the events to its local subscribers, which project them as here.
"""

from __future__ import annotations

import itertools
import logging
import uuid
from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Protocol

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class LiveEvent:
    game_id: int
    seq: int  # per game, increasing within one `epoch` of the broadcaster
    type: str  # "roll" | "roll_revealed"
    data: Any  # raw content (e.g. a RollRecord): never sent as is


class Subscriber(Protocol):
    def deliver(self, event: LiveEvent) -> None:
        """Must not block (queue the event); called in publish order."""


class Broadcaster(Protocol):
    epoch: str  # changes when the sequence restarts (a restart of the process / Redis)

    def current_seq(self, game_id: int) -> int: ...

    def subscribe(self, game_id: int, subscriber: Subscriber) -> None: ...

    def unsubscribe(self, game_id: int, subscriber: Subscriber) -> None: ...

    async def publish(self, game_id: int, type: str, data: Any) -> LiveEvent: ...

    def subscriber_count(self, game_id: int) -> int: ...


class LocalBroadcaster:
    """In-process fan-out (the embedded default: one process, SQLite)."""

    def __init__(self) -> None:
        self.epoch = uuid.uuid4().hex[:12]
        self._subscribers: dict[int, list[Subscriber]] = defaultdict(list)
        self._seq: dict[int, itertools.count[int]] = {}
        self._last: dict[int, int] = {}

    def current_seq(self, game_id: int) -> int:
        return self._last.get(game_id, 0)

    def subscribe(self, game_id: int, subscriber: Subscriber) -> None:
        self._subscribers[game_id].append(subscriber)

    def unsubscribe(self, game_id: int, subscriber: Subscriber) -> None:
        subs = self._subscribers.get(game_id)
        if subs and subscriber in subs:
            subs.remove(subscriber)
            if not subs:
                del self._subscribers[game_id]

    def subscriber_count(self, game_id: int) -> int:
        return len(self._subscribers.get(game_id, ()))

    async def publish(self, game_id: int, type: str, data: Any) -> LiveEvent:
        counter = self._seq.setdefault(game_id, itertools.count(1))
        event = LiveEvent(game_id=game_id, seq=next(counter), type=type, data=data)
        self._last[game_id] = event.seq
        for subscriber in list(self._subscribers.get(game_id, ())):
            try:
                subscriber.deliver(event)
            except Exception:  # one broken subscriber must not stop the others
                log.exception("live subscriber failed for game %s", game_id)
        return event
