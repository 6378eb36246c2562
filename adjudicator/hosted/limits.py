"""Size and rate limits of hosted games: every input costs bounded time and memory."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """The limits a hosted service enforces (Flask config `HOSTED_LIMITS` overrides them)."""

    max_orders: int = 200  # order lines in one submission
    max_order_length: int = 300  # characters in one order line
    max_name: int = 200  # a game's name
    max_label: int = 100  # a seat's label
    max_url: int = 2000  # a webhook URL
    max_phases: int = 2000  # phases one game may be judged (a runaway bot cannot fill the database)
    max_games: int = 100_000  # games one database holds
    requests_per_minute: int = 600  # per token (or per client address without one)
    games_per_hour: int = 60  # games created per client address


class RateLimiter:
    """A sliding one-window counter per key; the table of keys is bounded (the oldest keys are forgotten)."""

    def __init__(self, per_window: int, window: float, max_keys: int = 10_000, clock=time.monotonic):
        self.per_window = per_window
        self.window = window
        self.max_keys = max_keys
        self.clock = clock
        self._hits: OrderedDict[str, tuple[float, int]] = OrderedDict()
        self._lock = threading.Lock()

    def allow(self, key: str) -> tuple[bool, float]:
        """Whether one more request of `key` is allowed now; if not, the seconds until it is."""
        now = self.clock()
        with self._lock:
            start, count = self._hits.pop(key, (now, 0))
            if now - start >= self.window:
                start, count = now, 0
            allowed = count < self.per_window
            self._hits[key] = (start, count + (1 if allowed else 0))
            while len(self._hits) > self.max_keys:
                self._hits.popitem(last=False)
            return allowed, 0.0 if allowed else max(0.0, start + self.window - now)
