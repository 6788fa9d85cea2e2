"""Tortoise configuration shared by the app, the tests and the migrations CLI."""

from __future__ import annotations

import os
from typing import Any

from tortoise.backends.base.config_generator import expand_db_url

DEFAULT_DATABASE_URL = "sqlite://data/kosti.sqlite3"
MODELS_MODULE = "engine.store.models"
MIGRATIONS_MODULE = "engine.store.migrations"
APP_LABEL = "models"


# SQLite pragmas unless the URL sets them: wait for another process's write lock instead of
# failing at once; with WAL, NORMAL keeps every commit across a crash of the process (not of
# the machine) and saves an fsync per commit.
SQLITE_DEFAULTS = {"busy_timeout": "5000", "synchronous": "NORMAL"}


def with_sqlite_defaults(database_url: str) -> str:
    if not database_url.startswith("sqlite://"):
        return database_url
    base, _, query = database_url.partition("?")
    params = dict(p.split("=", 1) for p in query.split("&") if "=" in p)
    for name, value in SQLITE_DEFAULTS.items():
        params.setdefault(name, value)
    return base + "?" + "&".join(f"{k}={v}" for k, v in params.items())


# Tortoise's SQLite client with the statements on the event loop's thread (see the module).
SQLITE_ENGINE = "engine.store.sqlite_inline"


def connection_config(database_url: str) -> str | dict[str, Any]:
    """What Tortoise connects with: the URL, or for SQLite its expansion on our engine."""
    if not database_url.startswith("sqlite://"):
        return database_url
    expanded = expand_db_url(with_sqlite_defaults(database_url))
    return {**expanded, "engine": SQLITE_ENGINE}


def tortoise_config(database_url: str) -> dict[str, Any]:
    """The Tortoise config dict for one database (app label "models")."""
    return {
        "connections": {"default": connection_config(database_url)},
        "apps": {
            APP_LABEL: {
                "models": [MODELS_MODULE],
                "default_connection": "default",
                "migrations": MIGRATIONS_MODULE,
            }
        },
        "use_tz": True,
        "timezone": "UTC",
    }


# For `python -m tortoise ...` (pyproject [tool.tortoise]); DATABASE_URL as the app reads it.
TORTOISE_ORM = tortoise_config(os.environ.get("DATABASE_URL", DEFAULT_DATABASE_URL))
