"""The Redis link of several workers (REDIS_URL; unset: one process, nothing here is used).

What the workers share through it: the live fan-out (webapp/fanout.py) and the memory of
handled updates (bot/middlewares/dedup.py). The database stays the source of truth: Redis
holds nothing that cannot be lost, and a worker without it keeps answering (it says so in
the log)."""

from __future__ import annotations

import os
import socket
import uuid

from redis.asyncio import Redis

PREFIX = "kosti:"


def connect(url: str) -> Redis:
    """A client of `url` (connections are opened on first use)."""
    return Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5, health_check_interval=15)


def worker_id() -> str:
    """This process among the workers: host, pid and a random part (a restarted worker on the
    same pid is another one)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
