"""Rate limit of a role: a token bucket shared by every request of one client."""

from __future__ import annotations

import asyncio
import time


class TokenBucket:
    """At most ``rate`` requests per second on average, bursts up to ``max(1, rate)``."""

    def __init__(self, rate: float) -> None:
        if rate <= 0:
            raise ValueError("--rate-limit must be > 0 requests per second")
        self.rate = rate
        self.capacity = max(1.0, rate)
        self.tokens = self.capacity
        self.stamp = time.monotonic()
        self._lock = asyncio.Lock()

    async def acquire(self) -> None:
        async with self._lock:
            now = time.monotonic()
            self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
            self.stamp = now
            if self.tokens < 1:
                await asyncio.sleep((1 - self.tokens) / self.rate)
                now = time.monotonic()
                self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
                self.stamp = now
            self.tokens -= 1
