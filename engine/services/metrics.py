"""What a host watches: the process's counters and gauges in Prometheus' terms
(prometheus-client, the reference client; served by webapp/metrics.py when METRICS_TOKEN is
set).

Each worker counts its own, and Prometheus scrapes each worker (`kosti_worker_info` names
it): the workers are separate processes, often on separate machines, so the client's
multiprocess mode (one directory of shared files) does not fit them.

The gauges that describe a live object (the queues, the sockets) read it when scraped
(`watch`): nothing is counted twice and nothing goes stale. The backlogs the database holds
are read by the runner's sweep (`set_backlog`), not at every scrape."""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import Counter, Gauge, Histogram, Info
from tortoise.functions import Count, Min

from engine.services.aggregates.sql import now
from engine.store.models import OutboxItem, OutgoingCall, ReceivedUpdate

WORKER = Info("kosti_worker", "This worker (its id in the shared tables and in Redis).")

UPDATES = Counter(
    "kosti_updates",
    "Updates handled, by kind (message, callback_query…) and outcome: ok, refused (the user "
    "was told why), duplicate, database (out of reach), error.",
    ["kind", "outcome"],
)
UPDATE_SECONDS = Histogram(
    "kosti_update_seconds",
    "Time to handle an update, by kind (its step, its rendering, its calls' queueing).",
    ["kind"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
BOT_CALLS = Counter(
    "kosti_bot_calls",
    "Bot API requests made, by method and result: ok, retry_after (a 429), refused (any other "
    "Bot API error), network.",
    ["method", "result"],
)
DATABASE_ERRORS = Counter(
    "kosti_database_errors",
    "Times the database was out of reach: where (update, webhook, api).",
    ["where"],
)
QUEUED = Gauge(
    "kosti_queued",
    "What waits now, by queue: updates in the lanes, updates in flight, chat calls waiting "
    "for Telegram's windows, chats with calls waiting.",
    ["queue"],
)
BACKLOG = Gauge(
    "kosti_backlog_rows",
    "Rows the database holds for delivery, by table: outbox (undelivered steps), "
    "outgoing_call (chat calls not yet accepted), received_update (stored, not handled).",
    ["table"],
)
BACKLOG_AGE = Gauge(
    "kosti_backlog_oldest_seconds",
    "Age of the oldest of those rows, by table (0: none).",
    ["table"],
)
SOCKETS = Gauge("kosti_websockets", "Mini App live connections open on this worker.")


def watch(gauge: Gauge, read: Callable[[], float]) -> None:
    """The gauge reads `read()` when scraped (the latest object to register wins: one
    process runs one bot)."""
    gauge.set_function(read)


def set_backlog(table: str, rows: int, oldest_seconds: float) -> None:
    BACKLOG.labels(table).set(rows)
    BACKLOG_AGE.labels(table).set(oldest_seconds)


async def read_backlogs() -> None:
    """The delivery tables' backlogs, one aggregate query each (the runner's sweep, every
    third of OUTBOX_LEASE)."""
    at = now()
    tables = (
        ("outbox", OutboxItem.filter(delivered_at__isnull=True), "id", "created_at"),
        ("outgoing_call", OutgoingCall.all(), "id", "created_at"),
        ("received_update", ReceivedUpdate.all(), "update_id", "received_at"),
    )
    for table, rows, key, stamp in tables:
        [row] = await rows.annotate(rows=Count(key), oldest=Min(stamp)).values("rows", "oldest")
        oldest = row["oldest"]
        age = (at - oldest).total_seconds() if oldest is not None else 0.0
        set_backlog(table, row["rows"], max(0.0, age))
