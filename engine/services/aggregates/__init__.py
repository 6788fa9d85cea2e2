"""Generic event-sourced aggregates per game: an event log + snapshot per stream.

A stream ("<kind>:3") belongs to a game and holds one aggregate, described by
an `Aggregate` (the pure engine's `initial`/`evolve` and JSON codecs). `execute` runs a pure
decision on the current state and appends its events as one step under optimistic
sequencing; `undo_last_step` takes steps back by logging an undo; `load` reads the state
from the latest snapshot plus the events after it. See docs/storage.md.
"""

from __future__ import annotations

from engine.services.aggregates.log import history, load
from engine.services.aggregates.model import (
    UNDO,
    Aggregate,
    Decision,
    ExecuteResult,
    Step,
    StreamInfo,
    UndoResult,
)
from engine.services.aggregates.streams import (
    active_stream,
    close_stream,
    list_streams,
    open_stream,
)
from engine.services.aggregates.write import Decide, execute, undo_caused, undo_last_step

__all__ = [
    "UNDO",
    "Aggregate",
    "Decide",
    "Decision",
    "ExecuteResult",
    "Step",
    "StreamInfo",
    "UndoResult",
    "active_stream",
    "close_stream",
    "execute",
    "history",
    "list_streams",
    "load",
    "open_stream",
    "undo_caused",
    "undo_last_step",
]
