"""The windows of outgoing flood control (bot/middlewares/flood.py): at most `count` calls in
any `per` seconds, per key ("bot" for the bot-wide limit, a chat id for a group's).

Telegram counts a call when it arrives, which may be well after it was let go (a busy event
loop, a slow network). So a call counts from the moment it is let go until its answer came,
and from then on with the answer's time: whatever arrives within any `per` seconds was
counted within `per` seconds of the latest of those calls' start, so no more than `count`
of them can arrive in one window. (Stamping the start alone let 22 through in a minute at
the fake Bot API under load, bench/workers.py.)

`LocalLimits` keep them in this process. `RedisLimits` keep them in Redis, so that several
workers together stay within Telegram's limits: one Lua script checks and takes every window
of a call at once (sorted sets of call times, Redis's own clock), another settles it. A call
under way holds its place for at most `PENDING_S` (a worker killed in the middle). If Redis
does not answer, each worker falls back to its own windows and says so in the log (once a
minute)."""

from __future__ import annotations

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


PENDING_S = 60.0  # longest a call under way is counted before its answer (Redis)
POLL_S = 0.05  # a window full of calls under way: look again after this long


class Window:
    """At most `count` calls in any `per` seconds (a sliding window: Telegram counts "20 a
    minute" that way, where a token bucket would let 40 through in the first minute).

    Calls under way are a set; answered ones a queue of answer times, which only grow (one
    clock), so forgetting the old ones and finding the one that frees a place cost O(1)."""

    def __init__(self, count: int, per: float, clock: Clock = time.monotonic) -> None:
        self.count, self.per, self.clock = count, per, clock
        self.under_way: set[str] = set()
        self.answered: deque[float] = deque()

    def wait(self) -> float:
        """Seconds until one more call is allowed (0: now)."""
        now = self.clock()
        answered = self.answered
        while answered and now - answered[0] >= self.per:
            answered.popleft()
        excess = len(answered) + len(self.under_way) - self.count
        if excess < 0:
            return 0.0
        # the oldest answers go first; calls under way free nothing until answered
        return answered[excess] + self.per - now if excess < len(answered) else POLL_S

    def take(self, call: str) -> None:
        self.under_way.add(call)

    def settle(self, call: str) -> None:
        if call in self.under_way:
            self.under_way.discard(call)
            self.answered.append(self.clock())

    def idle(self) -> bool:
        self.wait()
        return not self.answered and not self.under_way


class Limits(Protocol):
    async def acquire(self, specs: Sequence[Spec], call: str) -> float:
        """Take one place for `call` in every window of `specs` if all allow it (0.0), else
        take nothing and say how many seconds to wait."""

    async def settle(self, specs: Sequence[Spec], call: str) -> None:
        """`call` was answered: it counts from now on, no longer as under way."""

    async def close(self) -> None: ...


class LocalLimits:
    def __init__(self, clock: Clock = time.monotonic) -> None:
        self.clock = clock
        self.windows: dict[str, Window] = {}

    async def acquire(self, specs: Sequence[Spec], call: str) -> float:
        windows = [self._window(*spec) for spec in specs]
        wait = max((w.wait() for w in windows), default=0.0)
        if wait > 0:
            return wait
        for window in windows:
            window.take(call)
        return 0.0

    async def settle(self, specs: Sequence[Spec], call: str) -> None:
        for key, _, _ in specs:
            if (window := self.windows.get(key)) is not None:
                window.settle(call)

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


# KEYS: the windows; ARGV: count and per (ms) of each, then the call's unique member and
# how long (ms) a call under way holds its place. Under way, a call's score is its deadline
# (in the future), so it stays in the window; the oldest score that frees a place decides
# the wait (a call under way: look again soon).
_ACQUIRE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local pending = tonumber(ARGV[#ARGV])
local wait = 0
for i, key in ipairs(KEYS) do
  local count, per = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - per)
  local taken = redis.call('ZCARD', key)
  if taken >= count then
    local freed = redis.call('ZRANGE', key, taken - count, taken - count, 'WITHSCORES')
    local at = tonumber(freed[2])
    if at > now then wait = math.max(wait, POLL_MS) else wait = math.max(wait, at + per - now) end
  end
end
if wait > 0 then return wait end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + pending, ARGV[#ARGV - 1])
  redis.call('PEXPIRE', key, tonumber(ARGV[2 * i]) + pending)
end
return 0
""".replace("POLL_MS", str(round(POLL_S * 1000)))

# KEYS: the windows of a call; ARGV: its member. Its answer came: it counts from now.
_SETTLE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, 'XX', now, ARGV[1])
end
return 0
"""


class RedisLimits:
    def __init__(self, redis: Redis, worker: str, clock: Clock = time.monotonic) -> None:
        self.redis, self.worker = redis, worker
        self.script = redis.register_script(_ACQUIRE)
        self.settle_script = redis.register_script(_SETTLE)
        self.fallback = LocalLimits(clock)
        self._last_complaint = -60.0

    async def acquire(self, specs: Sequence[Spec], call: str) -> float:
        if not specs:
            return 0.0
        args: list[int | str] = []
        for _, count, per in specs:
            args += [count, max(1, round(per * 1000))]
        args += [self._member(call), round(PENDING_S * 1000)]
        try:
            waited_ms = await self.script(keys=self._keys(specs), args=args)
        except (RedisError, OSError) as error:
            self._complain(error)
            return await self.fallback.acquire(specs, call)
        return float(waited_ms) / 1000

    async def settle(self, specs: Sequence[Spec], call: str) -> None:
        await self.fallback.settle(specs, call)  # if it was taken there
        if not specs:
            return
        try:
            await self.settle_script(keys=self._keys(specs), args=[self._member(call)])
        except (RedisError, OSError) as error:
            self._complain(error)

    def _keys(self, specs: Sequence[Spec]) -> list[str]:
        return [f"{PREFIX}flood:{key}" for key, _, _ in specs]

    def _member(self, call: str) -> str:
        return f"{self.worker}:{call}"

    def _complain(self, error: BaseException) -> None:
        now = time.monotonic()
        if now - self._last_complaint >= 60:
            log.warning("Redis does not answer, flood limits are this worker's: %s", error)
            self._last_complaint = now

    async def close(self) -> None:
        await self.redis.aclose()
