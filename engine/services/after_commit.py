"""What must wait for a transaction the caller does not commit itself: a handler's
`step_with_effects` (engine/services/updates.py) opens one for its step and the journal rows
of its chat calls, and what the step's code would do after its own commit — the live push,
the calls' queueing, the states kept — is handed here and runs once that one committed."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar

AfterCommit = Callable[[], Awaitable[None]]
_later: ContextVar[list[AfterCommit] | None] = ContextVar("kosti_after_commit", default=None)


def after_commit(then: AfterCommit) -> bool:
    """Within such a transaction: run `then` once it committed (True); outside one, False
    (the caller's own commit is the one: it goes on itself)."""
    later = _later.get()
    if later is None:
        return False
    later.append(then)
    return True


def holding() -> bool:
    """Whether such a transaction is open in this context."""
    return _later.get() is not None


@contextlib.contextmanager
def collecting() -> Iterator[list[AfterCommit]]:
    """Around the transaction: the list `after_commit` fills, for its opener to run."""
    later: list[AfterCommit] = []
    token = _later.set(later)
    try:
        yield later
    finally:
        _later.reset(token)
