"""bench/tables.py's load model on several workers: PostgreSQL, Redis, N processes.

Run: ``uv run python bench/tables.py --workers 2 [--postgres URL] [--tables 50 100 150]
[--seconds 15] [--quick] [--calls]`` (the options are bench/tables.py's; ``--postgres``: a
PostgreSQL URL whose schema is dropped first, else KOSTI_TEST_POSTGRES_URL, else a throwaway
cluster of the Debian packages as bench/workers.py starts one; Redis: a throwaway
``redis-server``; both stopped, the cluster removed, at the end).

The tables, their set-up and the load are bench/tables.py's. The set-up is made by one
process on the PostgreSQL and Redis with the outgoing limits lifted, then stopped; the
levels run against N ``python -m bot`` processes (bench/workers.py's ``worker``: webhook
mode, ``DATABASE_URL`` the PostgreSQL, ``REDIS_URL`` the Redis, the default limits, which
the workers keep together in Redis; METRICS_TOKEN set), started one after the other. The
load's POSTs go to the workers' webhooks in turn (the k-th POST of a level to worker k mod
N), as a reverse proxy spreads them; the fake Bot API behind Telegram's limits is shared.

Printed per level: bench/tables.py's line, where CPU (% of one core) is the workers' added
up, RSS per table their growth added up, and ``kosti_queued`` (chat calls, lanes) is
scraped from every worker's own ``/metrics`` each second and added up; then a line more:

- each worker's updates handled a second (those POSTed to its webhook whose first call came)
  and its CPU: utime + stime over the level ÷ those updates (ms per update), and % of one
  core. It counts all the worker's work over the level: also its background tasks (sweeps,
  leases), and its share of calls for updates of the other worker — none here, as the worker
  that stores an update handles it and sends its calls;
- the throwaway PostgreSQL's CPU (the postmaster, its live children — the connections'
  backends, the checkpointer, … — and the children it reaped) and Redis's, per update
  handled by all workers, and % of one core (none for a PostgreSQL given by URL).

On a 2-core machine with PostgreSQL and Redis on it too, this shows what an update costs
on the workers and the services, not how the workers scale: they share the same two cores.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp

from bench.pipeline import Server
from bench.tables import Level, LimitedTelegram, Meters, measure, measured, set_up
from bench.workers import reset, worker
from tests.support.postgres_server import PostgresServer
from tests.support.redis_server import RedisServer


@dataclass
class Services:
    """What the workers share: the database (a throwaway cluster unless given) and Redis."""

    database_url: str
    redis: RedisServer
    postgres: PostgresServer | None  # None: a PostgreSQL of the caller's, not metered

    def meters(self) -> Meters:
        """CPU seconds so far of the throwaway PostgreSQL (every process of its cluster) and
        of Redis."""
        found: Meters = {}
        if self.postgres is not None:
            found["postgres"] = lambda: cluster_cpu_seconds(self.postgres)
        found["redis"] = lambda: pid_cpu_seconds(self.redis.process)
        return found


@contextlib.contextmanager
def services(folder: Path, postgres_url: str | None) -> Iterator[Services]:
    """PostgreSQL (`postgres_url`, else a throwaway cluster) and a throwaway Redis, stopped
    (and the cluster removed) at the end."""
    postgres = PostgresServer() if postgres_url is None else None
    redis = RedisServer(folder)
    try:
        if postgres is not None:
            postgres.start()
        redis.start()
        url = postgres_url or (postgres.url if postgres is not None else "")
        yield Services(url, redis, postgres)
    finally:
        redis.stop()
        if postgres is not None:
            postgres.remove()


# -- CPU from /proc -----------------------------------------------------------------------


def _stat(pid: int) -> list[str] | None:
    """/proc/<pid>/stat's fields after the command's name (state first), None if gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _ticks(fields: list[str], *indices: int) -> float:
    return sum(int(fields[i]) for i in indices) / os.sysconf("SC_CLK_TCK")


def pid_cpu_seconds(process: object) -> float | None:
    """utime + stime of a process (a Popen's), None where there is no /proc."""
    pid = getattr(process, "pid", None)
    fields = None if pid is None else _stat(int(pid))
    return None if fields is None else _ticks(fields, 11, 12)


def cluster_cpu_seconds(postgres: PostgresServer | None) -> float | None:
    """The postmaster's utime + stime and its reaped children's (cutime + cstime), plus
    utime + stime of each live child (the backends, the checkpointer, ...)."""
    if postgres is None:
        return None
    try:
        postmaster = int((postgres.data / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    own = _stat(postmaster)
    if own is None:
        return None
    return _ticks(own, 11, 12, 13, 14) + sum(_ticks(c, 11, 12) for c in _children(postmaster))


def _children(parent: int) -> list[list[str]]:
    """The stat fields of the live processes whose parent is `parent`."""
    found = (_stat(int(e.name)) for e in Path("/proc").iterdir() if e.name.isdigit())
    return [fields for fields in found if fields is not None and int(fields[1]) == parent]


# -- the run ------------------------------------------------------------------------------


def per_worker(servers: list[Server], meters: Meters) -> Callable[[Level], str]:
    """The line after each level's: for each worker the updates it handled (those POSTed to
    its webhook whose first call came), its CPU per update and its CPU (% of one core); then
    the shared services' CPU per update (all updates) and %."""

    def line(result: Level) -> str:
        answered = [i for i in result.tally.sent.values() if i.first is not None]
        parts = []
        for index, server in enumerate(servers):
            handled = sum(1 for i in answered if i.worker == index)
            cost = _cost(result.cpu_seconds[index], handled, result.wall)
            parts.append(f"{server.name} {handled / result.seconds:.1f} upd/s, {cost}")
        for name in meters:
            parts.append(f"{name} {_cost(result.metered.get(name), len(answered), result.wall)}")
        return "        " + "; ".join(parts)

    return line


def _cost(seconds: float | None, updates: int, wall: float) -> str:
    """CPU ms per update and % of one core."""
    if seconds is None:
        return "CPU n/a"
    per_update = f"{1000 * seconds / updates:.1f}" if updates else "-"
    return f"CPU {per_update} ms/upd {100 * seconds / wall:.0f} %"


async def run(
    fake: LimitedTelegram,
    http: aiohttp.ClientSession,
    folder: Path,
    shared: Services,
    counts: list[int],
    seconds: float,
    by_method: bool,
    workers: int,
) -> None:
    """The set-up on one process (the outgoing limits lifted), then the levels on `workers`
    processes with the default limits, all on the same PostgreSQL and Redis."""
    await reset(shared.database_url)
    env = {"DATABASE_URL": shared.database_url, "REDIS_URL": shared.redis.url}
    tables = await set_up(fake, http, worker(folder, fake, env, "setup"), max(counts))
    servers = [measured(worker(folder, fake, env, f"w{i + 1}")) for i in range(workers)]
    meters = shared.meters()
    line = per_worker(servers, meters)
    await measure(tables, servers, counts, seconds, by_method, line, meters)


async def main(
    counts: list[int], seconds: float, by_method: bool, workers: int, postgres_url: str | None
) -> None:
    with tempfile.TemporaryDirectory(prefix="kosti-tables-workers-") as name:
        folder = Path(name)
        with services(folder, postgres_url) as shared:
            fake = LimitedTelegram()
            await fake.start()
            try:
                connector = aiohttp.TCPConnector(limit=0)
                async with aiohttp.ClientSession(connector=connector) as http:
                    await run(fake, http, folder, shared, counts, seconds, by_method, workers)
            except BaseException:
                for log in sorted(folder.glob("*.log")):
                    print(f"--- {log.name}\n{log.read_text()[-2000:]}")
                raise
            finally:
                await fake.close()
