"""Size and rate limits of hosted games: every input costs bounded time and memory, every client a bounded rate.

Rate limits live in the database (`hosted_rate_limits`), so every worker process and every instance on the
same database counts together, and a restart forgets nothing. Each key (a token's hash, a client address)
holds one number, its theoretical arrival time (the generic cell rate algorithm, GCRA), updated by one atomic
upsert: a key may send `limit` requests at once, then one every `period / limit` seconds, so over any span of
`period` seconds at most `2 * limit - 1` pass. A refused request is not counted.
"""

from __future__ import annotations

import functools
import ipaddress
import os
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Float, bindparam, case, delete, select
from sqlalchemy.orm import Session

from adjudicator.hosted.models import RateLimit
from adjudicator.kept import Kept
from adjudicator.hosted.storage import Store, upsert_on


@dataclass(frozen=True)
class Limits:
    """The limits a hosted service enforces (Flask config `HOSTED_LIMITS` overrides them)."""

    max_orders: int = 200  # order lines in one submission
    max_order_length: int = 300  # characters in one order line
    max_name: int = 200  # a game's name
    max_label: int = 100  # a seat's label, and a seat's name
    max_url: int = 2000  # a webhook URL
    max_phases: int = 2000  # phases one game may be judged (a runaway bot cannot fill the database)
    max_games: int = 100_000  # games one database holds
    requests_per_minute: int = 600  # per token (or per client address without one)
    games_per_hour: int = 60  # games created per client address
    picture_units_per_minute: int = 240  # pictures per token and per address, by cost (adjudicator.pictures.cost)
    max_message_length: int = 2000  # characters in one message
    max_messages: int = 10_000  # messages one game keeps (its record stays bounded)
    messages_per_minute: int = 20  # messages one seat (or the game master) sends, on top of its requests' rate
    max_message_page: int = 100  # messages one read returns at most (`limit`)

    @classmethod
    def configured(cls, config: Mapping[str, Any] | None = None) -> Limits:
        """The limits of a server: `HOSTED_LIMITS` in its config, else the defaults with the rates an operator
        sets as `ADJUDICATOR_REQUESTS_PER_MINUTE`, `ADJUDICATOR_GAMES_PER_HOUR`,
        `ADJUDICATOR_PICTURE_UNITS_PER_MINUTE` and `ADJUDICATOR_MESSAGES_PER_MINUTE` (config, then environment)."""
        config = config or {}
        if config.get("HOSTED_LIMITS"):
            return config["HOSTED_LIMITS"]
        rates = {}
        for field_name, key in (("requests_per_minute", "ADJUDICATOR_REQUESTS_PER_MINUTE"),
                                ("games_per_hour", "ADJUDICATOR_GAMES_PER_HOUR"),
                                ("picture_units_per_minute", "ADJUDICATOR_PICTURE_UNITS_PER_MINUTE"),
                                ("messages_per_minute", "ADJUDICATOR_MESSAGES_PER_MINUTE")):
            value = config.get(key) or os.environ.get(key)
            if value:
                rates[field_name] = max(1, int(value))
        return cls(**rates)


def client_key(address: str | None) -> str:
    """The rate-limit key of a client address: an IPv6 client is counted by its /64, which one host may fill."""
    try:
        parsed = ipaddress.ip_address(address or "")
    except ValueError:
        return f"addr:{(address or '?')[:60]}"
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return f"addr:{parsed.ipv4_mapped}"
        return f"addr:{ipaddress.ip_network(f'{parsed}/64', strict=False)}"
    return f"addr:{parsed}"


@functools.lru_cache(maxsize=2)  # one statement a dialect, built once: building costs more than running
def _upsert(sqlite: bool) -> Any:
    """Count one request of a key unless it is over its rate; returns its time when counted (no row: refused)."""
    table = RateLimit.__table__
    now, interval, period = (bindparam(name, type_=Float) for name in ("now", "interval", "period"))
    start = case((table.c.tat > now, table.c.tat), else_=now)  # a key idle long enough starts afresh
    return (upsert_on(sqlite, table).on_conflict_do_update(
        index_elements=[table.c.key], set_={"tat": start + interval},
        where=start + interval - now <= period).returning(table.c.tat))


class RateLimiter:
    """Shared rate limits over a store (see the module's docstring)."""

    SWEEP_EVERY = 1000  # calls between two deletions of the keys that are back to a full allowance

    def __init__(self, store: Store, clock=time.time):
        self.store = store
        self.clock = clock
        self._calls = 0

    def wait(self, key: str, limit: int, period: float, session: Session | None = None) -> float:
        """0 when one more request of `key` is allowed now (and counted); else the seconds until one is. In
        `session`'s transaction (the request's own: counted when it commits), else in one of its own."""
        if session is None:
            with self.store.transaction() as own:
                return self.wait(key, limit, period, own)
        interval = period / limit
        now = self.clock()
        table = RateLimit.__table__
        values = {"key": key, "tat": now + interval, "now": now, "interval": interval, "period": period}
        if session.execute(_upsert(self.store.sqlite), values).first() is not None:
            tat = None
        else:
            tat = session.scalar(select(table.c.tat).where(table.c.key == key))
        self._calls += 1
        if self._calls % self.SWEEP_EVERY == 0:  # bounded table: a key past its time holds no information
            stale = select(table.c.key).where(table.c.tat < now).with_for_update(skip_locked=True)
            session.execute(delete(table).where(table.c.key.in_(stale)))  # never waits on another request's key
        return 0.0 if tat is None else max(0.0, tat + interval - period - now)


class MemoryRateLimiter:
    """The same rates (GCRA) kept in this process's memory, for keys of the stateless API, which has no database:
    each worker process counts its own, at most `keys` keys (the least recently seen forgotten first)."""

    def __init__(self, keys: int = 10_000, clock=time.monotonic):
        self.clock = clock
        self._tats = Kept(keys)
        self._lock = threading.Lock()

    def wait(self, key: str, limit: float, period: float) -> float:
        """0 when one more request of `key` is allowed now (and counted); else the seconds until one is."""
        interval = period / limit
        now = self.clock()
        with self._lock:
            cell = self._tats.get(key, lambda: [now])
            start = max(cell[0], now)
            if start + interval - now > period:
                return start + interval - period - now
            cell[0] = start + interval
            return 0.0
