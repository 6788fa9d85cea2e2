"""Live updates: a per-game broadcaster of raw events. Each event is projected and encoded
once per distinct view (`LiveEvent.frame`), and that one frame goes to every socket of the
view; hidden content never reaches a player.

`Broadcaster` is the interface; `LocalBroadcaster` serves one process. A Redis fan-out for
several workers implements the same interface: `publish` PUBLISHes the event (as JSON, with
its full content — Redis must be private) on ``kosti:live:<game>``; each worker listens
(PSUBSCRIBE), numbers the events in the order it receives them (`order`, local) and hands
them to its local subscribers, which project them as here. What the clients see as `seq`
comes from the database (a scene's stream seq, a roll's id), the same on every worker.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

log = logging.getLogger(__name__)


@dataclass(eq=False, slots=True)
class LiveEvent:
    game_id: int
    order: int  # this process's publish order per game (never sent): see `current_order`
    type: str  # "roll" | "roll_revealed" | a scene kind | "game"
    data: object  # raw content (e.g. a RollRecord): never sent as is
    seq: int = 0  # sent with a roll: its id (a scene's seq is its stream's, in its projection)
    prev: int | None = None  # sent with a new roll: the game's roll before it (0: none)
    _frames: dict[Hashable, bytes | None] = field(default_factory=dict)
    _shared: dict[str, asyncio.Future[Any]] = field(default_factory=dict)

    def frame(self, key: Hashable, build: Callable[[], bytes | None]) -> bytes | None:
        """The encoded frame of the view `key`: built by the first socket of that view,
        the same bytes for the others (None: nothing for that view)."""
        if key not in self._frames:
            self._frames[key] = build()
        return self._frames[key]

    async def shared(self, name: str, read: Callable[[], Awaitable[T]]) -> T:
        """What `read()` gives, read once for every socket of the event (e.g. names)."""
        made = self._shared.get(name)
        if made is None:
            made = self._shared[name] = asyncio.ensure_future(read())
        # shielded: a socket that closes meanwhile must not cancel the others' read
        return await asyncio.shield(made)

    @property
    def views(self) -> int:
        """How many distinct views were built so far (tests, benchmarks)."""
        return len(self._frames)


class Subscriber(Protocol):
    def deliver(self, event: LiveEvent) -> None:
        """Must not block (queue the event); called in publish order."""


class Broadcaster(Protocol):
    def current_order(self, game_id: int) -> int:
        """The `order` of the game's last event: a snapshot whose reading starts after this
        call includes every event up to it (the socket skips those)."""

    def subscribe(self, game_id: int, subscriber: Subscriber) -> None: ...

    def unsubscribe(self, game_id: int, subscriber: Subscriber) -> None: ...

    async def publish(
        self, game_id: int, type: str, data: object, *, seq: int = 0, prev: int | None = None
    ) -> LiveEvent: ...

    def subscriber_count(self, game_id: int) -> int: ...


class LocalBroadcaster:
    """In-process fan-out (the embedded default: one process, SQLite)."""

    def __init__(self) -> None:
        self._subscribers: dict[int, list[Subscriber]] = defaultdict(list)
        self._order: dict[int, itertools.count[int]] = {}
        self._last: dict[int, int] = {}

    def current_order(self, game_id: int) -> int:
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

    async def publish(
        self, game_id: int, type: str, data: object, *, seq: int = 0, prev: int | None = None
    ) -> LiveEvent:
        counter = self._order.setdefault(game_id, itertools.count(1))
        event = LiveEvent(game_id, next(counter), type, data, seq, prev)
        self._last[game_id] = event.order
        for subscriber in list(self._subscribers.get(game_id, ())):
            try:
                subscriber.deliver(event)
            except Exception:  # one broken subscriber must not stop the others
                log.exception("live subscriber failed for game %s", game_id)
        return event
