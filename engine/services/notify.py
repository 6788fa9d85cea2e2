"""The change notifier: the services announce each successful write, and whoever shows a
game live (the Mini App's WebSocket boards, the bot's board messages) subscribes.

Subscribers belong to a `Notifier`, owned by whoever runs them (the process's runner, an app,
a test); the services reach the one bound to the current context (`bind` / `using`: the
runner binds its notifier for the bot, the web app for each request), so two apps in one
process never hear each other. Outside any binding a notification goes nowhere.

    notifier = Notifier()
    unsubscribe = notifier.subscribe(callback)  # callback(Notification) -> None | Awaitable
    with using(notifier):
        await notify(game_id, "<scene kind>", stream="<kind>:3", seq=12, events=(...,))

Topics: each installed rule system's scene kinds (registered with the system,
engine.services.systems: start, command, undo, end of that scene), ``"roll"`` (an open or
hidden roll stored: ``record``; a reveal: ``record`` and ``revealed=True``) and ``"game"``
(join, GM transfer, end). ``info`` carries
what the service knows (``stream``, ``seq``, ``events``, ``actor_id``, ``record`` …) and
``origin``: who made the change — ``"chat"`` by default, or the value of `origin(...)` around
the call (the Mini App sets ``"webapp"``), so a subscriber can skip its own changes.

Subscribers run in order inside the service call, after the write; they must be quick
(queue work, never wait on the network). A failing subscriber is logged and never breaks the
service call nor the other subscribers.

Several workers: a notifier is per process. A Redis fan-out subscribes to it and PUBLISHes
each notification (game, topic, origin; the state is re-read by the receivers) on
``kosti:notify:<game>``; every worker PSUBSCRIBEs and re-notifies its own notifier's
subscribers — the live boards then work whichever worker took the chat update or the app
request.
"""

from __future__ import annotations

import contextlib
import inspect
import logging
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar, Token
from dataclasses import dataclass, field
from typing import Any

from engine.services.after_commit import after_commit

log = logging.getLogger(__name__)

Topic = str
SHARED_TOPICS: tuple[str, ...] = ("roll", "game")
_topics: set[str] = set(SHARED_TOPICS)


def add_topic(name: str) -> None:
    """A scene kind's topic (engine.services.systems.register adds each)."""
    _topics.add(name)


def topics() -> frozenset[str]:
    return frozenset(_topics)


@dataclass(frozen=True, slots=True)
class Notification:
    game_id: int
    topic: str
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def origin(self) -> str:
        return str(self.info.get("origin", "chat"))


Callback = Callable[[Notification], Awaitable[None] | None]
# Tells a step's notifications inside the step's own transaction (what it tells is stored with
# the step); answers which of them it told, which the after-commit subscribers then skip.
InStepTeller = Callable[[list[Notification]], Awaitable[set[int]]]
TOLD = "told_in_step"  # the info key of a notification told inside its step
_origin: ContextVar[str] = ContextVar("kosti_notify_origin", default="chat")


class Notifier:
    """The subscribers of one owner (a process, an app)."""

    def __init__(self) -> None:
        self._subscribers: list[Callback] = []
        self._in_step: list[InStepTeller] = []

    def subscribe(self, callback: Callback) -> Callable[[], None]:
        """Register `callback`; returns the function that unregisters it (idempotent)."""
        self._subscribers.append(callback)

        def unsubscribe() -> None:
            with contextlib.suppress(ValueError):
                self._subscribers.remove(callback)

        return unsubscribe

    def tell_in_step(self, teller: InStepTeller) -> Callable[[], None]:
        """Register `teller`, called inside a step's transaction where its caller opened one
        for the step and what it tells (engine.services.updates.step_with_effects): a
        Mini App step then tells the chat as a chat step does, in one transaction. Returns
        the function that unregisters it."""
        self._in_step.append(teller)

        def unregister() -> None:
            with contextlib.suppress(ValueError):
                self._in_step.remove(teller)

        return unregister

    def in_step_tellers(self) -> tuple[InStepTeller, ...]:
        return tuple(self._in_step)

    async def deliver(self, note: Notification) -> None:
        for callback in list(self._subscribers):
            try:
                result = callback(note)
                if inspect.isawaitable(result):
                    await result
            except Exception:
                what = (callback, note.topic, note.game_id)
                log.exception("change subscriber %r failed on %s of game %s", *what)


_notifier: ContextVar[Notifier | None] = ContextVar("kosti_notifier", default=None)


def current() -> Notifier | None:
    """The notifier bound to this context (None: notifications go nowhere)."""
    return _notifier.get()


def bind(notifier: Notifier | None) -> Token[Notifier | None]:
    """Bind `notifier` to the current context (and the tasks it starts from now on)."""
    return _notifier.set(notifier)


@contextlib.contextmanager
def using(notifier: Notifier | None) -> Iterator[Notifier | None]:
    """Bind `notifier` inside the block."""
    token = _notifier.set(notifier)
    try:
        yield notifier
    finally:
        _notifier.reset(token)


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


async def notify(game_id: int | None, topic: Topic, **info: object) -> None:
    """Tell the subscribers of the bound notifier that `topic` of the game changed. Never
    raises."""
    if game_id is None:  # e.g. a roll outside any game
        return
    if topic not in _topics:
        log.error("unknown notification topic %r", topic)
        return
    notifier = _notifier.get()
    if notifier is None:
        return
    info.setdefault("origin", _origin.get())
    notification = Notification(game_id, topic, info)

    async def deliver() -> None:
        await notifier.deliver(notification)

    if not after_commit(deliver):  # within a handler's step: once it committed
        await deliver()
