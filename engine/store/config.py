"""Tortoise configuration shared by the app, the tests and the migrations CLI."""

from __future__ import annotations

import os
from typing import Any

DEFAULT_DATABASE_URL = "sqlite://data/kosti.sqlite3"
MODELS_MODULE = "engine.store.models"
MIGRATIONS_MODULE = "engine.store.migrations"
APP_LABEL = "models"


def tortoise_config(database_url: str) -> dict[str, Any]:
    """The Tortoise config dict for one database (app label "models")."""
    return {
        "connections": {"default": database_url},
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
