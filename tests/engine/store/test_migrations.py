"""The committed migrations are the schema: complete, applicable, and re-applicable."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import asyncpg
import pytest
from tortoise.context import TortoiseContext
from tortoise.migrations.autodetector import MigrationAutodetector

from engine.store import models
from engine.store.config import tortoise_config
from engine.store.db import migrate
from tests.conftest import DB_BACKEND, POSTGRES_URL, _reset_postgres_schema

TABLES = {
    "users",
    "chats",
    "games",
    "roles",
    "game_events",
    "roll_log",
    "pending_deliveries",
    "processed_updates",
    "private_selections",
    "streams",
    "stream_events",
    "stream_snapshots",
    "stream_checkpoints",
    "outbox",
}

sqlite_only = pytest.mark.skipif(DB_BACKEND != "sqlite", reason="SQLite process only")
postgres_only = pytest.mark.skipif(DB_BACKEND != "postgres", reason="PostgreSQL process only")


@sqlite_only
async def test_models_have_no_changes_missing_from_migrations() -> None:
    """Like `python -m tortoise makemigrations` printing "No changes detected"."""
    config = tortoise_config("sqlite://:memory:")
    async with TortoiseContext() as ctx:
        await ctx.init(config=config)
        assert ctx.apps is not None
        writers = await MigrationAutodetector(ctx.apps, config["apps"]).changes()
    pending = [(w.name, [type(op).__name__ for op in w.operations]) for w in writers]
    assert pending == [], "run `uv run python -m tortoise makemigrations` (docs/storage.md)"


def test_telegram_ids_are_not_generated() -> None:
    for model, field in (
        (models.User, "id"),
        (models.Chat, "id"),
        (models.ProcessedUpdate, "update_id"),
    ):
        assert model._meta.fields_map[field].generated is False, model.__name__


@sqlite_only
async def test_migrate_a_fresh_sqlite_file_twice(tmp_path: Path) -> None:
    path = tmp_path / "fresh.sqlite3"
    await migrate(f"sqlite://{path}")
    await migrate(f"sqlite://{path}")  # nothing left to apply: no error, no duplicate work
    with sqlite3.connect(path) as conn:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        # A Telegram id above 2**31 goes into the non-generated primary key unchanged.
        conn.execute(
            "INSERT INTO users (id, first_name, bot_started, created_at) "
            "VALUES (5000000001, 'a', 0, '2026-01-01')"
        )
        assert conn.execute("SELECT id FROM users").fetchall() == [(5000000001,)]
    assert names >= TABLES


@sqlite_only
async def test_every_index_names_columns(tmp_path: Path) -> None:
    """An index on a foreign key must name its column (`stream_id`): given the field name,
    Tortoise writes `("stream", ...)`, which SQLite takes as a string constant (an index on
    nothing) and PostgreSQL refuses."""
    path = tmp_path / "fresh.sqlite3"
    await migrate(f"sqlite://{path}")
    with sqlite3.connect(path) as conn:
        indexes = conn.execute(
            "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
        ).fetchall()
        for name, table in indexes:
            columns = [r[2] for r in conn.execute(f'PRAGMA index_info("{name}")')]
            assert columns and None not in columns, (table, name)
        assert ("stream_id", "step") in {
            tuple(r[2] for r in conn.execute(f'PRAGMA index_info("{name}")'))
            for name, table in indexes
            if table == "stream_events"
        }


@postgres_only
async def test_postgres_schema_comes_from_the_migrations(db: TortoiseContext) -> None:
    conn = await asyncpg.connect(POSTGRES_URL)
    try:
        names = {
            r["tablename"]
            for r in await conn.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            )
        }
        id_type = await conn.fetchval(
            "SELECT data_type FROM information_schema.columns "
            "WHERE table_name = 'users' AND column_name = 'id'"
        )
        id_default = await conn.fetchval(
            "SELECT column_default FROM information_schema.columns "
            "WHERE table_name = 'users' AND column_name = 'id'"
        )
    finally:
        await conn.close()
    assert names >= TABLES
    assert id_type == "bigint"
    assert id_default is None  # no sequence behind a Telegram id
    await migrate(POSTGRES_URL)  # re-running applies nothing and does not fail


@postgres_only
async def test_workers_migrating_an_empty_postgres_at_once_take_turns(db_url: str) -> None:
    """Several workers start together on a new database: one applies the migrations, the
    others wait for it and find nothing left (without the lock they fail half-way)."""
    await _reset_postgres_schema(db_url)
    results = await asyncio.gather(*(migrate(db_url) for _ in range(3)), return_exceptions=True)
    assert [r for r in results if isinstance(r, BaseException)] == []
    conn = await asyncpg.connect(db_url)
    try:
        names = {
            r["tablename"]
            for r in await conn.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            )
        }
    finally:
        await conn.close()
    assert names >= TABLES
