"""A tiny in-process change notifier: the services announce each successful write here, and
whoever shows a game live (the Mini App's WebSocket boards, later the bot's board messages)
subscribes.

    unsubscribe = subscribe(callback)        # callback(Notification) -> None | Awaitable[None]
    await notify(game_id, "encounter", stream="encounter:3", seq=12, events=(...,))

Topics: ``"encounter"`` (start, command, undo, end, adds), ``"chase"`` (start, command,
turn, undo, end), ``"roll"`` (an open or hidden roll stored: ``record``; a reveal:
``record`` and ``revealed=True``) and ``"game"`` (join, GM transfer, end). ``info`` carries
what the service knows (``stream``, ``seq``, ``events``, ``actor_id``, ``record`` …) and
``origin``: who made the change — ``"chat"`` by default, or the value of `origin(...)` around
the call (the Mini App sets ``"webapp"``), so a subscriber can skip its own changes.

Subscribers run in order inside the service call, after the write; they must be quick
(queue work, never wait on the network). A failing subscriber is logged and never breaks the
service call nor the other subscribers.

Several workers: this notifier is per process. A Redis fan-out subscribes here and
PUBLISHes each notification (game, topic, origin; the state is re-read by the receivers) on
``kosti:notify:<game>``; every worker PSUBSCRIBEs and re-notifies its local subscribers —
the live boards then work whichever worker took the chat update or the app request.
"""

from __future__ import annotations

import contextlib
import inspect
import logging
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Literal

log = logging.getLogger(__name__)

Topic = Literal["encounter", "chase", "roll", "game"]
TOPICS: tuple[str, ...] = ("encounter", "chase", "roll", "game")


@dataclass(frozen=True, slots=True)
class Notification:
    game_id: int
    topic: str
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def origin(self) -> str:
        return str(self.info.get("origin", "chat"))


Callback = Callable[[Notification], Awaitable[None] | None]
_subscribers: list[Callback] = []
_origin: ContextVar[str] = ContextVar("kosti_notify_origin", default="chat")


def subscribe(callback: Callback) -> Callable[[], None]:
    """Register `callback`; returns the function that unregisters it (idempotent)."""
    _subscribers.append(callback)

    def unsubscribe() -> None:
        with contextlib.suppress(ValueError):
            _subscribers.remove(callback)

    return unsubscribe


def current_origin() -> str:
    """Who is making changes in this context ("chat" unless inside `origin(...)`)."""
    return _origin.get()


@contextlib.contextmanager
def origin(name: str) -> Iterator[None]:
    """Mark the notifications sent inside the block as coming from `name` ("webapp")."""
    token = _origin.set(name)
    try:
        yield
    finally:
        _origin.reset(token)


async def notify(game_id: int | None, topic: Topic, **info: Any) -> None:
    """Tell every subscriber that `topic` of the game changed. Never raises."""
    if game_id is None:  # e.g. a roll outside any game
        return
    if topic not in TOPICS:
        log.error("unknown notification topic %r", topic)
        return
    info.setdefault("origin", _origin.get())
    note = Notification(game_id, topic, info)
    for callback in list(_subscribers):
        try:
            result = callback(note)
            if inspect.isawaitable(result):
                await result
        except Exception:
            log.exception("change subscriber %r failed on %s of game %s", callback, topic, game_id)
