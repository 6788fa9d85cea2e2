"""engine/store/sqlite_inline.py: Tortoise's SQLite client with statements on the loop's thread;
another process's write lock is waited for without stalling the loop."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import pytest
from tortoise import connections
from tortoise.exceptions import OperationalError
from tortoise.transactions import in_transaction

from engine.store.config import SQLITE_ENGINE, tortoise_config
from engine.store.db import close_db, init_db
from engine.store.sqlite_inline import InlineSqliteClient


async def _client(path: Path, busy_ms: int) -> InlineSqliteClient:
    client = InlineSqliteClient(str(path), busy_timeout=busy_ms, connection_name="default")
    await client.create_connection(with_db=True)
    await client.execute_script("CREATE TABLE IF NOT EXISTS t (v INTEGER)")
    return client


def test_the_engine_connects_sqlite_through_the_inline_client() -> None:
    config = tortoise_config("sqlite:///tmp/kosti.sqlite3")["connections"]["default"]
    assert config["engine"] == SQLITE_ENGINE
    assert config["credentials"]["file_path"] == "/tmp/kosti.sqlite3"
    assert config["credentials"]["busy_timeout"] == "5000"  # the defaults still apply
    postgres = tortoise_config("postgres://k@localhost/k")["connections"]["default"]
    assert postgres == "postgres://k@localhost/k"


async def test_a_transaction_commits_and_rolls_back(tmp_path: Path) -> None:
    ctx = await init_db(f"sqlite://{tmp_path / 'k.sqlite3'}")
    try:
        conn = connections.get("default")
        assert isinstance(conn, InlineSqliteClient)
        await conn.execute_script("CREATE TABLE t (v INTEGER)")
        async with in_transaction() as tx:
            await tx.execute_query("INSERT INTO t VALUES (1)")
        with pytest.raises(RuntimeError):
            async with in_transaction() as tx:
                await tx.execute_query("INSERT INTO t VALUES (2)")
                raise RuntimeError("the step failed")
        _, rows = await conn.execute_query("SELECT v FROM t")
        assert [row["v"] for row in rows] == [1]
    finally:
        await close_db(ctx)


async def test_another_process_lock_is_waited_for_while_the_loop_runs(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    client = await _client(path, 3000)
    other = sqlite3.connect(path, isolation_level=None)  # stands for a second worker
    other.execute("BEGIN IMMEDIATE")  # holds the write lock
    other.execute("INSERT INTO t VALUES (7)")
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.005)
            ticks += 1

    ticker = asyncio.create_task(tick())
    loop = asyncio.get_running_loop()
    loop.call_later(0.3, other.commit)  # the other worker finishes its step
    try:
        started = time.monotonic()
        await client.execute_query("INSERT INTO t VALUES (8)")
        waited = time.monotonic() - started
        _, rows = await client.execute_query("SELECT v FROM t ORDER BY v")
    finally:
        ticker.cancel()
        other.close()
        await client.close()
    assert 0.25 < waited < 2.5
    assert ticks >= 20  # the loop kept running while the statement waited
    assert [row["v"] for row in rows] == [7, 8]


async def test_a_lock_held_longer_than_busy_timeout_is_the_usual_error(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    client = await _client(path, 200)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        started = time.monotonic()
        with pytest.raises(OperationalError, match="locked"):
            await client.execute_query("INSERT INTO t VALUES (1)")
        assert 0.15 < time.monotonic() - started < 1.5
    finally:
        other.rollback()
        other.close()
        await client.close()
