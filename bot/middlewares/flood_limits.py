"""The windows of outgoing flood control (bot/middlewares/flood.py): at most `count` calls in
any `per` seconds, per key ("bot" for the bot-wide limit, a chat id for a group's).

`LocalLimits` keep them in this process. `RedisLimits` keep them in Redis, so that several
workers together stay within Telegram's limits: one Lua script checks and takes every window
of a call at once (sorted sets of call times, Redis's own clock). If Redis does not answer,
each worker falls back to its own windows and says so in the log (once a minute)."""

from __future__ import annotations

import itertools
import logging
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Protocol

from redis.asyncio import Redis
from redis.exceptions import RedisError

from engine.store.redis import PREFIX

log = logging.getLogger(__name__)
Clock = Callable[[], float]
Spec = tuple[str, int, float]  # key, count, per seconds


class Window:
    """At most `count` calls in any `per` seconds (a sliding window: Telegram counts "20 a
    minute" that way, where a token bucket would let 40 through in the first minute)."""

    def __init__(self, count: int, per: float, clock: Clock = time.monotonic) -> None:
        self.count, self.per, self.clock = count, per, clock
        self.times: deque[float] = deque()

    def wait(self) -> float:
        """Seconds until one more call is allowed (0: now)."""
        now = self.clock()
        while self.times and now - self.times[0] >= self.per:
            self.times.popleft()
        return 0.0 if len(self.times) < self.count else self.times[0] + self.per - now

    def take(self) -> None:
        self.times.append(self.clock())

    def idle(self) -> bool:
        self.wait()
        return not self.times


class Limits(Protocol):
    async def acquire(self, specs: Sequence[Spec]) -> float:
        """Take one call in every window of `specs` if all allow it (0.0), else take nothing
        and say how many seconds to wait."""

    async def close(self) -> None: ...


class LocalLimits:
    def __init__(self, clock: Clock = time.monotonic) -> None:
        self.clock = clock
        self.windows: dict[str, Window] = {}

    async def acquire(self, specs: Sequence[Spec]) -> float:
        windows = [self._window(*spec) for spec in specs]
        wait = max((w.wait() for w in windows), default=0.0)
        if wait > 0:
            return wait
        for window in windows:
            window.take()
        return 0.0

    def _window(self, key: str, count: int, per: float) -> Window:
        window = self.windows.get(key)
        if window is None:
            if len(self.windows) > 1000:  # forget the chats quiet for a window
                for idle in [k for k, w in self.windows.items() if w.idle()]:
                    del self.windows[idle]
            window = self.windows[key] = Window(count, per, self.clock)
        return window

    async def close(self) -> None:
        return None


# KEYS: the windows; ARGV: count and per (ms) of each, then the call's unique member.
_ACQUIRE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local wait = 0
for i, key in ipairs(KEYS) do
  local count, per = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - per)
  if redis.call('ZCARD', key) >= count then
    local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    wait = math.max(wait, tonumber(oldest[2]) + per - now)
  end
end
if wait > 0 then return wait end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, ARGV[#ARGV])
  redis.call('PEXPIRE', key, tonumber(ARGV[2 * i]))
end
return 0
"""


class RedisLimits:
    def __init__(self, redis: Redis, worker: str, clock: Clock = time.monotonic) -> None:
        self.redis, self.worker = redis, worker
        self.script = redis.register_script(_ACQUIRE)
        self.fallback = LocalLimits(clock)
        self._calls = itertools.count()
        self._last_complaint = -60.0

    async def acquire(self, specs: Sequence[Spec]) -> float:
        if not specs:
            return 0.0
        keys = [f"{PREFIX}flood:{key}" for key, _, _ in specs]
        args: list[int | str] = []
        for _, count, per in specs:
            args += [count, max(1, round(per * 1000))]
        args.append(f"{self.worker}:{next(self._calls)}")
        try:
            waited_ms = await self.script(keys=keys, args=args)
        except (RedisError, OSError) as error:
            now = time.monotonic()
            if now - self._last_complaint >= 60:
                log.warning("Redis does not answer, flood limits are this worker's: %s", error)
                self._last_complaint = now
            return await self.fallback.acquire(specs)
        return float(waited_ms) / 1000

    async def close(self) -> None:
        await self.redis.aclose()
