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
  core. It counts all the worker's work over the level, its background tasks too (sweeps,
  leases); none of it is for the other worker's updates, as the worker that stores an update
  handles it and sends its calls;
- the throwaway PostgreSQL's CPU (the postmaster, its live children — the connections'
  backends, the checkpointer, … — and the children it reaped) and Redis's, per update
  handled by all workers, and % of one core (none for a PostgreSQL given by URL).

On a 2-core machine with PostgreSQL and Redis on it too, this shows what an update costs
on the workers and the services, not how the workers scale: they share the same two cores.

Measured
--------
2026-12-04, the shared 2-core VM, quiet but for these runs (load average, 1 minute, 0.4–3.2
at the levels' ends; 1.6 at the first run's start), PostgreSQL 15 and Redis on the same
machine. In one sitting, alternately, twice each (set-up of 150 tables 19–29 s)::

    uv run python bench/tables.py --workers 2 --tables 50 100 150 --seconds 15   (w2)
    uv run python bench/tables.py --tables 50 100 150 --seconds 15               (SQLite)

Columns: updates/s, p50 and p99 ms to the first call, out of order, the bot's CPU (% of one
core; the two workers' added up), CPU ms per update — each worker's (its own updates), or
the SQLite process's (CPU % × 10 ÷ updates/s, from a whole percent: ±0.7 ms at 150 tables)
— then PostgreSQL's and Redis's (ms per update), and the load at the level's end::

    run        tables  upd/s  p50  p99  out of order  CPU  w1 / w2 ms  postgres  redis  load
    w2 1          50    5.5   13    30     0.0 %       7 %  13.2 / 12.4    3.8      0.7    1.7
                 100    9.9   12    50     0.0 %      12 %  12.0 / 12.0    2.9      0.6    1.8
                 150   16.0   12   255     2.9 %      19 %  12.1 / 12.2    3.2      0.6    1.5
    SQLite 1      50    5.5   12   179     0.0 %       4 %   7.3                           3.2
                 100    9.9    6    13     0.0 %       7 %   7.1                           2.3
                 150   16.0    5   243     0.0 %       9 %   5.6                           1.8
    w2 2          50    5.5   11    25     0.0 %       7 %  12.9 / 11.7    3.3      0.6    1.0
                 100    9.9   11    56     0.0 %      12 %  11.9 / 12.2    3.0      0.7    0.7
                 150   16.0   12   226     1.0 %      19 %  12.2 / 11.8    3.1      0.6    0.5
    SQLite 2      50    5.5    6    19     0.0 %       4 %   7.3                           0.6
                 100    9.9    7    26     0.0 %       7 %   7.1                           0.4
                 150   16.0    7   257     0.0 %      11 %   6.9                           0.4

Both modes: no 429, calls per step 1.63–1.90 (1.40–1.51 counted by the 30/s window), chat
calls queued at most 5, RSS per table 40–56 kB. In w2 run 2, at 100 tables, one update of
about 150 had no first call (not seen in the other runs, nor in a run of that level alone
with the workers' logs kept: they logged nothing at WARNING). ``--quick --workers 2``
(load 1.4–1.5): 25 tables 2.4 updates/s, p50/p99 13/41 ms, workers 16.0/15.6 ms per update,
PostgreSQL 4.7, Redis 1.1; 50 tables 6.0 updates/s, 14/38 ms, 13.8/11.7, 3.5, 0.8.

Reading: a worker spends about 12 ms of CPU per update it handles (its background work
included, about 0.5 % of a core: 13 ms an update at 2.7 a second, 12 at 8), against 6–7 ms
for the one process on SQLite; with PostgreSQL's 3 ms and Redis's 0.6 ms an update costs
about 16 ms of CPU on this deployment, 2.2–2.8 times the SQLite process's, and at 150
tables the two workers use 19 % of one core against 9–11 %. Where the worker's extra goes
is not profiled here (candidates: the PostgreSQL driver's round trips, and Redis's per
update and per call — the update's mark, the windows' script, the live boards' PUBLISH).
The p99 is Telegram's windows' in both modes (226–257 ms at 150 tables); the median rises
from 5–7 ms to 11–12 ms at 100 and 150 tables. The windows kept in Redis hold the two
workers together under the limits (no 429); a few updates at 150 tables (1–3 %) are
overtaken, against none on one process (likely as each worker orders only its own calls,
and the two meet at the shared window). This is the cost per update, not scaling: the two
workers, PostgreSQL and Redis share the same two cores, and at these rates Telegram's 30
calls a second (about 205 tables) binds long before the CPU does.
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
