"""The shared database fixture `db`: a fresh, migrated database for every test.

The backend is chosen once per pytest process (SQLite and PostgreSQL must not be mixed in
one process):

    KOSTI_TEST_DB=sqlite    (default) a copy of an SQLite file migrated once per process
    KOSTI_TEST_DB=postgres  KOSTI_TEST_POSTGRES_URL (default below); the schema is dropped and
                            migrated once per process, tables are truncated before each test

The schema always comes from the real migrations (engine.store.db.migrate), never from
`generate_schemas`, so tests run on the schema the app runs on. With CI=true an unreachable
PostgreSQL fails the tests instead of skipping them.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from redis.asyncio import Redis
from tortoise.context import TortoiseContext

from engine.store.db import close_db, init_db, migrate
from tests.support.redis_server import RedisServer

DEFAULT_POSTGRES_URL = "postgres://kosti:kosti@127.0.0.1:5432/kosti_test"
DB_BACKEND = os.environ.get("KOSTI_TEST_DB", "sqlite").strip().lower() or "sqlite"
POSTGRES_URL = os.environ.get("KOSTI_TEST_POSTGRES_URL") or DEFAULT_POSTGRES_URL
IN_CI = os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")

if DB_BACKEND not in ("sqlite", "postgres"):
    raise pytest.UsageError(f"KOSTI_TEST_DB must be 'sqlite' or 'postgres', not {DB_BACKEND!r}")

# Set up at most once per process, lazily, by the first test that asks for a database.
_sqlite_template: Path | None = None
_postgres_ready: bool = False


async def postgres_reachable(url: str, timeout: float = 5.0) -> str | None:
    """None when PostgreSQL at `url` answers, else the reason it does not."""
    import asyncpg

    try:
        conn = await asyncio.wait_for(asyncpg.connect(url), timeout)
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    await conn.close()
    return None


async def _sqlite_url(tmp_path_factory: pytest.TempPathFactory, tmp_path: Path) -> str:
    global _sqlite_template
    if _sqlite_template is None:
        template = tmp_path_factory.mktemp("kosti-db") / "template.sqlite3"
        await migrate(f"sqlite://{template}")
        _sqlite_template = template
    target = tmp_path / "kosti.sqlite3"
    for suffix in ("", "-wal", "-shm"):  # WAL files exist only if a checkpoint was skipped
        source = Path(f"{_sqlite_template}{suffix}")
        if source.exists():
            shutil.copyfile(source, f"{target}{suffix}")
    return f"sqlite://{target}"


async def _reset_postgres_schema(url: str) -> None:
    """Drop every table of the current schema (works without owning the schema itself)."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        tables = await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
        )
        for row in tables:
            await conn.execute(f'DROP TABLE IF EXISTS "{row["tablename"]}" CASCADE')
    finally:
        await conn.close()


async def _postgres_url() -> str:
    global _postgres_ready
    if not _postgres_ready:
        reason = await postgres_reachable(POSTGRES_URL)
        if reason is not None:
            message = f"PostgreSQL at KOSTI_TEST_POSTGRES_URL is unreachable ({reason})"
            if IN_CI:
                pytest.fail(message + " — CI=true, so this is a failure", pytrace=False)
            pytest.skip(message)
        await _reset_postgres_schema(POSTGRES_URL)
        await migrate(POSTGRES_URL)
        _postgres_ready = True
    return POSTGRES_URL


async def _truncate_postgres(ctx: TortoiseContext) -> None:
    assert ctx.apps is not None
    tables = ", ".join(f'"{m._meta.db_table}"' for m in ctx.apps.get_models_iterable())
    await ctx.db().execute_script(f"TRUNCATE {tables} RESTART IDENTITY CASCADE")


@pytest.fixture
def db_backend() -> str:
    """'sqlite' or 'postgres': the backend of this pytest process."""
    return DB_BACKEND


@pytest.fixture
async def db_url(tmp_path_factory: pytest.TempPathFactory, tmp_path: Path) -> str:
    """URL of a fresh migrated database (not connected): for tests that start the app."""
    if DB_BACKEND == "postgres":
        url = await _postgres_url()
        ctx = await init_db(url)
        try:
            await _truncate_postgres(ctx)
        finally:
            await close_db(ctx)
        return url
    return await _sqlite_url(tmp_path_factory, tmp_path)


_urls: dict[int, str] = {}  # id of a `db` context -> its database URL


@pytest.fixture
async def db(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> AsyncIterator[TortoiseContext]:
    """A fresh migrated database, connected as the current (and fallback) Tortoise context."""
    if DB_BACKEND == "postgres":
        url = await _postgres_url()
    else:
        url = await _sqlite_url(tmp_path_factory, tmp_path)
    ctx = await init_db(url)
    _urls[id(ctx)] = url
    try:
        if DB_BACKEND == "postgres":
            await _truncate_postgres(ctx)
        yield ctx
    finally:
        _urls.pop(id(ctx), None)
        await close_db(ctx)


@pytest.fixture
def db_url_of_current(db: TortoiseContext) -> str:
    """The URL of the `db` fixture's database: for another process on the same database."""
    return _urls[id(db)]


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """One throwaway redis-server for the whole run (tests/support/redis_server.py). Not
    installed: the tests that need it skip — with CI=true they fail."""
    try:
        server = RedisServer(tmp_path_factory.mktemp("redis"))
    except FileNotFoundError as missing:
        if IN_CI:
            pytest.fail(f"{missing} — CI=true, so this is a failure", pytrace=False)
        pytest.skip(str(missing))
    server.start()
    yield server
    server.stop()


@pytest.fixture
async def redis_url(redis_server) -> str:  # type: ignore[no-untyped-def]
    """The server's URL, emptied for this test."""
    if redis_server.process is None:
        redis_server.start()
    client = Redis.from_url(redis_server.url)
    try:
        await client.flushall()
    finally:
        await client.aclose()
    return str(redis_server.url)
