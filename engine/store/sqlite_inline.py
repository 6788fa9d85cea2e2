"""Tortoise's SQLite client with its statements run on the event loop's own thread.

Kept here rather than taken from a library because aiosqlite (Tortoise's driver) sends each
statement to a thread of its own and back: about 40 µs of CPU per statement on these
machines, several times the statement itself (an INSERT in WAL mode with synchronous=NORMAL
costs 10–30 µs and writes no fsync), and `bench/dispatch.py` showed a third of a chat
roll's CPU in those hops. Everything else — SQL, transactions, savepoints, errors — is
Tortoise's `SqliteClient`, which this subclasses.

What running inline changes, and how it is kept safe:
- A write lock held by another process (two workers on one file, a backup) must not stall
  the loop: the connection's own busy timeout is 0, and a statement refused with
  SQLITE_BUSY is retried after a short sleep until the configured `busy_timeout` has
  passed, then raised as before. SQLite allows that retry (a refused statement did nothing;
  a refused COMMIT leaves the transaction open).
- A long query blocks the loop for its duration (the step history of an old game, an
  undo: single milliseconds, bench/undo.py), as the thread blocked every other query; so
  does the WAL checkpoint SQLite runs inside the commit that fills ~1,000 pages (one fsync
  of the database file, a few milliseconds every few thousand steps).
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from tortoise.backends.sqlite.client import SqliteClient

T = TypeVar("T")
BUSY_SLEEP = 0.002  # first wait after SQLITE_BUSY; doubled up to BUSY_SLEEP_MAX
BUSY_SLEEP_MAX = 0.05


class InlineCursor:
    """What Tortoise awaits on a cursor (only `close`), over a sqlite3 cursor."""

    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self._cursor = cursor

    async def close(self) -> None:
        self._cursor.close()

    async def fetchall(self) -> list[Any]:
        return self._cursor.fetchall()

    async def fetchone(self) -> Any:
        return self._cursor.fetchone()

    @property
    def lastrowid(self) -> int | None:
        return self._cursor.lastrowid

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount


class InlineConnection:
    """The part of `aiosqlite.Connection` that Tortoise's SQLite client calls, on the
    calling thread. `_conn` is the sqlite3 connection, as in aiosqlite."""

    def __init__(self, path: str) -> None:
        self._conn = sqlite3.connect(path, isolation_level=None)
        self.busy_timeout = 0.0  # seconds; what `PRAGMA busy_timeout` asked for

    @property
    def total_changes(self) -> int:
        return self._conn.total_changes

    async def _run(self, work: Callable[[], T]) -> T:
        deadline: float | None = None
        pause = BUSY_SLEEP
        while True:
            try:
                return work()
            except sqlite3.OperationalError as error:
                if getattr(error, "sqlite_errorcode", None) != sqlite3.SQLITE_BUSY:
                    raise
                now = time.monotonic()
                deadline = deadline if deadline is not None else now + self.busy_timeout
                if now >= deadline:
                    raise
                await asyncio.sleep(min(pause, deadline - now))
                pause = min(pause * 2, BUSY_SLEEP_MAX)

    async def execute(self, sql: str, parameters: Sequence[Any] | None = None) -> InlineCursor:
        pragma = sql.replace(" ", "").lower()
        if pragma.startswith("pragmabusy_timeout="):  # kept for the retries, 0 for SQLite
            self.busy_timeout = int(pragma.split("=", 1)[1]) / 1000
            sql = "PRAGMA busy_timeout=0"
        return InlineCursor(await self._run(lambda: self._conn.execute(sql, parameters or ())))

    async def execute_fetchall(
        self, sql: str, parameters: Sequence[Any] | None = None
    ) -> list[Any]:
        return await self._run(lambda: self._conn.execute(sql, parameters or ()).fetchall())

    async def execute_insert(self, sql: str, parameters: Sequence[Any] | None = None) -> Any:
        def insert() -> Any:
            self._conn.execute(sql, parameters or ())
            return self._conn.execute("SELECT last_insert_rowid()").fetchone()

        return await self._run(insert)

    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]]) -> None:
        rows = list(parameters)  # a retry needs them again
        await self._run(lambda: self._conn.executemany(sql, rows))

    async def executescript(self, script: str) -> None:
        # Several statements: a retry could repeat those done, so SQLite waits (start-up
        # migrations only).
        self._conn.execute(f"PRAGMA busy_timeout={int(self.busy_timeout * 1000)}")
        try:
            self._conn.executescript(script)
        finally:
            self._conn.execute("PRAGMA busy_timeout=0")

    async def commit(self) -> None:
        await self._run(self._conn.commit)

    async def rollback(self) -> None:
        self._conn.rollback()

    async def close(self) -> None:
        self._conn.close()

    async def set_trace_callback(self, callback: Callable[[str], object] | None) -> None:
        self._conn.set_trace_callback(callback)


class InlineSqliteClient(SqliteClient):
    async def create_connection(self, with_db: bool) -> None:
        if self._connection:
            return
        connection = InlineConnection(self.filename)
        connection._conn.row_factory = sqlite3.Row
        for pragma, value in self.pragmas.items():
            await connection.execute(f"PRAGMA {pragma}={value}")
        self._connection = connection  # type: ignore[assignment]  # aiosqlite-like, inline
        await self._post_connect()


client_class = InlineSqliteClient  # Tortoise's engine module protocol
