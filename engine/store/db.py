"""Start-up and shutdown of the ORM, and applying migrations from code."""

from __future__ import annotations

from contextlib import suppress

import asyncpg  # type: ignore[import-untyped]  # ships no type hints
from tortoise.context import TortoiseContext, get_current_context, set_global_context
from tortoise.exceptions import ConfigurationError, DBConnectionError
from tortoise.migrations.api import migrate as _apply_migrations

from engine.store.config import tortoise_config

# Any constant: the workers of one database agree on it.
MIGRATION_LOCK = 0x6B6F737469  # "kosti"


async def migrate(database_url: str) -> None:
    """Apply every pending migration (at start-up, before the process serves).

    Runs in its own short-lived context so an already initialised ORM is left alone.
    The folder of an SQLite file must exist (the caller creates it). On PostgreSQL the
    workers starting together take turns (an advisory lock): the first applies, the others
    find nothing left to do.
    """
    if not database_url.startswith(("postgres://", "postgresql://")):
        async with TortoiseContext():
            await _apply_migrations(config=tortoise_config(database_url))
        return
    lock = await asyncpg.connect(database_url)
    try:
        await lock.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
        async with TortoiseContext():
            await _apply_migrations(config=tortoise_config(database_url))
    finally:
        await lock.close()  # the session's lock goes with it


async def init_db(database_url: str) -> TortoiseContext:
    """Connect the ORM and make it the current context; keep the result for `close_db`.

    The context also becomes the process-wide fallback (if none is set yet), so tasks that
    did not inherit the ContextVar — aiohttp request handlers, background workers — see it.
    """
    ctx = TortoiseContext()
    ctx.__enter__()
    await ctx.init(config=tortoise_config(database_url))
    with suppress(ConfigurationError):  # another context already is the fallback
        set_global_context(ctx)
    return ctx


async def close_db(ctx: TortoiseContext | None = None) -> None:
    """Close the connections of `ctx` (default: the current context)."""
    ctx = ctx or get_current_context()
    if ctx is not None:
        await ctx.close_connections()  # also clears the global fallback if it was this one
        with suppress(ValueError):  # the ContextVar token belongs to another task's context
            ctx.__exit__(None, None, None)


# Where a lost connection to the database is raised from (an OSError elsewhere — the Bot API,
# a socket of the web app — is not the database's).
_DRIVERS = ("asyncpg", "aiosqlite", "tortoise")


def database_unreachable(error: BaseException) -> bool:
    """Whether `error` (or what caused it) is the database being out of reach — down,
    restarting, the network — rather than a refusal or a bug: its transaction wrote nothing."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, DBConnectionError | asyncpg.PostgresConnectionError):
            return True
        if isinstance(current, asyncpg.CannotConnectNowError | asyncpg.AdminShutdownError):
            return True
        if isinstance(current, OSError) and _raised_in_driver(current):
            return True
        current = current.__cause__ or current.__context__
    return False


def _raised_in_driver(error: BaseException) -> bool:
    frame = error.__traceback__
    modules = []
    while frame is not None:
        modules.append(frame.tb_frame.f_globals.get("__name__", ""))
        frame = frame.tb_next
    return any(m.split(".")[0] in _DRIVERS for m in modules)
